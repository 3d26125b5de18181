package org.sessionj.types.internal;

import java.util.List;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/** The dual of a session type: every direction inverted, payloads kept. Needs no call stack per level. */
public final class Duality extends TypeRewriter {
    private static final Duality INSTANCE = new Duality();

    private Duality() {
    }

    public static SessionType dual(SessionType type) {
        return INSTANCE.rewrite(type);
    }

    @Override
    boolean descend(Action action) {
        // A payload is the same session for sender and receiver: it is not dualised.
        return !(action instanceof Action.Send || action instanceof Action.Receive);
    }

    @Override
    void rebuild(Action action, List<SessionType> children, Sequence out) {
        out.add(dual(action, children));
    }

    /**
     * The dual of one action. An instanceof chain, not a pattern switch: a pattern switch is linked
     * through SwitchBootstraps on first use, milliseconds in a fresh JVM's first session (issue 15).
     */
    private static Action dual(Action action, List<SessionType> children) {
        if (action instanceof Action.Begin begin) {
            return new Action.Begin(begin.side().dual());
        } else if (action instanceof Action.Send send) {
            return new Action.Receive(send.payload());
        } else if (action instanceof Action.Receive receive) {
            return new Action.Send(receive.payload());
        } else if (action instanceof Action.Select select) {
            return new Action.Branch(relabel(select.branches(), children));
        } else if (action instanceof Action.Branch branch) {
            return new Action.Select(relabel(branch.branches(), children));
        } else if (action instanceof Action.OutWhile) {
            return new Action.InWhile(children.get(0));
        } else if (action instanceof Action.InWhile) {
            return new Action.OutWhile(children.get(0));
        } else if (action instanceof Action.Rec rec) {
            return withNested(rec, children);
        } else if (action instanceof Action.RecVar variable) {
            return variable;
        } else if (action instanceof Action.ProtocolRef ref) {
            return new Action.DualRef(ref.name());
        } else if (action instanceof Action.DualRef ref) {
            return new Action.ProtocolRef(ref.name());
        }
        throw new IllegalStateException("unknown action " + action.getClass().getName());
    }
}
