package org.sessionj.processor.check;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;

/**
 * The flow-analysis engine under the checker: an abstract interpretation over structured Java
 * statements that threads an immutable {@link FlowState} (one {@link VarState} per tracked variable)
 * through blocks, conditionals, loops, labelled statements and jumps, and merges it where control
 * flow joins. It knows nothing of sessions: what a state means, how two states merge, what must hold
 * when a variable leaves its scope or a loop goes round, are the subclass's rules
 * ({@link MethodChecker}). {@code null} state means unreachable.
 */
abstract class FlowScanner extends TreePathScanner<Void, Void> {
    final Trees trees;
    final Reporter reporter;

    FlowScanner(Trees trees, Reporter reporter) {
        this.trees = trees;
        this.reporter = reporter;
    }

    /** The merged state of one variable whose states differ on two incoming paths (may report). */
    abstract VarState merge(Element var, VarState left, VarState right, Tree at, String what);

    /** What must hold when {@code var} goes out of scope ({@code at} a jump, or null at its scope's end). */
    abstract void checkComplete(Element var, Tree at, String where);

    /**
     * Compares the states at a loop's entry and back edge; reports what must not change and returns
     * the variables to fail after the loop. {@code exempt} variables are handled by the caller.
     */
    abstract Set<Element> checkInvariant(FlowState<Element> entry, FlowState<Element> backEdge, Tree loop,
            Set<Element> exempt, Map<Element, Tree> lastActions);

    /** The tree of the last session action checked on {@code var} (in reading order), or null. */
    abstract Tree lastAction(Element var);

    /** Notes, for the loop of {@code frame}, the last action of each variable on a path going round. */
    void noteBackEdge(Frame frame) {
        if (state != null) {
            for (Element var : state.variables()) {
                Tree last = lastAction(var);
                if (last != null) {
                    frame.lastBeforeBackEdge.putIfAbsent(var, last);
                }
            }
        }
    }

    /** A jump ({@code what}) leaves the iteration that {@code var} is the subject of. */
    abstract void leaveIteration(Element var, Tree jump, String what);

    /**
     * An enhanced for loop calls its Iterable's iterator() before the loop, and hasNext()/next() before
     * each iteration: code the subclass may have to account for, at the current state.
     */
    void iterationCall(EnhancedForLoopTree loop) {
    }

    /** The variable of an enhanced for loop is a tracked one. */
    abstract void checkLoopVariable(Element var, Tree at);

    /**
     * What a tracked variable is: a session socket, a service or server socket, a {@code @NoAlias}
     * local or parameter, or a {@code @NoAlias} field of the class whose method is checked.
     */
    enum Kind {
        SOCKET, ENDPOINT, NOALIAS, NOALIAS_FIELD,
        /** A local that may hold a {@code @NoAlias} value itself or a view of it ({@link NoAliasViews}). */
        VIEW;

        /** Whether the variable holds a uniquely owned value that moves ({@code @NoAlias}). */
        boolean owned() {
            return this == NOALIAS || this == NOALIAS_FIELD;
        }

        /** Whether moves decide the variable's state: an owned value, or a view that ends when its value moves. */
        boolean moves() {
            return owned() || this == VIEW;
        }
    }

    /**
     * {@code handlerDepth} and {@code regionDepth}: how many catch/finally blocks and run-not-once
     * regions ({@link #onceOnly}) enclose the declaration; an action in a deeper one is rejected.
     */
    record VarInfo(String name, Kind kind, int handlerDepth, int regionDepth, Tree declaration) {
    }

    static final class Scope {
        final List<Element> vars = new ArrayList<>();
    }

    static final class Frame {
        final Tree tree;
        final String label;
        final boolean loop;
        final boolean switchExpression;
        final int scopeDepth;
        /** How many frames enclose this one. */
        final int depth;
        final Set<Element> controlled = new LinkedHashSet<>();
        FlowState<Element> breaks;
        FlowState<Element> continues;
        /** For each variable, its last action on a path that goes round (a continue, or the body's end). */
        final Map<Element, Tree> lastBeforeBackEdge = new HashMap<>();

        Frame(Tree tree, String label, boolean loop, boolean switchExpression, int scopeDepth, int depth) {
            this.tree = tree;
            this.depth = depth;
            this.label = label;
            this.loop = loop;
            this.switchExpression = switchExpression;
            this.scopeDepth = scopeDepth;
        }
    }

    final Map<Element, VarInfo> infos = new HashMap<>();
    final Deque<Scope> scopes = new ArrayDeque<>();
    final Deque<Frame> frames = new ArrayDeque<>();
    final Deque<String> handlers = new ArrayDeque<>();
    /**
     * Code that does not run exactly once where it stands, innermost first, each described for the
     * message ("an assert statement, which runs only with -ea"): no session action may happen there
     * on a session declared outside it (SJ027).
     */
    final Deque<String> onceOnly = new ArrayDeque<>();
    FlowState<Element> state = FlowState.empty();
    String pendingLabel;
    /** Statements nested deeper than this are not followed (SJ008), far above any hand-written code. */
    static final int MAX_STATEMENT_NESTING = 256;

    /** Thrown when a body nests statements deeper than {@link #MAX_STATEMENT_NESTING}; reported as SJ008. */
    static final class TooDeep extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooDeep() {
            super("statements nested more than " + MAX_STATEMENT_NESTING + " levels deep", null, false, false);
        }
    }

    private int statementDepth;

    @Override
    public Void scan(Tree tree, Void unused) {
        if (state == null || tree == null) {
            return null; // unreachable code: javac reports what matters
        }
        if (!(tree instanceof StatementTree)) {
            return super.scan(tree, unused);
        }
        if (++statementDepth > MAX_STATEMENT_NESTING) {
            throw new TooDeep();
        }
        try {
            return super.scan(tree, unused);
        } finally {
            statementDepth--;
        }
    }

    void scanPath(TreePath path) {
        if (state != null) {
            super.scan(path, null);
        }
    }

    /** The path of the body being checked, for trees looked at before its scan starts. */
    TreePath root;

    TreePath pathOf(Tree leaf) {
        return new TreePath(getCurrentPath() != null ? getCurrentPath() : root, leaf);
    }

    static ExpressionTree strip(ExpressionTree tree) {
        ExpressionTree current = tree;
        while (current instanceof ParenthesizedTree parenthesized) {
            current = parenthesized.getExpression();
        }
        return current;
    }

    static String calleeName(MethodInvocationTree call) {
        ExpressionTree select = call.getMethodSelect();
        return select instanceof MemberSelectTree member ? member.getIdentifier().toString() : select.toString();
    }

    Element elementOf(Tree tree) {
        return trees.getElement(pathOf(tree));
    }

    String name(Element var) {
        VarInfo info = infos.get(var);
        return info == null ? var.getSimpleName().toString() : info.name();
    }

    void set(Element var, VarState value) {
        if (state != null && state.tracks(var)) {
            state = state.with(var, value);
        }
    }

    void fail(Element var) {
        set(var, VarState.FAILED);
    }

    long line(Tree tree) {
        return reporter.line(tree);
    }

    FlowState<Element> join(FlowState<Element> left, FlowState<Element> right, Tree at, String what) {
        if (left == null || right == null || left == right) {
            return left == null ? right : left;
        }
        return FlowState.join(left, right, new JoinMerger(at, what));
    }

    /**
     * The merger of one join: a class, not a lambda, as are the other callbacks of the engine. javac
     * loads the processor afresh for every compilation, so each lambda site would be linked afresh
     * (a class spun by LambdaMetafactory) in every one.
     */
    private final class JoinMerger implements FlowState.Merger<Element> {
        private final Tree at;
        private final String what;

        JoinMerger(Tree at, String what) {
            this.at = at;
            this.what = what;
        }

        @Override
        public VarState merge(Element var, VarState left, VarState right) {
            return FlowScanner.this.merge(var, left, right, at, what);
        }
    }

    Scope pushScope() {
        Scope scope = new Scope();
        scopes.push(scope);
        return scope;
    }

    void exitScope(Scope scope, Tree at, String where) {
        if (state != null) {
            for (Element var : scope.vars) {
                checkComplete(var, at, where);
            }
            state = state.without(scope.vars);
        }
    }

    @Override
    public Void visitBlock(BlockTree block, Void unused) {
        Scope scope = pushScope();
        for (StatementTree statement : block.getStatements()) {
            scan(statement, null);
        }
        exitScope(scope, null, "at the end of its scope");
        scopes.pop();
        return null;
    }

    /**
     * The states in which a condition is true and false; either is null where it cannot happen (a
     * branch that cannot run is not joined).
     */
    record Branches(FlowState<Element> then, FlowState<Element> otherwise) {
    }

    /**
     * What the two outcomes of {@code condition}, evaluated into {@code in}, know beyond {@code in} (the
     * subclass's null tests), or null when they know nothing more: both start in {@code in}.
     */
    Branches branches(ExpressionTree condition, FlowState<Element> in) {
        return null;
    }

    @Override
    public Void visitIf(IfTree tree, Void unused) {
        scan(tree.getCondition(), null);
        Branches branches = branches(tree.getCondition(), state);
        FlowState<Element> otherwise = branches == null ? state : branches.otherwise();
        if (branches != null) {
            state = branches.then();
        }
        scan(tree.getThenStatement(), null);
        FlowState<Element> afterThen = state;
        state = otherwise;
        scan(tree.getElseStatement(), null);
        state = join(afterThen, state, tree, "the branches of this if");
        return null;
    }

    @Override
    public Void visitConditionalExpression(ConditionalExpressionTree tree, Void unused) {
        scan(tree.getCondition(), null);
        Branches branches = branches(tree.getCondition(), state);
        FlowState<Element> otherwise = branches == null ? state : branches.otherwise();
        if (branches != null) {
            state = branches.then();
        }
        scan(tree.getTrueExpression(), null);
        FlowState<Element> afterTrue = state;
        state = otherwise;
        scan(tree.getFalseExpression(), null);
        state = join(afterTrue, state, tree, "the alternatives of this conditional expression");
        return null;
    }

    @Override
    public Void visitBinary(BinaryTree tree, Void unused) {
        if (tree.getKind() != Tree.Kind.CONDITIONAL_AND && tree.getKind() != Tree.Kind.CONDITIONAL_OR) {
            return super.visitBinary(tree, unused);
        }
        scan(tree.getLeftOperand(), null);
        FlowState<Element> afterLeft = state;
        // The right operand runs only where the left one is true (&&) or false (||): t != null && t.… reads t
        // knowing it holds its session.
        Branches left = branches(tree.getLeftOperand(), state);
        boolean and = tree.getKind() == Tree.Kind.CONDITIONAL_AND;
        if (left != null) {
            afterLeft = and ? left.otherwise() : left.then();
            state = and ? left.then() : left.otherwise();
        }
        scan(tree.getRightOperand(), null);
        state = join(afterLeft, state, tree, "the short-circuit paths of this " + (and ? "&&" : "||"));
        return null;
    }

    /** Scans code that does not run exactly once where it stands ({@code what}, for messages). */
    void onceOnly(String what, Runnable code) {
        onceOnly.push(what);
        try {
            code.run();
        } finally {
            onceOnly.pop();
        }
    }

    /** Scans each tree in order (a loop, not a lambda at each call site: see {@link JoinMerger}). */
    void scanEach(List<? extends Tree> trees) {
        for (Tree tree : trees) {
            scan(tree, null);
        }
    }

    /** {@link #onceOnly(String, Runnable)} of one tree's scan (no lambda: see {@link JoinMerger}). */
    void onceOnly(String what, Tree code) {
        onceOnly.push(what);
        try {
            scan(code, null);
        } finally {
            onceOnly.pop();
        }
    }

    Frame pushFrame(Tree tree, boolean loop, boolean switchExpression) {
        Frame frame = new Frame(tree, pendingLabel, loop, switchExpression, scopes.size(), frames.size());
        pendingLabel = null;
        frames.push(frame);
        return frame;
    }

    @Override
    public Void visitLabeledStatement(LabeledStatementTree tree, Void unused) {
        StatementTree statement = tree.getStatement();
        String label = tree.getLabel().toString();
        if (statement instanceof WhileLoopTree || statement instanceof DoWhileLoopTree
                || statement instanceof ForLoopTree || statement instanceof EnhancedForLoopTree
                || statement instanceof SwitchTree) {
            pendingLabel = label;
            scan(statement, null);
            return null;
        }
        pendingLabel = label;
        Frame frame = pushFrame(tree, false, false);
        scan(statement, null);
        frames.pop();
        state = join(state, frame.breaks, tree, "the exits of this labeled statement");
        return null;
    }

    /** Checks {@code tree} (its initializers checked) as a session iteration if its condition is one. */
    boolean sessionFor(ForLoopTree tree) {
        return false;
    }

    @Override
    public Void visitForLoop(ForLoopTree tree, Void unused) {
        Scope scope = pushScope();
        String label = pendingLabel;
        pendingLabel = null;
        for (StatementTree init : tree.getInitializer()) {
            scan(init, null);
        }
        pendingLabel = label;
        if (!sessionFor(tree)) {
            plainLoop(tree, tree.getCondition(), tree.getStatement(), tree.getUpdate(), false);
        }
        exitScope(scope, null, "at the end of its scope");
        scopes.pop();
        return null;
    }

    @Override
    public Void visitEnhancedForLoop(EnhancedForLoopTree tree, Void unused) {
        String label = pendingLabel;
        pendingLabel = null;
        scan(tree.getExpression(), null);
        iterationCall(tree);
        Scope scope = pushScope();
        iterationStarted(tree);
        pendingLabel = label;
        widenOwnership(new Probe() {
            @Override
            FlowState<Element> pass() {
                return enhancedForPass(tree, true);
            }
        });
        enhancedForPass(tree, false);
        exitScope(scope, null, "at the end of its scope");
        scopes.pop();
        return null;
    }

    /** An enhanced for statement evaluated its expression, in the loop's scope (the subclass tracks the value). */
    void iterationStarted(EnhancedForLoopTree tree) {
    }

    /** An iteration of an enhanced for statement starts by reading the next element. */
    void nextElement(EnhancedForLoopTree tree) {
    }

    FlowState<Element> enhancedForPass(EnhancedForLoopTree tree, boolean probe) {
        FlowState<Element> entry = state;
        Frame frame = pushFrame(tree, true, false);
        nextElement(tree);
        scan(tree.getVariable(), null);
        Element loopVariable = trees.getElement(pathOf(tree.getVariable()));
        if (loopVariable != null && infos.containsKey(loopVariable)) {
            checkLoopVariable(loopVariable, tree.getVariable());
        }
        scan(tree.getStatement(), null);
        noteBackEdge(frame);
        state = join(state, frame.continues, tree, "the paths to the next iteration");
        iterationCall(tree);
        FlowState<Element> backEdge = state;
        frames.pop();
        if (probe) {
            return backEdge;
        }
        Set<Element> changed = backEdge == null ? Set.of() : checkInvariant(entry, backEdge, tree, Set.of(),
                frame.lastBeforeBackEdge);
        state = probeExit(join(entry, frame.breaks, tree, "the exits of this loop"), backEdge);
        failChanged(changed, entry, backEdge);
        return backEdge;
    }

    void plainLoop(Tree loop, ExpressionTree condition, StatementTree body,
            List<? extends StatementTree> updates, boolean doWhile) {
        widenOwnership(new Probe() {
            @Override
            FlowState<Element> pass() {
                return plainLoopPass(loop, condition, body, updates, doWhile, true);
            }
        });
        plainLoopPass(loop, condition, body, updates, doWhile, false);
    }

    /**
     * Before a loop is checked, runs {@code probe} (one silent pass over the loop from the current
     * state, returning the state at its back edge) to find the {@code @NoAlias} values the body may
     * have moved by the next iteration, and marks them moved at the loop entry: a use in the next
     * iteration before reassignment is then reported where it happens.
     */
    void widenOwnership(Probe probe) {
        FlowState<Element> entry = state;
        if (probing > 0 || entry == null || !anyWidens(entry)) {
            return; // inside a probe, a nested loop's exit takes its back edge's moves instead (probeExit)
        }
        String label = pendingLabel;
        FlowState<Element> backEdge;
        reporter.silence();
        probing++;
        try {
            backEdge = probe.pass();
        } finally {
            probing--;
            reporter.speak();
        }
        pendingLabel = label;
        FlowState<Element> widened = entry;
        if (backEdge != null) {
            for (Element var : entry.variables()) {
                VarState next = widened(var, entry.get(var), backEdge.get(var), " (in an earlier iteration)");
                if (next != null) {
                    widened = widened.with(var, next);
                }
            }
            // a scope member in a later round and not in the first (or the reverse) is one on some paths (adv18 A4)
            widened = widened.withMembershipsJoined(backEdge);
        }
        state = widened;
    }

    /** One silent pass over a loop, returning the state at its back edge (a class, not a lambda: see {@link JoinMerger}). */
    abstract static class Probe {
        abstract FlowState<Element> pass();
    }

    private boolean anyWidens(FlowState<Element> entry) {
        for (Element var : entry.variables()) {
            if (widens(var, entry.get(var))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a loop must be probed for how {@code var}, in {@code state} at its entry, may differ in a
     * later iteration: a {@code @NoAlias} value the body may move (the subclass adds its own).
     */
    boolean widens(Element var, VarState state) {
        return state instanceof VarState.Owned;
    }

    /**
     * The state of {@code var} at a loop's entry given its states at the entry and at the back edge
     * ({@code later} describes the back edge in messages), or null if the entry state stands: a value
     * moved by the back edge may be moved at the entry.
     */
    VarState widened(Element var, VarState atEntry, VarState atBackEdge, String later) {
        return atEntry instanceof VarState.Owned && atBackEdge instanceof VarState.Moved moved
                ? new VarState.Moved(moved.how() + later) : null;
    }

    /**
     * How many probes (silent passes finding a loop's moves, {@link #widenOwnership}) are running. A
     * loop inside a probe is not probed again — that made the analysis exponential in loop nesting —
     * but its exit is given the {@code @NoAlias} moves of its back edge ({@link #probeExit}), which is
     * all the enclosing probe needs: one pass per nesting level, quadratic at worst.
     */
    int probing;

    /**
     * A loop's exit state inside a probe: values moved by the time of its back edge may be moved, and
     * sockets added to a scope by then may be members.
     */
    FlowState<Element> probeExit(FlowState<Element> exit, FlowState<Element> backEdge) {
        if (probing == 0 || exit == null || backEdge == null) {
            return exit;
        }
        FlowState<Element> result = exit;
        for (Element var : exit.variables()) {
            VarState next = widened(var, exit.get(var), backEdge.get(var), "");
            if (next != null) {
                result = result.with(var, next);
            }
        }
        return result.withMembershipsJoined(backEdge);
    }

    FlowState<Element> plainLoopPass(Tree loop, ExpressionTree condition, StatementTree body,
            List<? extends StatementTree> updates, boolean doWhile, boolean probe) {
        FlowState<Element> entry = state;
        Frame frame = pushFrame(loop, true, false);
        // while (true), also a constant (static final boolean FOREVER = true: JLS 15.29, adv10 F18)
        boolean alwaysTrue = condition == null || Boolean.TRUE.equals(ConstantExpressions.value(condition, this));
        FlowState<Element> conditionExit = null;
        if (!doWhile && condition != null) {
            scan(condition, null);
        }
        FlowState<Element> afterCondition = state;
        if (!doWhile && !alwaysTrue) {
            conditionExit = decide(condition);
        }
        scan(body, null);
        noteBackEdge(frame);
        state = join(state, frame.continues, loop, "the paths to the next iteration");
        if (doWhile) {
            scan(condition, null);
            conditionExit = alwaysTrue ? null : decide(condition);
        } else {
            for (StatementTree update : updates) {
                scan(update, null);
            }
        }
        FlowState<Element> backEdge = state;
        frames.pop();
        if (probe) {
            return backEdge;
        }
        if (probing > 0 && !doWhile && !alwaysTrue && backEdge != null && afterCondition != null) {
            // Inside a probe this loop's entry was not widened: its condition may also be decided in a
            // later round (a connect-retry's null test finds the session only after the first round).
            Branches later = branches(condition, join(afterCondition, backEdge, loop, "the rounds of this loop"));
            if (later != null) {
                conditionExit = join(conditionExit, runs(later.otherwise()), loop, "the rounds of this loop");
            }
        }
        Set<Element> changed = backEdge == null || entry == null ? Set.of()
                : checkInvariant(entry, backEdge, loop, Set.of(), frame.lastBeforeBackEdge);
        state = probeExit(join(conditionExit, frame.breaks, loop, "the exits of this loop"), backEdge);
        failChanged(changed, entry, backEdge);
        return backEdge;
    }

    /**
     * Fails the variables a loop's round changed. Inside a probe, a nested loop's entry was not widened,
     * so a variable whose rounds differ only in whether it holds null (a connect-retry nested in another
     * loop: null on the way in, the session or null when it goes round) is not failed: {@link #probeExit}
     * gives the exit its widened state, which the enclosing probe needs to widen its own head (adv15 A15:
     * "try three times, back off, try again" was SJ021). Outside probes the loop was widened and such a
     * difference is a real one.
     */
    private void failChanged(Set<Element> changed, FlowState<Element> entry, FlowState<Element> backEdge) {
        for (Element var : changed) {
            if (probing > 0 && entry != null && backEdge != null
                    && widened(var, entry.get(var), backEdge.get(var), "") != null) {
                continue;
            }
            fail(var);
        }
    }

    /**
     * Splits the current state (after a loop condition) into what the body starts with (the current
     * state afterwards) and returns what the loop exits with when the condition is false.
     */
    private FlowState<Element> decide(ExpressionTree condition) {
        Branches branches = branches(condition, state);
        if (branches == null) {
            return state;
        }
        state = runs(branches.then());
        return runs(branches.otherwise());
    }

    /**
     * A loop condition's outcome, or null when it never happens: the condition has it only where a local
     * that holds a socket is null ({@code while (t != null)}, {@code do … while (t == null)}). Such a null
     * branch of an {@code if} is checked and its end joins as if it were not there ({@link
     * NullTests#impossible}), but a loop's outcome is a round (whose back edge the loop's invariant would
     * compare with the socket null) or its exit (all the code after the loop): they stay unreachable.
     */
    static FlowState<Element> runs(FlowState<Element> exit) {
        if (exit == null) {
            return null;
        }
        for (Element var : exit.variables()) {
            if (NullTests.impossible(exit.get(var))) {
                return null;
            }
        }
        return exit;
    }

    Frame target(String label, boolean forContinue, Tree jump) {
        for (Frame frame : frames) {
            if (label != null ? label.equals(frame.label)
                    : forContinue ? frame.loop : (frame.loop || (frame.tree instanceof SwitchTree))) {
                return frame;
            }
        }
        return null;
    }

    /** Checks what a jump to {@code frame} leaves behind and returns the state arriving there. */
    FlowState<Element> leaveTo(Frame frame, boolean includingTarget, Tree jump, String what) {
        for (Frame inner : frames) {
            if (inner == frame && !includingTarget) {
                break;
            }
            for (Element var : inner.controlled) {
                leaveIteration(var, jump, what);
            }
            if (inner == frame) {
                break;
            }
        }
        List<Element> gone = new ArrayList<>();
        int depth = scopes.size();
        Iterator<Scope> iterator = scopes.iterator();
        while (depth > frame.scopeDepth && iterator.hasNext()) {
            Scope scope = iterator.next();
            for (Element var : scope.vars) {
                if (state.tracks(var)) {
                    checkComplete(var, jump, "when this " + what + " leaves its scope");
                    gone.add(var);
                }
            }
            depth--;
        }
        return throughFinallies(state.without(gone), frame);
    }

    /**
     * A jump to {@code target} (null: out of the body, a return) runs the {@code finally} blocks of the
     * try statements it leaves, innermost first: returns the state after them, or null when one of them
     * does not complete normally. The engine knows no try statements; the subclass does.
     */
    FlowState<Element> throughFinallies(FlowState<Element> arriving, Frame target) {
        return arriving;
    }

    @Override
    public Void visitBreak(BreakTree tree, Void unused) {
        Frame frame = target(tree.getLabel() == null ? null : tree.getLabel().toString(), false, tree);
        if (frame != null) {
            FlowState<Element> arriving = leaveTo(frame, true, tree, "break");
            frame.breaks = join(frame.breaks, arriving, tree, "the paths out of this statement");
        }
        state = null;
        return null;
    }

    @Override
    public Void visitContinue(ContinueTree tree, Void unused) {
        Frame frame = target(tree.getLabel() == null ? null : tree.getLabel().toString(), true, tree);
        if (frame != null) {
            noteBackEdge(frame);
            FlowState<Element> arriving = leaveTo(frame, false, tree, "continue");
            frame.continues = join(frame.continues, arriving, tree, "the paths to the next iteration");
        }
        state = null;
        return null;
    }

    @Override
    public Void visitYield(YieldTree tree, Void unused) {
        scan(tree.getValue(), null);
        if (state == null) {
            return null;
        }
        for (Frame frame : frames) {
            if (frame.switchExpression) {
                FlowState<Element> arriving = leaveTo(frame, true, tree, "yield");
                frame.breaks = join(frame.breaks, arriving, tree, "the cases of this switch");
                break;
            }
        }
        state = null;
        return null;
    }

    @Override
    public Void visitThrow(ThrowTree tree, Void unused) {
        scan(tree.getExpression(), null);
        state = null;
        return null;
    }

}
