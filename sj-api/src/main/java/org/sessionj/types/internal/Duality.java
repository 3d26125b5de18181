package org.sessionj.types.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/** The dual of a session type: every direction inverted, payloads kept. */
public final class Duality {
    private Duality() {
    }

    public static SessionType dual(SessionType type) {
        List<Action> actions = new ArrayList<>(type.actions().size());
        for (Action action : type.actions()) {
            actions.add(dual(action));
        }
        return new SessionType(actions);
    }

    private static Action dual(Action action) {
        return switch (action) {
            case Action.Begin begin -> new Action.Begin(begin.side().dual());
            case Action.Send send -> new Action.Receive(send.payload());
            case Action.Receive receive -> new Action.Send(receive.payload());
            case Action.Select select -> new Action.Branch(dual(select.branches()));
            case Action.Branch branch -> new Action.Select(dual(branch.branches()));
            case Action.OutWhile loop -> new Action.InWhile(dual(loop.body()));
            case Action.InWhile loop -> new Action.OutWhile(dual(loop.body()));
            case Action.Rec rec -> new Action.Rec(rec.variable(), dual(rec.body()));
            case Action.RecVar variable -> variable;
            case Action.ProtocolRef ref -> new Action.DualRef(ref.name());
            case Action.DualRef ref -> new Action.ProtocolRef(ref.name());
        };
    }

    private static Map<String, SessionType> dual(Map<String, SessionType> branches) {
        Map<String, SessionType> dual = new LinkedHashMap<>();
        branches.forEach((label, type) -> dual.put(label, dual(type)));
        return dual;
    }
}
