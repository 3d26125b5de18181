package org.sessionj.runtime.internal.protocol;

import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.Side;
import org.sessionj.types.TypeDiff;

/**
 * A protocol ready for sessions: its resolved, expanded type (class names binary), that type's
 * canonical text per side, its compiled state machine, and the verdicts of earlier initiation checks
 * (a server meets the same requester types again and again), in a {@link VerdictCache} bounded by
 * memory.
 */
public final class CompiledProtocol {

    private final String name;
    private final SessionType type;
    private final State start;
    private final ClassLoader loader;
    /** Whether the type came from sj-processor's descriptor (the protocol was compiled with the checker). */
    private final boolean described;
    private final String requestText;
    private final String acceptText;
    private final VerdictCache verdicts = VerdictCache.fromSettings();
    /**
     * The last verdict asked for, by the identity of the requester's text: an in-JVM requester passes
     * its protocol's own text object (a server meets the same one again and again), so a repeated
     * check costs one load and compare instead of the cache's lock, hash and equality.
     */
    private volatile Verdict last;

    /** A verdict with the text it is for. */
    private record Verdict(String requester, boolean compatible) {
    }
    /** Computed on first use: only an accepter, or a receiver of services, needs it. */
    private volatile ReachableClasses reachable;

    CompiledProtocol(String name, SessionType type, State start, ClassLoader loader, boolean described) {
        this.name = name;
        this.type = type;
        this.start = start;
        this.loader = loader;
        this.described = described;
        this.requestText = SessionTypes.print(typeFor(Side.REQUEST));
        this.acceptText = SessionTypes.print(typeFor(Side.ACCEPT));
    }

    /** Whether the type came from sj-processor's descriptor rather than the annotation read at run time. */
    boolean described() {
        return described;
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

    /** The classes a peer's types may be related to (see {@link ReachableClasses}). */
    public ReachableClasses reachable() {
        ReachableClasses r = reachable;
        if (r == null) {
            r = ReachableClasses.of(type, loader);
            reachable = r;
        }
        return r;
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
        Verdict recent = last;
        if (recent != null && recent.requester() == requesterText) {
            return recent.compatible();
        }
        Boolean known = verdicts.get(requesterText);
        boolean verdict;
        if (known != null) {
            verdict = known;
        } else {
            SessionType requester = SessionTypes.parse(requesterText);
            // Only classes reachable from this protocol are loaded for the requester's names, none initialised.
            verdict = SessionTypes.compatible(requester, typeFor(Side.ACCEPT), reachable().subtyping());
            verdicts.put(requesterText, verdict);
        }
        last = new Verdict(requesterText, verdict);
        return verdict;
    }

    /**
     * Where a requester of type {@code requesterText} first parts from what this protocol accepts, for
     * the refusal's message (computed only for a refused request); empty if it does not part.
     */
    public java.util.Optional<TypeDiff> whereRequesterDiffers(String requesterText) {
        // The requester's names reach only classes reachable from this protocol, as in the check itself.
        return TypeDiff.compatibility(SessionTypes.parse(requesterText), typeFor(Side.ACCEPT), reachable().subtyping());
    }

    @Override
    public String toString() {
        return name + ": " + SessionTypes.print(type);
    }
}
