package org.sessionj.processor.check;

import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.WhileLoopTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import org.sessionj.processor.check.FlowScanner.Frame;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * Session iterations ({@code while (s.outwhile(c))}, {@code while (s.inwhile())}, chained and
 * multicast forms) and what ordinary loops may not do: change a session they do not iterate, or
 * jump out of an iteration before its condition decides.
 */
final class IterationRules {
    private final MethodChecker flow;

    IterationRules(MethodChecker flow) {
        this.flow = flow;
    }

    private record Control(Element var, boolean out, Tree call) {
    }

    private record IterationCondition(List<Control> controls, ExpressionTree operand) {
    }

    void leaveIteration(Element var, Tree jump, String what) {
        if (flow.state.get(var) instanceof VarState.Live) {
            flow.reporter.error(jump, Diagnostic.JUMP_OUT_OF_ITERATION, flow.name(var), what,
                    "![...]*/?[...]* of its type");
            flow.fail(var);
        }
    }

    /** Reports every variable whose state at the back edge differs from the loop entry; returns them. */
    Set<Element> checkInvariant(FlowState<Element> entry, FlowState<Element> backEdge, Tree loop,
            Set<Element> exempt, Map<Element, Tree> lastActions) {
        Set<Element> changed = new LinkedHashSet<>();
        for (Element var : entry.variables()) {
            VarState before = entry.get(var);
            VarState after = backEdge.get(var);
            if (flow.infos.containsKey(var) && flow.infos.get(var).kind().moves()) {
                continue; // ownership is widened before the loop (see widen) and checked at each use
            }
            if (after instanceof VarState.Failed && !(before instanceof VarState.Failed) && !exempt.contains(var)) {
                changed.add(var); // reported inside the body: keep it failed after the loop too
                continue;
            }
            if (exempt.contains(var) || after == null || NullStates.covers(before, after)
                    || after instanceof VarState.Failed
                    || before instanceof VarState.Failed || before instanceof VarState.Endpoint) {
                continue;
            }
            if (before instanceof VarState.Unassigned && (after instanceof VarState.Moved
                    || after instanceof VarState.Live live && live.complete())) {
                continue;
            }
            if (before instanceof VarState.Moved atEntry && atEntry.nullness() != VarState.Nullness.SOCKET) {
                // The body would start its next round with a socket where the first had null (a null
                // test there would be decided wrongly): declare the socket inside the loop instead.
                flow.reporter.error(loop, Diagnostic.LOOP_CHANGES_SESSION, flow.name(var),
                        "it is " + MethodChecker.describe(before) + " when the loop starts and "
                                + flow.selectors.describe(after) + " when it goes round; declare it inside the loop "
                                + "(SJSocket " + flow.name(var) + " = ...;)");
            } else if (after instanceof VarState.Moved moved) {
                flow.reporter.error(loop, SpawnRules.spawned(moved) ? Diagnostic.USE_AFTER_SPAWN
                        : Diagnostic.USE_AFTER_MOVE, flow.name(var), moved.how() + " in an earlier iteration of this loop");
            } else if (missingBeforeRound(before, after) instanceof SessionType missing
                    && lastActions.get(var) != null) {
                // The round goes back to its start with actions left: report where they are missing.
                flow.reporter.error(lastActions.get(var), Diagnostic.LOOP_CHANGES_SESSION, flow.name(var),
                        "after this action the loop goes round with " + TypeModel.describe(missing)
                                + " still to do before the next round (" + MethodChecker.describe(before) + ")");
            } else {
                flow.reporter.error(loop, Diagnostic.LOOP_CHANGES_SESSION, flow.name(var),
                        "the loop body changes the session from " + flow.selectors.describe(before) + " to "
                                + flow.selectors.describe(after) + "; only a session iteration (while (s.outwhile(...)) "
                                + "/ while (s.inwhile())) or a recursion (continue at #X) may repeat actions");
            }
            changed.add(var);
        }
        return changed;
    }

    /**
     * What a loop body left undone when it goes round: the state at the back edge is some actions
     * followed by the entry state (a recursion round missing its last actions), or null.
     */
    private static SessionType missingBeforeRound(VarState before, VarState after) {
        if (!(before instanceof VarState.Live b) || !(after instanceof VarState.Live a)
                || b.iterations() != a.iterations()) {
            return null;
        }
        java.util.List<Action> whole = a.remaining().actions();
        java.util.List<Action> round = b.remaining().actions();
        if (whole.size() <= round.size() || !whole.subList(whole.size() - round.size(), whole.size()).equals(round)) {
            return null;
        }
        return new SessionType(whole.subList(0, whole.size() - round.size()));
    }

    /** The session iteration a while condition denotes, or null if it is an ordinary condition. */
    private IterationCondition iterationCondition(ExpressionTree condition) {
        ExpressionTree stripped = FlowScanner.strip(condition);
        if (!(stripped instanceof MethodInvocationTree call)
                || !(flow.elementOf(call) instanceof ExecutableElement method)) {
            return null;
        }
        String operation = method.getSimpleName().toString();
        List<Control> controls = new ArrayList<>();
        ExpressionTree operand = null;
        if (flow.api.isSocketClass(method.getEnclosingElement())
                && call.getMethodSelect() instanceof MemberSelectTree select) {
            Element socket = flow.trackedSocket(select.getExpression());
            if (socket == null) {
                return null;
            }
            if (operation.equals("outwhile")) {
                controls.add(new Control(socket, true, call));
                operand = call.getArguments().get(0);
            } else if (operation.equals("inwhile")) {
                controls.add(new Control(socket, false, call));
            } else {
                return null;
            }
        } else if (flow.api.isMulticastClass(method.getEnclosingElement())
                && (operation.equals("outwhile") || operation.equals("inwhile"))) {
            List<? extends ExpressionTree> arguments = call.getArguments();
            boolean out = operation.equals("outwhile");
            if (out) {
                operand = arguments.get(0);
            }
            if (arguments.size() == (out ? 1 : 0)) {
                // SJ.inwhile() compiles (its sockets are varargs) and fails at run time: no session to iterate.
                flow.reporter.error(call, Diagnostic.MISPLACED_CONSTRUCT, "SJ." + operation + "(" + (out ? "condition" : "")
                        + ") names no session: a multicast loop iterates at least one, SJ." + operation + "("
                        + (out ? "condition, " : "") + "s1, s2, ...)");
            }
            for (Element socket : flow.actions.multicastSockets(call, arguments.subList(out ? 1 : 0,
                    arguments.size()))) {
                controls.add(new Control(socket, out, call));
            }
        } else {
            return null;
        }
        if (operand != null) {
            IterationCondition chained = iterationCondition(operand);
            if (chained != null && noneOut(chained.controls())) {
                List<Control> all = new ArrayList<>(chained.controls());
                all.addAll(controls);
                return new IterationCondition(all, null);
            }
        }
        return new IterationCondition(controls, operand);
    }

    /** Whether no control of a chained condition is an outwhile (a loop, not a stream: no lambda linked per compilation). */
    private static boolean noneOut(List<Control> controls) {
        for (Control control : controls) {
            if (control.out()) {
                return false;
            }
        }
        return true;
    }

    private void sessionLoop(StatementTree loop, IterationCondition condition, StatementTree body,
            List<? extends StatementTree> updates) {
        flow.widenOwnership(new FlowScanner.Probe() {
            @Override
            FlowState<Element> pass() {
                return sessionLoopPass(loop, condition, body, updates, true);
            }
        });
        sessionLoopPass(loop, condition, body, updates, false);
    }

    /**
     * One pass over a session iteration: {@code while (s.outwhile(c)) body}, or the same loop written
     * {@code for (init; s.outwhile(c); updates) body} (adv11 A10), whose updates run after the body
     * (and after a {@code continue}) as the body's last statements.
     */
    private FlowState<Element> sessionLoopPass(StatementTree loop, IterationCondition condition, StatementTree body,
            List<? extends StatementTree> updates, boolean probe) {
        if (condition.operand() != null) {
            flow.onceOnly("the operand of outwhile (it is evaluated before every iteration decision, not once)",
                    condition.operand());
        }
        if (flow.state == null) {
            return null;
        }
        Frame frame = flow.pushFrame(loop, true, false);
        Map<Element, SessionType> after = new LinkedHashMap<>();
        Map<Element, SessionType> bodies = new LinkedHashMap<>();
        Map<Element, Integer> depth = new HashMap<>();
        for (Control control : condition.controls()) {
            VarState.Live live = flow.actions.usable(control.var(), control.call());
            if (live == null) {
                continue;
            }
            SessionType unfolded = TypeModel.unfold(live.remaining());
            Action head = unfolded.isEnd() ? null : unfolded.head();
            SessionType iterationBody = control.out()
                    ? (head instanceof Action.OutWhile w ? w.body() : null)
                    : (head instanceof Action.InWhile w ? w.body() : null);
            if (iterationBody == null) {
                flow.reporter.error(control.call(), Diagnostic.WRONG_ACTION, flow.name(control.var()),
                        SessionActionRules.expected(unfolded, live),
                        (control.out() ? "decides an iteration (outwhile)" : "follows an iteration (inwhile)")
                                + SessionActionRules.hint(unfolded, live,
                                        control.out() ? Action.OutWhile.class : Action.InWhile.class));
                flow.fail(control.var());
                continue;
            }
            after.put(control.var(), unfolded.tail());
            bodies.put(control.var(), iterationBody);
            depth.put(control.var(), live.iterations());
            frame.controlled.add(control.var());
            flow.linearity.actionPoint(control.var(), control.call());
            flow.set(control.var(), new VarState.Live(iterationBody, live.iterations() + 1));
        }
        FlowState<Element> bodyEntry = flow.state;
        flow.scan(body, null);
        if (!updates.isEmpty()) {
            flow.state = flow.join(flow.state, frame.continues, loop, "the paths to the update of this loop");
            frame.continues = null;
            for (StatementTree update : updates) {
                flow.scan(update, null);
            }
        }
        flow.noteBackEdge(frame);
        FlowState<Element> backEdge = flow.join(flow.state, frame.continues, loop, "the paths to the next iteration");
        flow.frames.pop();
        if (probe) {
            return backEdge;
        }
        Set<Element> broken = new LinkedHashSet<>();
        if (backEdge != null) {
            for (Element var : frame.controlled) {
                VarState end = backEdge.get(var);
                if (end instanceof VarState.Live live && !live.remaining().isEnd()) {
                    flow.reporter.error(loop, Diagnostic.ITERATION_INCOMPLETE, flow.name(var),
                            TypeModel.describe(bodies.get(var)),
                            TypeModel.describe(live.remaining()));
                    broken.add(var);
                } else if (end instanceof VarState.Unknown unknown) {
                    flow.reporter.error(loop, Diagnostic.ITERATION_INCOMPLETE, flow.name(var),
                            TypeModel.describe(bodies.get(var)), unknown.how());
                    broken.add(var);
                } else if (end instanceof VarState.Moved moved) {
                    flow.reporter.error(loop, Diagnostic.USE_AFTER_MOVE, flow.name(var), moved.how()
                            + " inside its iteration (the next iteration needs it)");
                    broken.add(var);
                } else if (end instanceof VarState.Failed) {
                    broken.add(var);
                }
            }
            broken.addAll(checkInvariant(bodyEntry, backEdge, loop, frame.controlled, frame.lastBeforeBackEdge));
        }
        FlowState<Element> exit = bodyEntry;
        for (Map.Entry<Element, SessionType> entry : after.entrySet()) {
            exit = exit.with(entry.getKey(), new VarState.Live(entry.getValue(), depth.get(entry.getKey())));
        }
        flow.state = flow.probeExit(flow.join(exit, frame.breaks, loop, "the exits of this loop"), backEdge);
        for (Element var : broken) {
            flow.fail(var);
        }
        return backEdge;
    }

    /** Checks {@code loop} as a session iteration if its condition is one; returns false otherwise. */
    boolean sessionLoop(WhileLoopTree loop) {
        IterationCondition condition = iterationCondition(loop.getCondition());
        if (condition == null) {
            return false;
        }
        sessionLoop(loop, condition, loop.getStatement(), List.of());
        return true;
    }

    /**
     * The same for a {@code for} loop whose condition is a session iteration's (its initializers are
     * already checked); returns false otherwise.
     */
    boolean sessionLoop(ForLoopTree loop) {
        IterationCondition condition = loop.getCondition() == null ? null : iterationCondition(loop.getCondition());
        if (condition == null) {
            return false;
        }
        sessionLoop(loop, condition, loop.getStatement(), loop.getUpdate());
        return true;
    }

    /** A session iteration must be a while loop: the first decision precedes the body. */
    void rejectDoWhile(DoWhileLoopTree tree) {
        if (iterationCondition(tree.getCondition()) != null) {
            flow.pendingLabel = null;
            flow.reporter.error(tree.getCondition(), Diagnostic.MISPLACED_CONSTRUCT,
                    "a session iteration must be a while loop (the first decision precedes the body), "
                            + "not do ... while");
            for (Control control : iterationCondition(tree.getCondition()).controls()) {
                flow.fail(control.var());
            }
        }
    }

    /** A return inside a session iteration leaves it before its condition decides. */
    void returnFrom(ReturnTree tree) {
        for (FlowScanner.Frame frame : flow.frames) {
            for (Element var : frame.controlled) {
                if (flow.state.get(var) instanceof VarState.Live) {
                    flow.reporter.error(tree, Diagnostic.JUMP_OUT_OF_ITERATION, flow.name(var), "return",
                            "![...]*/?[...]* of its type");
                    flow.fail(var);
                }
            }
        }
    }
}
