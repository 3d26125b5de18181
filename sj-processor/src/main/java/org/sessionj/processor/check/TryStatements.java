package org.sessionj.processor.check;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import org.sessionj.processor.check.FlowScanner.Frame;
import org.sessionj.processor.check.FlowScanner.Scope;
import org.sessionj.processor.internal.flow.FlowState;
import org.sessionj.processor.internal.flow.VarState;

/**
 * {@code try} statements: resources closed at the end, catch blocks starting from every state the try
 * block may throw at ({@link LinearityRules#catchEntry}, {@link NoAliasRules#catchEntry}), and
 * {@code finally} blocks, which run on every path out of the statement — the normal ones, the
 * exceptions, and every jump out of the try or a catch block ({@link #throughFinallies}).
 */
final class TryStatements {
    private final MethodChecker flow;

    TryStatements(MethodChecker flow) {
        this.flow = flow;
    }

    /** Checks a try statement: resources, block, catch blocks (from every throw point), finally. */
    void tryStatement(TryTree tree) {
        PendingFinally pending = tree.getFinallyBlock() == null ? null
                : new PendingFinally(tree, flow.frames.size(), flow.scopes.size(), flow.tryMoves.tryDepth(),
                        flow.linearity.tryDepth());
        if (pending != null) {
            finallies.push(pending);
        }
        Scope resources = flow.pushScope();
        List<Element> closedHere = new ArrayList<>();
        FlowState<Element> tryEntry = flow.state;
        LinearityRules.ThrowPoints throwPoints = flow.linearity.enterTry();
        Set<Element> moved = flow.tryMoves.enterTry();
        Map<Element, MovedFieldExits.Escape> escapes = flow.fieldExits.enterTryBlock(tree);
        Map<Element, LiveSessionExits.Escape> liveEscapes = flow.liveExits.enterTryBlock(tree);
        try {
            int sessionResources = 0; // closed by the runtime: no program code on the normal path (adv18 A9)
            for (Tree resource : tree.getResources()) {
                Element socket = resource instanceof ExpressionTree expression ? flow.trackedSocket(expression) : null;
                if (socket != null) {
                    closedHere.add(socket);
                    sessionResources++;
                } else {
                    flow.scan(resource, null);
                    if (resource instanceof VariableTree declared && declaresSocket(declared)) {
                        sessionResources++;
                    }
                }
            }
            flow.linearity.resourcesBlock(closedHere, tree);
            flow.scan(tree.getBlock(), null);
            // A session socket's close on the normal path ends a complete session (else SJ024 at the block's end):
            // the runtime's code, no listener. Any other resource's close() is code that may read a moved field.
            if (sessionResources < tree.getResources().size()) {
                flow.noAliasFields.beforeForeignCode(tree, "before the resources of this try statement are closed (close() "
                        + "may read it)");
            }
            if (!tree.getResources().isEmpty()) {
                flow.linearity.throwPoint(); // closing the resources may throw (a resource's close() is any code)
                flow.fieldExits.throwPoint(tree);
                flow.liveExits.resourcesClosed(tree, closedHere);
            }
        } finally {
            flow.linearity.resourcesBlockRead(closedHere); // after the resources' close, which closes them too
            flow.tryMoves.exitTry();
            flow.linearity.exitTry();
        }
        if (flow.state != null) {
            for (Element var : resources.vars) {
                flow.checkComplete(var, null, "at the end of its try-with-resources block");
            }
            flow.linearity.closeResources(closedHere, tree);
            flow.linearity.closeScopeMembers(flow.spawns.closedByScopes(tree), tree);
            flow.state = flow.state.without(resources.vars);
        }
        flow.scopes.pop();
        FlowState<Element> tryEnd = flow.state;
        FlowState<Element> catchEntry = tryEntry == null ? null
                : ScopeMemberships.atThrows(flow.linearity.catchEntry(tryEntry.without(resources.vars),
                        throwPoints.any, tree), throwPoints.members);
        catchEntry = closedBeforeTheCatches(flow.tryMoves.catchEntry(catchEntry, moved, tree), closedHere, tree);
        // A catch of SJIOException (and its subclasses) only: entered where a session failure may be thrown.
        FlowState<Element> failureEntry = tryEntry == null ? null
                : ScopeMemberships.atThrows(flow.linearity.catchEntry(tryEntry.without(resources.vars),
                        throwPoints.sessionFailures, tree), throwPoints.failureMembers);
        failureEntry = closedBeforeTheCatches(flow.tryMoves.catchEntry(failureEntry, moved, tree), closedHere, tree);
        FlowState<Element> afterAll = tryEnd;
        flow.handlers.push("catch");
        Set<Element> movedInCatches = flow.tryMoves.enterTry();
        flow.fieldExits.enterCatches(escapes);
        flow.liveExits.enterCatches(liveEscapes);
        flow.state = catchEntry;
        LinearityRules.ThrowPoints catchThrowPoints = tree.getFinallyBlock() != null && !tree.getCatches().isEmpty()
                ? flow.linearity.enterCatches() : null;
        flow.state = afterAll;
        try {
            for (CatchTree catchTree : tree.getCatches()) {
                flow.state = catchesOnlySessionFailures(catchTree) ? failureEntry : catchEntry;
                Scope scope = flow.pushScope();
                flow.scan(catchTree.getParameter(), null);
                flow.scan(catchTree.getBlock(), null);
                flow.exitScope(scope, null, "at the end of its scope");
                flow.scopes.pop();
                afterAll = flow.join(afterAll, flow.state, tree, "the try block and its catch blocks");
            }
        } finally {
            if (catchThrowPoints != null) {
                flow.linearity.exitTry();
            }
            flow.tryMoves.exitTry();
            flow.fieldExits.exitTry();
            flow.liveExits.exitTry();
        }
        moved.addAll(movedInCatches);
        flow.handlers.pop();
        if (pending != null) {
            finallies.remove(pending);
        }
        if (tree.getFinallyBlock() != null) {
            finallyBlock(tree, afterAll, catchEntry, moved, escapes, liveEscapes, catchThrowPoints == null ? List.of(throwPoints)
                    : List.of(throwPoints, catchThrowPoints));
        } else {
            flow.state = afterAll;
        }
    }

    /**
     * Java closes the resources of a try-with-resources statement before any of its catch or finally blocks
     * runs (JLS 14.20.3.2): a socket named as a resource ({@code try (s)}, {@code closedHere}) enters them
     * closed, whatever state the exception left it in, as it leaves the block's end (adv17 A12: a catch that
     * logs and falls out was SJ020 "closed … on one path, failed … on another").
     */
    private FlowState<Element> closedBeforeTheCatches(FlowState<Element> entry, List<Element> closedHere, TryTree tree) {
        FlowState<Element> closed = entry;
        for (Element var : closedHere) {
            if (closed != null && closed.tracks(var)) {
                closed = closed.with(var, new VarState.Moved("closed at the end of the try-with-resources block on line "
                        + flow.line(tree)));
            }
        }
        return closed;
    }

    /**
     * A try statement with a {@code finally} block whose try or catch blocks are being read: a jump out
     * of it runs the finally block on the way. {@code frameDepth}, {@code scopeDepth}: the frames and
     * scopes enclosing the statement; {@code moveDepth}: the enclosing try blocks collecting moves;
     * {@code throwDepth}: the enclosing try blocks collecting throw points.
     */
    private record PendingFinally(TryTree tree, int frameDepth, int scopeDepth, int moveDepth, int throwDepth) {
    }

    /** Innermost first. */
    private final Deque<PendingFinally> finallies = new ArrayDeque<>();

    /**
     * Invariant: <em>every path out of a try statement goes through its finally block</em> — also a
     * {@code break}, {@code continue}, {@code yield} or {@code return} out of the try or a catch block.
     * Each such jump runs the finally blocks it leaves (innermost first) on its own state, so a value
     * the finally block moves is moved where the jump arrives, and a field it refills is refilled at
     * the return. The finally block's own errors are reported by its pass from the exception paths
     * ({@link #finallyBlock}); this pass is silent.
     */
    FlowState<Element> throughFinallies(FlowState<Element> arriving, Frame target) {
        FlowState<Element> current = arriving;
        for (PendingFinally pending : List.copyOf(finallies)) {
            if (current == null || target != null && target.depth >= pending.frameDepth()) {
                break; // the target is inside this try statement: the jump does not leave it
            }
            current = replayFinally(pending, current);
        }
        return current;
    }

    /** Runs the finally block of {@code pending} from {@code from}, as if at the try statement. */
    private FlowState<Element> replayFinally(PendingFinally pending, FlowState<Element> from) {
        closesComplete(pending.tree(), from, "on the way out of the jump");
        FlowState<Element> saved = flow.state;
        String label = flow.pendingLabel;
        Deque<Frame> innerFrames = new ArrayDeque<>();
        Deque<Scope> innerScopes = new ArrayDeque<>();
        Deque<PendingFinally> innerFinallies = new ArrayDeque<>();
        while (flow.frames.size() > pending.frameDepth()) {
            innerFrames.push(flow.frames.pop());
        }
        while (flow.scopes.size() > pending.scopeDepth()) {
            innerScopes.push(flow.scopes.pop());
        }
        while (finallies.peek() != pending) {
            innerFinallies.push(finallies.pop());
        }
        finallies.pop();
        flow.handlers.push("finally");
        flow.reporter.silence();
        int limit = flow.tryMoves.limitTryRecording(pending.moveDepth());
        int throwLimit = flow.linearity.limitTryRecording(pending.throwDepth());
        flow.state = from;
        flow.pendingLabel = null;
        try {
            flow.scan(pending.tree().getFinallyBlock(), null);
            return flow.state;
        } finally {
            flow.tryMoves.limitTryRecording(limit);
            flow.linearity.limitTryRecording(throwLimit);
            flow.reporter.speak();
            flow.handlers.pop();
            finallies.push(pending);
            while (!innerFinallies.isEmpty()) {
                finallies.push(innerFinallies.pop());
            }
            while (!innerScopes.isEmpty()) {
                flow.scopes.push(innerScopes.pop());
            }
            while (!innerFrames.isEmpty()) {
                flow.frames.push(innerFrames.pop());
            }
            flow.state = saved;
            flow.pendingLabel = label;
        }
    }

    /**
     * A finally block runs after the normal paths ({@code afterAll}) and after exceptions, when values
     * the try or catch blocks moved ({@code moved}) may be gone: it is checked from that maybe-moved
     * state, and the statement continues from the normal paths through it (a second, silent pass). A
     * finally block that can leave by a jump ({@code break}, {@code continue}, {@code yield},
     * {@code return}) swallows the exception it runs for, and the program goes on from the point where
     * the try block threw: it is checked from the states of every throw point too ({@code catchEntry},
     * where a session acted on in the try block is unknown: SJ020 where it meets the normal path).
     */
    private void finallyBlock(TryTree tree, FlowState<Element> afterAll, FlowState<Element> catchEntry,
            Set<Element> moved, Map<Element, MovedFieldExits.Escape> escapes,
            Map<Element, LiveSessionExits.Escape> liveEscapes, List<LinearityRules.ThrowPoints> throwPoints) {
        flow.handlers.push("finally");
        FlowState<Element> normal = afterAll != null ? afterAll : catchEntry;
        FlowState<Element> abrupt = flow.tryMoves.alsoMovedIn(flow.tryMoves.catchEntry(normal, moved, tree), catchEntry);
        // A service or server socket may hold, after an exception, what it held at any throw point.
        abrupt = flow.linearity.endpointsAtThrows(abrupt, throwPoints);
        abrupt = ScopeMemberships.joinedAtThrows(abrupt, throwPoints);
        if (afterAll != null && catchEntry != null && jumpsOut(tree.getFinallyBlock())) {
            abrupt = flow.join(abrupt, flow.tryMoves.catchEntry(catchEntry, moved, tree), tree,
                    "the normal paths and the exceptions this finally block swallows (it can end with a jump)");
        }
        if (afterAll != null) {
            closesComplete(tree, afterAll, "after the try statement completes");
        }
        flow.state = abrupt;
        flow.liveExits.enterFinally(liveEscapes);
        try {
            flow.scan(tree.getFinallyBlock(), null);
        } finally {
            flow.liveExits.exitFinally();
        }
        flow.fieldExits.afterFinally(escapes, flow.state);
        flow.liveExits.afterFinally(liveEscapes, flow.state);
        if (afterAll == null) {
            flow.state = null;
        } else if (abrupt != normal) {
            flow.state = normal;
            flow.reporter.silence();
            try {
                flow.scan(tree.getFinallyBlock(), null);
            } finally {
                flow.reporter.speak();
            }
        }
        flow.handlers.pop();
    }

    /**
     * Invariant: <em>a finally block closes a session early only after an exception</em>. On a path that
     * enters the finally block normally (the try or a catch block completed, or a jump leaves through
     * it), each socket the block closes ({@code s.close()}, declared outside it) must be complete or
     * ended there, as at the end of a try-with-resources block (SJ024); on the exception paths it may
     * be in any state it owns ({@link LinearityRules#closableInFinally}).
     */
    private void closesComplete(TryTree tree, FlowState<Element> entry, String when) {
        if (entry == null) {
            return;
        }
        for (Map.Entry<Element, Tree> closed : closedByFinally(tree.getFinallyBlock()).entrySet()) {
            Element var = closed.getKey();
            VarState state = entry.get(var);
            boolean incomplete = state instanceof VarState.Live live && !live.complete()
                    || state instanceof VarState.Unknown;
            if (incomplete) {
                flow.reporter.error(closed.getValue(), Diagnostic.INCOMPLETE_SESSION, flow.name(var),
                        "when this finally block closes it " + when, MethodChecker.describe(state));
            }
        }
    }

    /** The tracked sockets a finally block closes ({@code s.close()}), each with its first close. */
    private Map<Element, Tree> closedByFinally(BlockTree block) {
        Map<Element, Tree> closed = new java.util.LinkedHashMap<>();
        com.sun.source.util.TreePath path = com.sun.source.util.TreePath.getPath(flow.root, block);
        if (path == null) {
            return closed;
        }
        new com.sun.source.util.TreePathScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(com.sun.source.tree.MethodInvocationTree call, Void unused) {
                if (call.getMethodSelect() instanceof com.sun.source.tree.MemberSelectTree select
                        && select.getIdentifier().contentEquals("close") && call.getArguments().isEmpty()) {
                    Element var = flow.trees.getElement(new com.sun.source.util.TreePath(
                            new com.sun.source.util.TreePath(getCurrentPath(), select),
                            FlowScanner.strip(select.getExpression())));
                    FlowScanner.VarInfo info = var == null ? null : flow.infos.get(var);
                    if (info != null && info.kind() == FlowScanner.Kind.SOCKET) {
                        closed.putIfAbsent(var, call);
                    }
                }
                return super.visitMethodInvocation(call, unused);
            }

            @Override
            public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
                return null; // another body
            }

            @Override
            public Void visitClass(ClassTree tree, Void unused) {
                return null; // another body
            }
        }.scan(path, null);
        return closed;
    }

    /**
     * Whether {@code catchTree} catches nothing but session failures: its parameter's type (each
     * alternative of a multi-catch) is {@code SJIOException} or a subclass.
     */
    private boolean catchesOnlySessionFailures(CatchTree catchTree) {
        javax.lang.model.element.TypeElement failure = flow.elements.getTypeElement("org.sessionj.api.SJIOException");
        javax.lang.model.type.TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(catchTree.getParameter()));
        if (failure == null || type == null) {
            return false;
        }
        List<? extends javax.lang.model.type.TypeMirror> alternatives = type instanceof javax.lang.model.type.UnionType union
                ? union.getAlternatives() : List.of(type);
        for (javax.lang.model.type.TypeMirror alternative : alternatives) {
            if (alternative.getKind() != javax.lang.model.type.TypeKind.DECLARED
                    || !flow.types.isSubtype(alternative, failure.asType())) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code block} contains a jump that leaves it: the exception it runs for is then dropped. */
    static boolean jumpsOut(BlockTree block) {
        boolean[] found = {false};
        new TreeScanner<Void, Void>() {
            private int loops;
            private int switches;
            private int switchExpressions;
            private final Set<String> labels = new java.util.HashSet<>();

            @Override
            public Void visitReturn(ReturnTree tree, Void unused) {
                found[0] = true;
                return null;
            }

            @Override
            public Void visitBreak(BreakTree tree, Void unused) {
                found[0] |= tree.getLabel() != null ? !labels.contains(tree.getLabel().toString())
                        : loops == 0 && switches == 0;
                return null;
            }

            @Override
            public Void visitContinue(ContinueTree tree, Void unused) {
                found[0] |= tree.getLabel() != null ? !labels.contains(tree.getLabel().toString()) : loops == 0;
                return null;
            }

            @Override
            public Void visitYield(YieldTree tree, Void unused) {
                found[0] |= switchExpressions == 0;
                return super.visitYield(tree, unused);
            }

            @Override
            public Void visitLabeledStatement(LabeledStatementTree tree, Void unused) {
                labels.add(tree.getLabel().toString());
                return super.visitLabeledStatement(tree, unused);
            }

            @Override
            public Void visitWhileLoop(WhileLoopTree tree, Void unused) {
                return loop(() -> super.visitWhileLoop(tree, unused));
            }

            @Override
            public Void visitDoWhileLoop(DoWhileLoopTree tree, Void unused) {
                return loop(() -> super.visitDoWhileLoop(tree, unused));
            }

            @Override
            public Void visitForLoop(ForLoopTree tree, Void unused) {
                return loop(() -> super.visitForLoop(tree, unused));
            }

            @Override
            public Void visitEnhancedForLoop(EnhancedForLoopTree tree, Void unused) {
                return loop(() -> super.visitEnhancedForLoop(tree, unused));
            }

            private Void loop(java.util.function.Supplier<Void> body) {
                loops++;
                try {
                    return body.get();
                } finally {
                    loops--;
                }
            }

            @Override
            public Void visitSwitch(SwitchTree tree, Void unused) {
                switches++;
                try {
                    return super.visitSwitch(tree, unused);
                } finally {
                    switches--;
                }
            }

            @Override
            public Void visitSwitchExpression(SwitchExpressionTree tree, Void unused) {
                switchExpressions++;
                try {
                    return super.visitSwitchExpression(tree, unused);
                } finally {
                    switchExpressions--;
                }
            }

            @Override
            public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
                return null; // another body
            }

            @Override
            public Void visitClass(ClassTree tree, Void unused) {
                return null; // another body
            }
        }.scan(block, null);
        return found[0];
    }

    /** Whether the resource {@code declared} declares a session socket the checker tracks ({@code SJSocket s = …}). */
    private boolean declaresSocket(VariableTree declared) {
        Element var = flow.trees.getElement(new TreePath(flow.getCurrentPath(), declared));
        FlowScanner.VarInfo info = var == null ? null : flow.infos.get(var);
        return info != null && info.kind() == FlowScanner.Kind.SOCKET;
    }
}
