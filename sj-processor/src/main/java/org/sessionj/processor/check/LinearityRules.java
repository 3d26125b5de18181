package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.model.TypeText;

/**
 * Session sockets are linear (implicitly {@code @NoAlias}): used only by session operations, never
 * copied, leaked or captured, completed before they go out of scope, and in an unknown state in a
 * catch block after the try block acted on them.
 */
final class LinearityRules {
    private final MethodChecker flow;

    LinearityRules(MethodChecker flow) {
        this.flow = flow;
    }


    void checkComplete(Element var, Tree at, String where) {
        if (flow.state.get(var) instanceof VarState.Unknown unknown) {
            Tree position = at != null ? at : flow.infos.get(var).declaration();
            flow.reporter.error(position, Diagnostic.INCOMPLETE_SESSION, flow.name(var), where,
                    unknown.how());
            flow.fail(var);
            return;
        }
        if (flow.state.get(var) instanceof VarState.Nullable nullable && !nullable.session().complete()) {
            Tree position = at != null ? at : flow.infos.get(var).declaration();
            flow.reporter.error(position, Diagnostic.INCOMPLETE_SESSION, flow.name(var), where,
                    TypeModel.describe(nullable.session().remaining()) + NullStates.onSessionPaths(nullable));
            flow.fail(var);
            return;
        }
        if (flow.state.get(var) instanceof VarState.Live live && !live.complete()) {
            Tree position = at != null ? at : flow.infos.get(var).declaration();
            if (live.iterations() > 0) {
                flow.reporter.error(position, Diagnostic.JUMP_OUT_OF_ITERATION, flow.name(var),
                        where.replace("at ", ""),
                        "of its type");
            } else {
                flow.reporter.error(position, Diagnostic.INCOMPLETE_SESSION, flow.name(var), where,
                        TypeModel.describe(live.remaining()));
            }
            flow.fail(var);
        }
    }

    void checkLoopVariable(Element var, Tree at) {
        if (flow.infos.get(var).kind() == Kind.SOCKET) {
            flow.reporter.error(at, Diagnostic.UNTYPED_SESSION, "session '" + var.getSimpleName() + "'",
                    "sockets taken from an array or collection cannot be checked; keep each session in its own "
                            + "variable (multicast: SJ.send(x, s1, s2))");
            flow.set(var, VarState.FAILED);
        }
    }

    /**
     * The states an exception may leave each socket, service and server socket in, for one try block:
     * {@link #any} at every point where the try block may throw, {@link #sessionFailures} at the points
     * that may throw an {@code SJIOException} (a session failure), which is all a catch of
     * {@code SJIOException} or a subclass can be entered from.
     *
     * <p>Invariant (docs/diagnostics.md, "Exceptions and sessions"): <em>an {@code SJIOException} comes
     * only from a session action, a request or accept, a call of code outside the JDK (or of JDK code
     * given a value whose class may be outside it), code Java runs implicitly ({@code toString()} of a
     * concatenation, an {@code Iterable}'s iterator, a record's accessors, {@code close()} of a
     * resource), or a {@code throw} of a type it may be</em>; the JVM's own exceptions (a null
     * dereference, an index out of bounds, a division by zero, a failed cast or unboxing) are never one.
     * And: <em>an exception out of a session action on a socket leaves that session failed</em> (the
     * runtime fails and closes it, telling the peer): at such a point the socket is {@link #failedBy}.
     */
    static final class ThrowPoints {
        /** The states at every throw point. */
        final Map<Element, Set<VarState>> any = new LinkedHashMap<>();
        /** The states at the throw points that may throw an SJIOException. */
        final Map<Element, Set<VarState>> sessionFailures = new LinkedHashMap<>();
        /**
         * The sockets an exception reaching this try statement's handlers finds closed, whatever state it
         * left them in: the resources ({@code try (s)}) of the try-with-resources blocks being read inside
         * this try block, which Java closes on the way out (adv17 A12).
         */
        final Map<Element, VarState> closedOnTheWay = new java.util.HashMap<>();
        /**
         * The scope memberships at every throw point, joined (adv18 A4: a socket added to a scope in the try
         * block is a member at some of them only); null until a throw point is recorded.
         */
        Map<Element, FlowState.Membership> members;
        /** The same at the throw points that may throw an SJIOException. */
        Map<Element, FlowState.Membership> failureMembers;

        private void track(Element var) {
            any.put(var, new LinkedHashSet<>());
            sessionFailures.put(var, new LinkedHashSet<>());
        }
    }

    /** For each enclosing try block (innermost first), its throw points. */
    private final Deque<ThrowPoints> throwPoints = new ArrayDeque<>();

    /** Starts collecting the states at which an exception may leave the try block starting here. */
    ThrowPoints enterTry() {
        ThrowPoints points = new ThrowPoints();
        if (flow.state != null) {
            for (Element var : flow.state.variables()) {
                Kind kind = flow.infos.get(var).kind();
                if (kind == Kind.SOCKET || kind == Kind.ENDPOINT) {
                    points.track(var);
                }
            }
        }
        throwPoints.push(points);
        jvmThrowPoint();
        return points;
    }

    /**
     * Starts collecting the states services and server sockets take in the catch blocks of a try
     * statement with a finally block: an exception in a catch block reaches the finally block with them.
     * Ended by {@link #exitTry}.
     */
    ThrowPoints enterCatches() {
        ThrowPoints points = new ThrowPoints();
        if (flow.state != null) {
            for (Element var : flow.state.variables()) {
                if (flow.infos.get(var).kind() == Kind.ENDPOINT) {
                    points.track(var);
                }
            }
        }
        throwPoints.push(points);
        return points;
    }

    /**
     * Where a finally block starts after an exception: each service and server socket may hold what it
     * held at any throw point of the try block or of a catch block, as well as its state on the normal
     * paths ({@code entry}). Invariant (as at a join): one protocol when all agree, else
     * {@link StateMerges#CONFLICTING}.
     */
    FlowState<Element> endpointsAtThrows(FlowState<Element> entry, List<ThrowPoints> pointSets) {
        if (entry == null) {
            return null;
        }
        FlowState<Element> result = entry;
        for (ThrowPoints points : pointSets) {
            for (Map.Entry<Element, Set<VarState>> point : points.any.entrySet()) {
                Element var = point.getKey();
                if (flow.infos.get(var).kind() != Kind.ENDPOINT || !result.tracks(var)) {
                    continue;
                }
                List<VarState> states = new ArrayList<>(point.getValue());
                states.add(result.get(var));
                result = result.with(var, StateMerges.endpointAtAny(states));
            }
        }
        return result;
    }

    void exitTry() {
        throwPoints.pop();
    }

    /**
     * How many of the outermost try blocks collecting throw points see one now: all, except while a
     * finally block is replayed for a jump that leaves the inner ones. An exception in that finally
     * block is not caught by the try statement it belongs to (nor by those inside it), so their catch
     * and finally blocks must not start from its states — above all not from a socket the silent
     * replay failed, which would hide the finally block's own error from its reported pass.
     */
    private int recordingLimit = Integer.MAX_VALUE;

    /** How many try blocks collect throw points now. */
    int tryDepth() {
        return throwPoints.size();
    }

    /** Lets only the outermost {@code depth} try blocks see throw points; returns the previous limit. */
    int limitTryRecording(int depth) {
        int previous = recordingLimit;
        recordingLimit = depth;
        return previous;
    }

    /** Whether a try block is being read: {@link #throwPoint} must be called where code may throw. */
    boolean collectingThrowPoints() {
        return !throwPoints.isEmpty();
    }

    /** Code that may throw anything, a session failure included, is about to run: each state here is one a catch may see. */
    void throwPoint() {
        record(null, null, true);
    }

    /**
     * Code that may throw, but not an {@code SJIOException}, is about to run: the JVM's own checks (a
     * null dereference, an array index, a division, a cast, an unboxing). Only catches of other types
     * (and finally blocks) see these states.
     */
    void jvmThrowPoint() {
        record(null, null, false);
    }

    /**
     * A session action on {@code var} is about to run (its operands are evaluated): if it throws, the
     * runtime has failed the session (and closed it), so a catch sees {@code var} ended there and every
     * other variable as it is now.
     */
    void actionPoint(Element var, Tree action) {
        if (flow.state == null || !collectingThrowPoints() || !(flow.state.get(var) instanceof VarState.Live)) {
            return;
        }
        record(var, failedBy(action), true);
    }

    /** The state of a session whose action {@code action} threw: failed, and closed by the runtime. */
    VarState failedBy(Tree action) {
        return new VarState.Moved(FAILED_PREFIX + flow.line(action));
    }

    /** How {@link #failedBy} describes a session ended by the failure of its own action. */
    static final String FAILED_PREFIX = "ended by the failure of its action on line ";

    /** How a socket variable set to null is described (followed by the line). */
    static final String NULL_PREFIX = "set to null on line ";

    /** How a session closed by a finally block is described (followed by the line). */
    static final String CLOSED_IN_FINALLY = "closed by the finally block on line ";

    /** How a session closed by a catch block ended (it starts with "closed": {@link #endedHere}). */
    static final String CLOSED_IN_CATCH = "closed by the catch block on line ";

    /**
     * Whether {@code var} may be closed here as the finally block's last word on it: the innermost
     * handler is a finally block, the socket is declared outside it, and every state it may be in is a
     * session this code still owns — live (an exception may have cut it short: closing it fails it and
     * tells the peer, as try-with-resources does), failed, or closed (closing again does nothing).
     */
    boolean closableInFinally(Element var) {
        return closableIn("finally", var);
    }

    /**
     * Whether {@code var} may be closed here in a catch block: the innermost handler is a catch block, the
     * socket is declared outside it, and every state it may be in is a session this code still owns. Every
     * path into a catch block is an exception path, so closing a session the try block may have cut short
     * abandons it and tells the peer, as try-with-resources around the try block would (adv12 A3).
     */
    boolean closableInCatch(Element var) {
        return closableIn("catch", var);
    }

    private boolean closableIn(String handler, Element var) {
        if (!handler.equals(flow.handlers.peek()) || flow.infos.get(var).handlerDepth() >= flow.handlers.size()) {
            return false;
        }
        return ownedSession(flow.state.get(var));
    }

    /** Whether {@code state} is a session this code still owns: live, failed, closed or unknown among those. */
    static boolean ownedSession(VarState state) {
        return state instanceof VarState.Live
                || state instanceof VarState.Unknown unknown && unknown.closable() && !unknown.mayBeNull()
                || state instanceof VarState.Moved moved && moved.nullness() == VarState.Nullness.SOCKET
                        && endedHere(moved);
    }

    /** Whether an ended session was closed or failed here (not handed to someone else), null aside. */
    static boolean endedHere(VarState.Moved moved) {
        return moved.how() != null && (moved.how().startsWith(FAILED_PREFIX) || moved.how().startsWith("closed"));
    }

    /** Whether {@code state} is that of a session a failed action ended ({@link #failedBy}). */
    static boolean failed(VarState state) {
        return state instanceof VarState.Moved moved && moved.nullness() == VarState.Nullness.SOCKET
                && moved.how() != null && moved.how().startsWith(FAILED_PREFIX);
    }

    private void record(Element var, VarState varState, boolean sessionFailure) {
        if (flow.state == null) {
            return;
        }
        // loops, not lambdas: the processor is loaded afresh per compilation, and so would each lambda be linked
        for (ThrowPoints points : recording()) {
            add(points.any, var, varState, points.closedOnTheWay);
            points.members = ScopeMemberships.joined(points.members, flow.state);
            if (sessionFailure) {
                add(points.sessionFailures, var, varState, points.closedOnTheWay);
                points.failureMembers = ScopeMemberships.joined(points.failureMembers, flow.state);
            }
        }
    }

    /**
     * The try block of a try-with-resources statement that names the sockets {@code resources} is about to be
     * read: an exception out of it closes them before it reaches the handlers of this statement or of an
     * enclosing one (JLS 14.20.3.2; adv17 A12), until {@link #resourcesBlockRead}.
     */
    void resourcesBlock(List<Element> resources, TryTree tree) {
        for (Element var : resources) {
            VarState closed = new VarState.Moved("closed at the end of the try-with-resources block on line " + flow.line(tree));
            for (ThrowPoints points : throwPoints) {
                points.closedOnTheWay.put(var, closed);
            }
        }
    }

    /** The try block of {@link #resourcesBlock} has been read. */
    void resourcesBlockRead(List<Element> resources) {
        for (Element var : resources) {
            for (ThrowPoints points : throwPoints) {
                points.closedOnTheWay.remove(var);
            }
        }
    }

    private void add(Map<Element, Set<VarState>> points, Element var, VarState varState, Map<Element, VarState> closed) {
        for (Map.Entry<Element, Set<VarState>> point : points.entrySet()) {
            VarState value = closed.containsKey(point.getKey()) ? closed.get(point.getKey())
                    : point.getKey().equals(var) ? varState : flow.state.get(point.getKey());
            if (value != null) {
                point.getValue().add(value);
            }
        }
    }

    /**
     * Code about to run may throw with {@code var} in {@code state}, which it is not in here: a call
     * that lends the session to a {@code @Session} method may throw between any two of its actions.
     */
    void throwPoint(Element var, VarState state) {
        if (flow.state == null) {
            return;
        }
        for (ThrowPoints points : recording()) {
            for (Map<Element, Set<VarState>> map : List.of(points.any, points.sessionFailures)) {
                Set<VarState> states = map.get(var);
                if (states != null) {
                    states.add(points.closedOnTheWay.containsKey(var) ? points.closedOnTheWay.get(var) : state);
                }
            }
        }
    }

    /** The throw points of each enclosing try block that records them here (below the recording limit). */
    private List<ThrowPoints> recording() {
        List<ThrowPoints> recording = new ArrayList<>();
        int index = throwPoints.size();
        for (ThrowPoints points : throwPoints) { // innermost first
            if (--index >= recordingLimit) {
                continue;
            }
            recording.add(points);
        }
        return recording;
    }

    /** Whether any of the states is failed (a loop, not a stream). */
    private static boolean anyFailed(Set<VarState> states) {
        for (VarState state : states) {
            if (state instanceof VarState.Failed) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where a catch block starts: each socket in the state it had at every point of the try block where
     * an exception the catch catches may have been thrown ({@code points}: all of them, or those that
     * may throw a session failure for a catch of {@code SJIOException} and its subclasses). Invariant: a
     * catch sees a session in one known state, as ended (no session: never assigned, or closed, or
     * failed by its own action), or as {@link VarState.Unknown}, which may not be used, ended or joined
     * with a known state — so a catch that lets the program go on after the try block cannot leave the
     * peers out of step (a recursion round half done, an action skipped).
     */
    FlowState<Element> catchEntry(FlowState<Element> entry, Map<Element, Set<VarState>> points, Tree tree) {
        FlowState<Element> result = entry;
        for (Map.Entry<Element, Set<VarState>> point : points.entrySet()) {
            Element var = point.getKey();
            Set<VarState> states = point.getValue();
            if (!entry.tracks(var)) {
                continue;
            }
            if (states.isEmpty()) {
                // Nothing in the try block can throw what this catch catches: it is entered with the state
                // at the try statement's start (javac may reject the catch; the state must still be known).
                continue;
            }
            if (anyFailed(states)) {
                result = result.with(var, VarState.FAILED);
            } else if (flow.infos.get(var).kind() == Kind.ENDPOINT) {
                result = result.with(var, StateMerges.endpointAtAny(states)); // a value: its protocols merge
            } else if (states.size() == 1) {
                result = result.with(var, states.iterator().next());
            } else if (noSession(states) != null) {
                result = result.with(var, noSession(states));
            } else if (NullStates.sessionOrNull(states) != null) {
                result = result.with(var, NullStates.sessionOrNull(states)); // null before the request, one state after it
            } else {
                // Null on a path (before the request of SJSocket t = null; try { t = svc.request(); …):
                // no session there, so the sessions alone say what the finally block may do with it once
                // a null test has ruled null out (F17).
                Set<VarState> sessions = new LinkedHashSet<>();
                boolean mayBeNull = false;
                for (VarState state : states) {
                    if (state instanceof VarState.Nullable nullable) {
                        mayBeNull = true;
                        state = nullable.session();
                    }
                    if (state instanceof VarState.Moved moved && moved.nullness() != VarState.Nullness.SOCKET) {
                        mayBeNull = true;
                        if (moved.isNull()) {
                            continue;
                        }
                        state = new VarState.Moved(moved.how());
                    }
                    sessions.add(state);
                }
                boolean closable = true;
                boolean incomplete = false;
                for (VarState state : sessions) {
                    closable &= ownedSession(state);
                    incomplete |= state instanceof VarState.Live live && !live.complete()
                            || state instanceof VarState.Unknown unknown && unknown.incomplete();
                }
                result = result.with(var, new VarState.Unknown(alternatives(sessions)
                        + " (where an exception in the try block on line " + flow.line(tree) + " may leave it)",
                        closable, mayBeNull, incomplete));
            }
        }
        return result;
    }

    /** How many of the states a catch may see are named in its description; the rest are counted. */
    static final int MAX_DESCRIBED = 6;

    /**
     * The distinct descriptions of {@code states} joined by "or": at most {@link #MAX_DESCRIBED} of them,
     * then how many other states there are. A call lending a long session has a state after each of its
     * actions (adv11 A13): describing, comparing and printing them all cost time and text quadratic in
     * its length.
     */
    private static String alternatives(Set<VarState> states) {
        Set<String> described = new LinkedHashSet<>();
        int others = 0;
        for (VarState state : states) {
            if (described.size() < MAX_DESCRIBED) {
                described.add(MethodChecker.describe(state));
            } else {
                others++;
            }
        }
        String text = String.join(" or ", described);
        return others == 0 ? text : text + String.format(java.util.Locale.ROOT, " or one of %,d other states", others);
    }

    /**
     * When none of {@code states} holds a live session (each is unassigned, or ended: closed, delegated,
     * failed), the one to continue with: an ended one if any (it may be assigned anew, not used), else
     * unassigned; null when one of them is live.
     */
    private static VarState noSession(Set<VarState> states) {
        VarState.Moved ended = null;
        for (VarState state : states) {
            if (state instanceof VarState.Moved moved) {
                ended = ended == null ? moved : NullStates.ended(ended, moved);
            } else if (!(state instanceof VarState.Unassigned)) {
                return null;
            }
        }
        return ended != null ? ended : VarState.UNASSIGNED;
    }

    /**
     * Whether {@code call} is {@code Objects.requireNonNull(s)} (or {@code requireNonNull(s, message)}) with
     * {@code argument} as {@code s}, as a statement: it reads the socket as {@code s != null} does, and its
     * result, which would be a copy, is dropped.
     */
    private boolean nullCheckStatement(MethodInvocationTree call, Tree argument, TreePath callPath) {
        if (call.getArguments().isEmpty() || call.getArguments().get(0) != argument
                || !(callPath.getParentPath().getLeaf() instanceof com.sun.source.tree.ExpressionStatementTree)) {
            return false;
        }
        return flow.trees.getElement(callPath) instanceof javax.lang.model.element.ExecutableElement method
                && method.getSimpleName().contentEquals("requireNonNull")
                && method.getEnclosingElement() instanceof javax.lang.model.element.TypeElement owner
                && owner.getQualifiedName().contentEquals("java.util.Objects");
    }

    /**
     * A use of a live (or moved) socket variable as a whole value where no session operation takes it:
     * it would copy (alias) or leak (escape) the linear socket.
     */
    void wholeValueUse(IdentifierTree tree, Element var, VarInfo info) {
        VarState value = flow.state.get(var);
        if (!(value instanceof VarState.Live || value instanceof VarState.Moved || value instanceof VarState.Unknown
                || value instanceof VarState.Nullable)) {
            return;
        }
        TreePath parentPath = flow.getCurrentPath().getParentPath();
        Tree innermost = tree;
        while (parentPath.getLeaf() instanceof ParenthesizedTree) {
            innermost = parentPath.getLeaf();
            parentPath = parentPath.getParentPath();
        }
        Tree parent = parentPath.getLeaf();
        Tree child = innermost;
        if (parent instanceof BinaryTree comparison && (comparison.getKind() == Tree.Kind.EQUAL_TO
                || comparison.getKind() == Tree.Kind.NOT_EQUAL_TO) && (isNull(comparison.getLeftOperand())
                        || isNull(comparison.getRightOperand()))) {
            return; // s == null, s != null: a read that neither copies the socket nor acts on its session
        }
        if (parent instanceof MethodInvocationTree check && nullCheckStatement(check, child, parentPath)) {
            return; // Objects.requireNonNull(s); — the same read, its result dropped (adv12 A11)
        }
        switch (parent) {
            case MemberSelectTree select -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "as the receiver of '" + select.getIdentifier() + "', which is not a session operation");
            case VariableTree variable -> flow.reporter.error(tree, Diagnostic.ALIAS, info.name(),
                    "into variable '" + variable.getName() + "'");
            case AssignmentTree assignment when assignment.getExpression() == child -> {
                ExpressionTree lhs = FlowScanner.strip(assignment.getVariable());
                Element target = flow.trees.getElement(new TreePath(flow.getCurrentPath(), lhs));
                if (target != null && target.getKind() == ElementKind.FIELD) {
                    flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                            "into field '" + target.getSimpleName() + "'");
                } else if (target != null && target.getKind() != ElementKind.OTHER) {
                    flow.reporter.error(tree, Diagnostic.ALIAS, info.name(),
                            "into variable '" + target.getSimpleName() + "'");
                } else {
                    flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into an array element");
                }
            }
            case ReturnTree ret -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(), "by being returned");
            case MethodInvocationTree call -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into a call of '" + FlowScanner.calleeName(call)
                            + "', which is not a session operation and has no @Session "
                            + "parameter there");
            case NewClassTree construction -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into a constructor call");
            case NewArrayTree array -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(), "into an array");
            default -> flow.reporter.error(tree, Diagnostic.ESCAPE, info.name(),
                    "into an expression that is not a session operation");
        }
        flow.fail(var);
    }

    private static boolean isNull(ExpressionTree operand) {
        return FlowScanner.strip(operand) instanceof LiteralTree literal && literal.getValue() == null;
    }

    /** One socket given to two {@code @Session} parameters of one call: two names for one session. */
    void lentTwice(Element var, Tree argument, javax.lang.model.element.ExecutableElement method) {
        if (flow.state != null && !(flow.state.get(var) instanceof VarState.Failed)) {
            flow.reporter.error(argument, Diagnostic.ALIAS, flow.name(var), "into a second @Session parameter of '"
                    + method.getSimpleName() + "' (both would act on one session)");
            flow.fail(var);
        }
    }

    /**
     * Assigns a socket variable; an unfinished session may not be overwritten. The assignment must be a
     * statement of its own: inside a larger expression, Java may already have evaluated the variable
     * for the earlier session ({@code f(s, (s = svc.request()) != null)} lends {@code f} the old socket,
     * {@code s.send((s = …) != null ? 1 : 2)} sends on it), while the checker's state of the variable is
     * the new session's after the assignment.
     */
    void assign(AssignmentTree tree, Element var, VarInfo info) {
        VarState previous = flow.state == null ? null : flow.state.get(var);
        VarState next = flow.origins.socketSource(tree.getExpression(), info.name());
        if (flow.state == null) {
            return;
        }
        if (!statementOfItsOwn(flow.getCurrentPath())) {
            flow.reporter.error(tree, Diagnostic.MISPLACED_CONSTRUCT, "an assignment to session socket '" + info.name()
                    + "' must be a statement of its own (s = ...;): inside a larger expression Java may already have"
                    + " evaluated '" + info.name() + "' for its earlier session");
            flow.set(var, VarState.FAILED);
            return;
        }
        if (previous instanceof VarState.Live live && !live.complete()) {
            flow.reporter.error(tree, Diagnostic.OVERWRITE, info.name(), TypeModel.describe(live.remaining()));
            next = VarState.FAILED;
        } else if (previous instanceof VarState.Nullable nullable && !nullable.session().complete()) {
            flow.reporter.error(tree, Diagnostic.OVERWRITE, info.name(),
                    TypeModel.describe(nullable.session().remaining()) + NullStates.onSessionPaths(nullable));
            next = VarState.FAILED;
        }
        flow.spawns.addedToScope(var, tree.getExpression());
        flow.liveExits.assigned(var);
        flow.set(var, next);
    }

    private static boolean statementOfItsOwn(TreePath assignment) {
        TreePath parent = assignment.getParentPath();
        while (parent != null && parent.getLeaf() instanceof ParenthesizedTree) {
            parent = parent.getParentPath();
        }
        return parent != null && parent.getLeaf() instanceof ExpressionStatementTree;
    }

    /** A socket named inside a lambda or local class body. */
    void captured(Element var, VarInfo info, IdentifierTree identifier, String what) {
        if (flow.state != null && !(flow.state.get(var) instanceof VarState.Failed)) {
            flow.reporter.error(identifier, Diagnostic.CAPTURE, info.name(), what);
            flow.fail(var);
        }
    }

    /** A method reference bound to a socket ({@code s::send}) captures it. */
    void boundBy(Element socket, MemberReferenceTree tree) {
        if (!(flow.state.get(socket) instanceof VarState.Failed)) {
            flow.reporter.error(tree, Diagnostic.CAPTURE, flow.name(socket), "a method reference");
            flow.fail(socket);
        }
    }

    /**
     * Merges two different states of a socket: a session closed or moved on one path may be complete
     * on the other; anything else disagrees.
     */
    VarState merge(Element var, VarState left, VarState right, Tree at, String what) {
        if (same(left, right)) {
            return left;
        }
        if (NullTests.impossible(left) || NullTests.impossible(right)) {
            return NullTests.impossible(left) ? right : left; // that path's null never happens (NullTests)
        }
        VarState nullMerge = NullStates.mergeNull(left, right);
        if (nullMerge != null) {
            return nullMerge;
        }
        if (left instanceof VarState.Moved moved && (right instanceof VarState.Moved
                || right instanceof VarState.Live live && live.complete())) {
            return moved;
        }
        if (right instanceof VarState.Moved moved && left instanceof VarState.Live live && live.complete()) {
            return moved;
        }
        String states = left instanceof VarState.Live l && right instanceof VarState.Live r
                && l.iterations() == r.iterations() && java.util.Objects.equals(l.selectedBy(), r.selectedBy())
                ? TypeText.difference(l.remaining(), r.remaining(), "%s on one path, %s on another")
                : flow.selectors.describe(left) + " on one path, " + flow.selectors.describe(right) + " on another";
        flow.reporter.error(at, Diagnostic.BRANCHES_DISAGREE, flow.name(var), what, states);
        return VarState.FAILED;
    }

    /**
     * Whether two states are the same session state: equal, or live with types equal once their
     * leading recursions are unfolded ({@code rec X[rec Y[B].C]} entered and {@code rec Y[B].C'}
     * after a round of the inner loop are one state).
     */
    static boolean same(VarState left, VarState right) {
        if (left.equals(right)) {
            return true;
        }
        if (left instanceof VarState.Moved l && l.isNull() && right instanceof VarState.Moved r && r.isNull()) {
            return true; // null set on two lines: no session either way
        }
        if (left instanceof VarState.Nullable l && right instanceof VarState.Nullable r) {
            return same(l.session(), r.session()); // null from two lines: the same two possibilities
        }
        return left instanceof VarState.Live l && right instanceof VarState.Live r && l.iterations() == r.iterations()
                && java.util.Objects.equals(l.selectedBy(), r.selectedBy()) && TypeModel.unfold(l.remaining()).equals(TypeModel.unfold(r.remaining()));
    }

    /**
     * At the end of a try-with-resources block, the scopes among its resources close their members declared
     * outside it ({@code members}, each with its scope and whether it is one on every path: adv17 A1, adv18 A4): each
     * must be complete there (the scope would close it cut short on a path that added it), and a member on
     * every path is closed after it. One on some paths only keeps its state: complete there, it may be closed
     * (closing again does nothing) or left as it is, as on the paths that did not add it.
     */
    void closeScopeMembers(Map<Element, SpawnRules.ClosedMember> members, TryTree tree) {
        for (Map.Entry<Element, SpawnRules.ClosedMember> member : members.entrySet()) {
            Element var = member.getKey();
            String scope = member.getValue().scope();
            boolean everyPath = member.getValue().everyPath();
            checkComplete(var, tree, "when the scope '" + scope + "' closes it (the end of this try-with-resources "
                    + "block" + (everyPath ? ")" : "; it was added to the scope on some paths only)"));
            if (everyPath && flow.state.get(var) instanceof VarState.Live) {
                flow.set(var, new VarState.Moved("closed by the scope '" + scope
                        + "' at the end of the try-with-resources block on line " + flow.line(tree)));
            }
        }
    }

    /** At the end of a try-with-resources block, the sockets it names as resources are closed. */
    void closeResources(List<Element> closedHere, TryTree tree) {
        for (Element var : closedHere) {
            checkComplete(var, tree, "at the end of this try-with-resources block");
            if (flow.state.get(var) instanceof VarState.Live) {
                flow.set(var, new VarState.Moved("closed at the end of the try-with-resources block on line "
                        + flow.line(tree)));
            }
        }
    }
}
