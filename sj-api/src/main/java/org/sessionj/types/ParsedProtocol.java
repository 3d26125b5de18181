package org.sessionj.types;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sessionj.types.internal.Expander;

/**
 * A session type parsed from text, with the offset at which each of its nodes (actions,
 * payloads, sequences; compared by identity) was written, so problems found later can point
 * into the text. Made by {@link SessionTypes#parseWithPositions}.
 */
public final class ParsedProtocol {
    private final String text;
    private final SessionType type;
    private final IdentityHashMap<Object, Integer> offsets;

    ParsedProtocol(String text, SessionType type, IdentityHashMap<Object, Integer> offsets) {
        this.text = Objects.requireNonNull(text, "text");
        this.type = Objects.requireNonNull(type, "type");
        this.offsets = offsets;
    }

    /** The text that was parsed. */
    public String text() {
        return text;
    }

    /** The parsed type. */
    public SessionType type() {
        return type;
    }

    /**
     * The 0-based offset in {@link #text()} where {@code node} (an {@link Action}, a
     * {@link Payload} or a {@link SessionType} taken from {@link #type()}) starts, or -1 when the
     * node is not part of this parse.
     */
    public int offsetOf(Object node) {
        Integer offset = offsets.get(node);
        return offset == null ? -1 : offset;
    }

    /**
     * This protocol with every {@code @(P)} and {@code ^(P)} inlined (as {@link SessionTypes#expand}
     * does), still positioned in {@link #text()}: errors point at the reference that causes them, and
     * so do the well-formedness problems of the result that lie in inlined protocols (at the first
     * reference, when a protocol is inlined at several places).
     *
     * @throws ProtocolException as {@link SessionTypes#expand}, positioned at the offending reference
     */
    public ParsedProtocol expand(ProtocolResolver resolver) {
        Expander expander = new Expander(resolver, SessionTypes.maxNesting(), SessionTypes.MAX_EXPANDED_SIZE,
                text, offsets);
        SessionType expanded = expander.expand(type);
        IdentityHashMap<Object, Integer> all = new IdentityHashMap<>(offsets);
        for (Map.Entry<Object, Integer> entry : expander.offsets().entrySet()) { // a loop: no lambda linked on first use
            all.putIfAbsent(entry.getKey(), entry.getValue());
        }
        return new ParsedProtocol(text, expanded, all);
    }

    /** The well-formedness problems of the type, each with its offset in the text. */
    public List<ProtocolProblem> problems() {
        // a class, not a method reference: a lambda is linked on first use (in every compilation)
        return SessionTypes.wellFormednessProblems(type, new java.util.function.ToIntFunction<Object>() {
            @Override
            public int applyAsInt(Object node) {
                return offsetOf(node);
            }
        });
    }

    /**
     * Fails with a {@link ProtocolException} positioned at the first well-formedness problem
     * (its message lists the others too).
     */
    public void checkWellFormed() {
        SessionTypes.throwIfProblems(problems(), text);
    }
}
