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
    protected boolean descend(Action action) {
        // A payload is the same session for sender and receiver: it is not dualised.
        return !(action instanceof Action.Send || action instanceof Action.Receive);
    }

    @Override
    protected void rebuild(Action action, List<SessionType> children, Sequence out) {
        out.add(switch (action) {
            case Action.Begin begin -> new Action.Begin(begin.side().dual());
            case Action.Send send -> new Action.Receive(send.payload());
            case Action.Receive receive -> new Action.Send(receive.payload());
            case Action.Select select -> new Action.Branch(relabel(select.branches(), children));
            case Action.Branch branch -> new Action.Select(relabel(branch.branches(), children));
            case Action.OutWhile loop -> new Action.InWhile(children.get(0));
            case Action.InWhile loop -> new Action.OutWhile(children.get(0));
            case Action.Rec rec -> withNested(rec, children);
            case Action.RecVar variable -> variable;
            case Action.ProtocolRef ref -> new Action.DualRef(ref.name());
            case Action.DualRef ref -> new Action.ProtocolRef(ref.name());
        });
    }
}
