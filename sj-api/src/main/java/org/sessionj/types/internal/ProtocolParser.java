package org.sessionj.types.internal;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.ProtocolProblem.Kind;
import org.sessionj.types.ProtocolSyntaxException;
import org.sessionj.types.SessionType;
import org.sessionj.types.Side;

/**
 * Recursive-descent parser for SJ notation (grammar in docs/session-types.md). Java message
 * types are delimited here and parsed by {@link JavaTypeParser}. Records the offset of every
 * action, payload and sequence it creates, by identity, so later checks can point into the text.
 */
public final class ProtocolParser {
    /** What may start a session action. */
    public static final String ACTION =
            "a session action (!<, ?(, !{, ?{, ![, ?[, rec, #, @(, ^(, cbegin, sbegin)";
    private static final String MESSAGE = "a message type (a Java type or a session type)";
    private static final String END_OF_INPUT = "end of input";

    /** The parsed type and the offsets of its nodes (keys compared by identity). */
    public record Result(SessionType type, IdentityHashMap<Object, Integer> offsets) {
    }

    private final String text;
    private final IdentityHashMap<Object, Integer> offsets = new IdentityHashMap<>();
    private int pos;

    private ProtocolParser(String text) {
        this.text = text;
    }

    /** Parses a whole protocol text. */
    public static Result parse(String text) {
        ProtocolParser parser = new ProtocolParser(java.util.Objects.requireNonNull(text, "text"));
        SessionType type = parser.sequence();
        parser.skip();
        if (parser.pos < text.length()) {
            throw parser.error("'.' or end of input");
        }
        return new Result(type, parser.offsets);
    }

    // sequence := ε | 'end' | action ('.' action)*
    private SessionType sequence() {
        skip();
        int at = pos;
        if (atSequenceEnd()) {
            return record(new SessionType(List.of()), at);
        }
        if (wordAt(pos).equals("end")) {
            pos += 3;
            return record(new SessionType(List.of()), at);
        }
        List<Action> actions = new ArrayList<>();
        actions.add(action());
        while (true) {
            skip();
            if (peek() != '.') {
                break;
            }
            pos++;
            skip();
            actions.add(action());
        }
        return record(new SessionType(actions), at);
    }

    private boolean atSequenceEnd() {
        return pos >= text.length() || "]},>)".indexOf(text.charAt(pos)) >= 0;
    }

    private Action action() {
        int at = pos;
        char c = peek();
        switch (c) {
            case '!' -> {
                pos++;
                skip();
                return switch (peek()) {
                    case '<' -> {
                        pos++;
                        Payload payload = payload('>');
                        yield record(new Action.Send(payload), at);
                    }
                    case '{' -> {
                        pos++;
                        yield record(new Action.Select(choices()), at);
                    }
                    case '[' -> {
                        pos++;
                        yield record(new Action.OutWhile(loopBody()), at);
                    }
                    default -> throw error("'<', '{' or '[' after '!'");
                };
            }
            case '?' -> {
                pos++;
                skip();
                return switch (peek()) {
                    case '(' -> {
                        pos++;
                        Payload payload = payload(')');
                        yield record(new Action.Receive(payload), at);
                    }
                    case '{' -> {
                        pos++;
                        yield record(new Action.Branch(choices()), at);
                    }
                    case '[' -> {
                        pos++;
                        yield record(new Action.InWhile(loopBody()), at);
                    }
                    default -> throw error("'(', '{' or '[' after '?'");
                };
            }
            case '#' -> {
                pos++;
                return record(new Action.RecVar(identifier("a recursion variable name after '#'")), at);
            }
            case '@', '^' -> {
                pos++;
                skip();
                expect('(', "'(' after '" + c + "'");
                skip();
                String name = qualifiedName();
                skip();
                expect(')', "')' after the protocol name");
                return record(c == '@' ? new Action.ProtocolRef(name) : new Action.DualRef(name), at);
            }
            default -> {
                String word = wordAt(pos);
                switch (word) {
                    case "cbegin", "sbegin" -> {
                        pos += word.length();
                        return record(new Action.Begin(word.equals("cbegin") ? Side.REQUEST : Side.ACCEPT), at);
                    }
                    case "rec" -> {
                        pos += 3;
                        skip();
                        String variable = identifier("a recursion variable name after 'rec'");
                        skip();
                        expect('[', "'[' after 'rec " + variable + "'");
                        SessionType body = sequence();
                        skip();
                        expect(']', "'.' or ']'");
                        return record(new Action.Rec(variable, body), at);
                    }
                    default -> throw error(ACTION);
                }
            }
        }
    }

    private SessionType loopBody() {
        SessionType body = sequence();
        skip();
        expect(']', "'.' or ']'");
        skip();
        expect('*', "'*' after ']' (loops are written ![…]* and ?[…]*)");
        return body;
    }

    // choices := ε | label ':' sequence (',' label ':' sequence)* [','] ; then '}'
    private Map<String, org.sessionj.types.SessionType> choices() {
        Map<String, SessionType> branches = new LinkedHashMap<>();
        skip();
        if (peek() == '}') {
            pos++;
            return branches;
        }
        while (true) {
            skip();
            int labelAt = pos;
            String label = identifier("a label");
            if (branches.containsKey(label)) {
                String found = "'" + label + "'";
                throw new ProtocolSyntaxException(Kind.DUPLICATE_LABEL,
                        "duplicate label " + found + " in one choice: expected a label not already used in this"
                                + " choice but found " + found, text, labelAt,
                        "a label not already used in this choice", found);
            }
            skip();
            expect(':', "':' after the label");
            branches.put(label, sequence());
            skip();
            if (peek() == ',') {
                pos++;
                skip();
                if (peek() == '}') {
                    pos++;
                    return branches;
                }
            } else if (peek() == '}') {
                pos++;
                return branches;
            } else {
                throw error("'.', ',' or '}'");
            }
        }
    }

    private Payload payload(char closer) {
        skip();
        int at = pos;
        Payload payload;
        if (atSessionPayload()) {
            payload = new Payload.SessionPayload(sequence());
            skip();
            expect(closer, "'.' or '" + closer + "'");
        } else {
            int end = scanJavaType(closer);
            if (text.substring(at, end).isBlank()) {
                throw error(MESSAGE);
            }
            payload = new JavaTypeParser(text, at, end, closer).parse();
            pos = end;
            expect(closer, "'" + closer + "' after the message type");
        }
        return record(payload, at);
    }

    private boolean atSessionPayload() {
        char c = peek();
        if ("!?#@^".indexOf(c) >= 0 && pos < text.length()) {
            return true;
        }
        return switch (wordAt(pos)) {
            case "rec", "cbegin", "sbegin", "end" -> true;
            default -> false;
        };
    }

    /** The end of a Java type starting at {@code pos}: the {@code closer} outside any brackets. */
    private int scanJavaType(char closer) {
        int angles = 0;
        int parens = 0;
        for (int i = pos; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == closer && (closer == '>' ? angles : parens) == 0) {
                return i;
            }
            switch (c) {
                case '<' -> angles++;
                case '>' -> angles--;
                case '(' -> parens++;
                case ')' -> {
                    if (parens == 0) {
                        return i;
                    }
                    parens--;
                }
                case '{', '}', '*', '#', '^', '!', ';' -> {
                    return i;
                }
                default -> {
                }
            }
        }
        return text.length();
    }

    private String identifier(String expected) {
        if (pos >= text.length() || !Character.isJavaIdentifierStart(text.charAt(pos))) {
            throw error(expected);
        }
        String word = wordAt(pos);
        pos += word.length();
        return word;
    }

    private String qualifiedName() {
        StringBuilder name = new StringBuilder(identifier("a protocol name"));
        while (peek() == '.') {
            pos++;
            name.append('.').append(identifier("a protocol name after '.'"));
        }
        return name.toString();
    }

    private String wordAt(int from) {
        int end = from;
        if (end < text.length() && Character.isJavaIdentifierStart(text.charAt(end))) {
            end++;
            while (end < text.length() && Character.isJavaIdentifierPart(text.charAt(end))) {
                end++;
            }
        }
        return text.substring(from, end);
    }

    private void expect(char c, String expected) {
        if (peek() != c || pos >= text.length()) {
            throw error(expected);
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    /** Skips whitespace, {@code //} line comments and {@code /* *}{@code /} block comments. */
    private void skip() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (text.startsWith("//", pos)) {
                int eol = text.indexOf('\n', pos);
                pos = eol < 0 ? text.length() : eol + 1;
            } else if (text.startsWith("/*", pos)) {
                int close = text.indexOf("*/", pos + 2);
                if (close < 0) {
                    throw new ProtocolSyntaxException(Kind.SYNTAX, text, text.length(),
                            "'*/' closing the comment opened at column " + new SourceText(text).column(pos)
                                    + " of line " + new SourceText(text).line(pos),
                            END_OF_INPUT);
                }
                pos = close + 2;
            } else {
                return;
            }
        }
    }

    private ProtocolSyntaxException error(String expected) {
        return new ProtocolSyntaxException(Kind.SYNTAX, text, pos, expected, found());
    }

    private String found() {
        if (pos >= text.length()) {
            return END_OF_INPUT;
        }
        String word = wordAt(pos);
        return "'" + (word.isEmpty() ? String.valueOf(text.charAt(pos)) : word) + "'";
    }

    private <T> T record(T node, int at) {
        offsets.put(node, at);
        return node;
    }
}
