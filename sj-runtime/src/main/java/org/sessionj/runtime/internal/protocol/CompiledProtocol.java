package org.sessionj.runtime.internal.protocol;

import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.types.Action;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.Side;
import org.sessionj.types.TypeDiff;

/**
 * A protocol ready for sessions: its resolved, expanded type (class names binary), that type's
 * canonical text per side, its compiled state machine, and the verdicts of earlier initiation checks
 * (a server meets the same requester types again and again).
 */
public final class CompiledProtocol {
    private static final int MAX_REMEMBERED_VERDICTS = 256;

    private final String name;
    private final SessionType type;
    private final State start;
    private final ClassLoader loader;
    private final String requestText;
    private final String acceptText;
    private final ConcurrentHashMap<String, Boolean> verdicts = new ConcurrentHashMap<>();

    CompiledProtocol(String name, SessionType type, State start, ClassLoader loader) {
        this.name = name;
        this.type = type;
        this.start = start;
        this.loader = loader;
        this.requestText = SessionTypes.print(typeFor(Side.REQUEST));
        this.acceptText = SessionTypes.print(typeFor(Side.ACCEPT));
    }

    /** The protocol interface's binary name. */
    public String name() {
        return name;
    }

    /** The resolved, expanded type as declared (with its begin, if it has one). */
    public SessionType type() {
        return type;
    }

    /** The first state after the begin. */
    public State start() {
        return start;
    }

    /** The class loader message classes are loaded with. */
    public ClassLoader loader() {
        return loader;
    }

    /** The side the type declares with its first action, or null when it does not begin with one. */
    public Side declaredSide() {
        return !type.isEnd() && type.head() instanceof Action.Begin begin ? begin.side() : null;
    }

    /** The type as used by {@code side}: the declared begin, or {@code side}'s begin added when there is none. */
    public SessionType typeFor(Side side) {
        return declaredSide() != null ? type : type.prepend(new Action.Begin(side));
    }

    /** The canonical text of {@link #typeFor}{@code (side)}. */
    public String textFor(Side side) {
        return side == Side.REQUEST ? requestText : acceptText;
    }

    /**
     * Whether a requester of type {@code requesterText} may run a session with this protocol as the
     * accepter.
     *
     * @throws org.sessionj.types.ProtocolException if the text does not parse or is not well-formed
     */
    public boolean acceptsRequester(String requesterText) {
        Boolean known = verdicts.get(requesterText);
        if (known != null) {
            return known;
        }
        SessionType requester = SessionTypes.parse(requesterText);
        boolean verdict = SessionTypes.compatible(requester, typeFor(Side.ACCEPT), JavaSubtyping.reflective(loader));
        if (verdicts.size() < MAX_REMEMBERED_VERDICTS) {
            verdicts.put(requesterText, verdict);
        }
        return verdict;
    }

    /**
     * Where a requester of type {@code requesterText} first parts from what this protocol accepts, for
     * the refusal's message (computed only for a refused request); empty if it does not part.
     */
    public java.util.Optional<TypeDiff> whereRequesterDiffers(String requesterText) {
        return TypeDiff.compatibility(SessionTypes.parse(requesterText), typeFor(Side.ACCEPT),
                JavaSubtyping.reflective(loader));
    }

    @Override
    public String toString() {
        return name + ": " + SessionTypes.print(type);
    }
}
