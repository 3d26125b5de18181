package org.sessionj.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A session set parsed from text, each member a {@link ParsedProtocol} positioned in the whole
 * text, so that expansion and well-formedness problems of a member point into the set's text. Made by
 * {@link SessionSets#parseWithPositions}.
 *
 * @param text the parsed text
 * @param members the members, in written order
 */
public record ParsedSet(String text, List<ParsedProtocol> members) {

    public ParsedSet {
        Objects.requireNonNull(text, "text");
        members = List.copyOf(members);
    }

    /** The set the members make. */
    public SessionSet set() {
        List<SessionType> types = new ArrayList<>(members.size());
        for (ParsedProtocol member : members) {
            types.add(member.type());
        }
        return new SessionSet(types);
    }

    /**
     * Every member expanded ({@link ParsedProtocol#expand}), positioned in the text; fails on the first
     * member that cannot be expanded. Members that become equal are kept once.
     *
     * @throws ProtocolException as {@link ParsedProtocol#expand}
     */
    public ParsedSet expand(ProtocolResolver resolver) {
        List<ParsedProtocol> expanded = new ArrayList<>(members.size());
        List<SessionType> seen = new ArrayList<>();
        for (ParsedProtocol member : members) {
            ParsedProtocol e = member.expand(resolver);
            if (!seen.contains(e.type())) {
                seen.add(e.type());
                expanded.add(e);
            }
        }
        return new ParsedSet(text, expanded);
    }

    /** Fails, positioned at the problem, when a member is not well-formed (the first such member). */
    public void checkWellFormed() {
        for (ParsedProtocol member : members) {
            member.checkWellFormed();
        }
    }
}
