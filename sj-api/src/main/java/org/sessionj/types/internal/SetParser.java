package org.sessionj.types.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.ProtocolSyntaxException;
import org.sessionj.types.SessionType;

/**
 * Parser for session set types, {@code '{' member (',' member)* [','] '}'} where each member is a
 * sequence in SJ notation (parsed by {@link ProtocolParser}). Sets are whole protocols: nothing may
 * follow the closing brace, and a set does not nest inside a sequence.
 */
public final class SetParser {

    /** One member as parsed: its type, where it starts, and (when kept) the offsets of its nodes. */
    public record ParsedMember(SessionType type, int offset, IdentityHashMap<Object, Integer> offsets) {
    }

    private SetParser() {
    }

    /** Whether the first token of {@code text} is <code>{</code>: the text is a set, not a sequence. */
    public static boolean isSet(String text) {
        try {
            int at = ProtocolParser.skipFrom(text, 0);
            return at < text.length() && text.charAt(at) == '{';
        } catch (ProtocolSyntaxException e) {
            return false; // an unclosed comment: not a set; the sequence parser reports it
        }
    }

    /**
     * Parses a whole set text. Errors are positioned {@link ProtocolSyntaxException}s: SJT100 for
     * syntax, SJT208 for <code>{</code>}, SJT104 for a member written twice, SJT103 for nesting (the braces
     * count as one level).
     */
    public static List<ParsedMember> parse(String text, int maxNesting, boolean positions) {
        java.util.Objects.requireNonNull(text, "text");
        int open = ProtocolParser.skipFrom(text, 0);
        if (open >= text.length() || text.charAt(open) != '{') {
            throw ProtocolParser.errorAt(text, open, "'{' opening a session set");
        }
        if (maxNesting < 1) {
            throw ProtocolParser.tooDeep(text, open, maxNesting);
        }
        List<ParsedMember> members = new ArrayList<>();
        Map<SessionType, Integer> seen = new HashMap<>();
        int pos = open + 1;
        while (true) {
            pos = ProtocolParser.skipFrom(text, pos);
            if (pos < text.length() && text.charAt(pos) == '}' && !members.isEmpty()) {
                pos++; // after a trailing comma
                break;
            }
            if (pos < text.length() && text.charAt(pos) == '}') {
                throw new ProtocolSyntaxException(Kind.EMPTY_SET, "a session set has at least one member: expected"
                        + " a member session type but found '}'", text, pos, "a member session type", "'}'");
            }
            ProtocolParser.Member member = ProtocolParser.parseMember(text, pos, maxNesting, positions);
            if (member.end() == pos) {
                throw ProtocolParser.errorAt(text, pos,
                        "a member session type (the terminated session is written 'end')");
            }
            Integer earlier = seen.putIfAbsent(member.type(), members.size());
            if (earlier != null) {
                String found = "'" + SourceText.abbreviate(memberText(member.type())) + "'";
                throw new ProtocolSyntaxException(Kind.DUPLICATE_MEMBER, "duplicate member " + found
                        + " in one session set (it is member " + (earlier + 1) + "): expected a member not"
                        + " already in this set but found " + found, text, pos,
                        "a member not already in this set", found);
            }
            members.add(new ParsedMember(member.type(), pos, member.offsets()));
            pos = member.end();
            char c = pos < text.length() ? text.charAt(pos) : '\0';
            if (pos < text.length() && c == ',') {
                pos++;
            } else if (pos < text.length() && c == '}') {
                pos++;
                break;
            } else {
                throw ProtocolParser.errorAt(text, pos, "'.', ',' or '}' after a member of the set");
            }
        }
        pos = ProtocolParser.skipFrom(text, pos);
        if (pos < text.length()) {
            throw ProtocolParser.errorAt(text, pos,
                    "end of input after the set's closing '}' (a session set is a whole protocol)");
        }
        return members;
    }

    /** A member as the set notation writes it: the terminated session is {@code end}. */
    public static String memberText(SessionType member) {
        return member.isEnd() ? "end" : Printer.print(member);
    }
}
