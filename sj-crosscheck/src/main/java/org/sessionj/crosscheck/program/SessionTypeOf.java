package org.sessionj.crosscheck.program;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.crosscheck.program.Stmt.Act;
import org.sessionj.crosscheck.program.Stmt.Arm;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * The session type a generated (unmutated) statement list implements: the generator checks that it
 * wrote exactly the type it was given, and a session method's {@code @Session} type is this type of
 * its body. Falling off the end of a {@code rec} loop body recurses, {@code break X} leaves it.
 */
final class SessionTypeOf {
    private SessionTypeOf() {
    }

    static SessionType side(Side side, List<Stmt> statements) {
        return new SessionType(block(side, statements, List.of()));
    }

    /** @param tail the actions that falling off the end of the block means ({@code #X} in a rec body) */
    private static List<Action> block(Side side, List<Stmt> statements, List<Action> tail) {
        List<Action> out = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            boolean last = i == statements.size() - 1;
            Stmt stmt = statements.get(i);
            switch (stmt) {
                case Act act -> {
                    switch (act.kind()) {
                        case SEND -> out.add(new Action.Send(act.declared().payload()));
                        case RECEIVE -> out.add(new Action.Receive(act.declared().payload()));
                        default -> throw new IllegalStateException("not at this level: " + act);
                    }
                }
                case Stmt.Select select -> {
                    Map<String, SessionType> arms = new LinkedHashMap<>();
                    for (Arm arm : select.arms()) {
                        List<Stmt> rest = arm.body().subList(1, arm.body().size());
                        arms.put(arm.label(), new SessionType(block(side, rest, last ? tail : List.of())));
                    }
                    out.add(new Action.Select(arms));
                    if (last) {
                        return out;
                    }
                }
                case Stmt.Branch branch -> {
                    Map<String, SessionType> arms = new LinkedHashMap<>();
                    for (Arm arm : branch.arms()) {
                        arms.put(arm.label(), new SessionType(block(side, arm.body(), last ? tail : List.of())));
                    }
                    out.add(new Action.Branch(arms));
                    if (last) {
                        return out;
                    }
                }
                case Stmt.OutLoop loop -> out.add(new Action.OutWhile(new SessionType(block(side, loop.body(), List.of()))));
                case Stmt.InLoop loop -> out.add(new Action.InWhile(new SessionType(block(side, loop.body(), List.of()))));
                case Stmt.Rec rec -> out.add(new Action.Rec(rec.label(),
                        new SessionType(block(side, rec.body(), List.of(new Action.RecVar(rec.label()))))));
                case Stmt.Jump jump -> {
                    if (jump.recurse()) {
                        out.add(new Action.RecVar(jump.label()));
                    }
                    return out;
                }
                case Stmt.Call call -> {
                    Side.Method method = side.method(call.method());
                    out.addAll(block(side, method.body(), List.of()));
                }
                case Stmt.Wrap wrap -> throw new IllegalStateException("a generated program has no " + wrap);
            }
        }
        out.addAll(tail);
        return out;
    }
}
