package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.VarState;

/**
 * {@code @NoAlias} ownership: a {@code @NoAlias} local, parameter, field or method result holds only
 * a unique value; a whole-value use (assignment, argument, return, capture) moves it, and a moved
 * variable is dead until reassigned. See {@code docs/noalias.md}.
 */
final class NoAliasRules {
    private final MethodChecker flow;

    NoAliasRules(MethodChecker flow) {
        this.flow = flow;
    }

    private static final String NO_ALIAS = "org.sessionj.api.NoAlias";
    private static final String COPIED_OUT = "its value cannot be copied out here (only 'f' or 'this.f' in a method "
            + "of its own class can be moved out)";

    /**
     * Whether a variable, field or method is declared {@code @NoAlias}. One of a primitive type (or a
     * {@code void} method) is not: it has no value that could be shared (SJ047 says so at the annotation).
     */
    static boolean isNoAlias(Element element) {
        if (element == null) {
            return false;
        }
        TypeMirror type = element instanceof ExecutableElement method ? method.getReturnType() : element.asType();
        if (type.getKind().isPrimitive() || type.getKind() == javax.lang.model.type.TypeKind.VOID) {
            return false;
        }
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
                return true;
            }
        }
        for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
                return true;
            }
        }
        return false;
    }

    private void useNoAlias(Element var, Tree at, TreePath path) {
        useOwner(var, at, path, "");
    }

    /**
     * A use of the owned value of {@code var} at {@code at} ({@code path}); {@code via}: through which view
     * local ({@link NoAliasViews#use}), for messages, or empty.
     */
    void useOwner(Element var, Tree at, TreePath path, String via) {
        VarState value = flow.state.get(var);
        if (value instanceof VarState.Moved moved) {
            movedUse(at, var, moved.how());
            return;
        }
        String move = flow.moveContexts.moveContext(path);
        if (move != null && value instanceof VarState.Owned && via.isEmpty() && flow.views.storedAsView(path, true)) {
            // List<Integer> view = x.subList(0, 1): view is tracked as a view of x (NoAliasViews) ... unless the
            // code a call on the way gives the elements to keeps them (h = x.entrySet().stream().reduce(h0, H::keep, …))
            move = flow.elementConsumers.keptAlong(path, flow.moveContexts.reach(path).value());
            if (move == null) {
                return;
            }
        }
        if (move != null && flow.moveContexts.borrowedBy(path)) {
            move = null; // Arrays.fill(x, 0): the JDK method reads or writes the elements and keeps nothing
            PendingCall call = pendingArguments(path);
            if (call != null && value instanceof VarState.Owned) { // ... but only once all arguments are evaluated
                call.borrowed.add(new Held(var, at, "", null));
            }
        }
        if (move == null && flow.moveContexts.throwableDetail(path)) {
            move = "into the AssertionError of an assert (as its cause)";
        }
        if (move != null && value instanceof VarState.Owned && closedHere(var, at, move)) {
            return;
        }
        if (move != null && value instanceof VarState.Owned) {
            VarState.Moved moved = new VarState.Moved(move + via + " on line " + flow.line(at));
            PendingCall call = pendingArguments(path);
            if (call != null) {
                Pending earlier = call.moved.putIfAbsent(var, new Pending(moved, at));
                if (earlier != null) { // the same value given twice to one call
                    movedUse(at, var, earlier.moved().how());
                }
                return;
            }
            flow.set(var, moved);
            flow.tryMoves.record(var);
        }
    }

    /**
     * A {@code @NoAlias} local that is a resource of an enclosing try-with-resources statement is closed
     * at the end of its block by code javac writes, which uses it after any move (SJ046). Returns whether
     * the move {@code how} was reported.
     */
    private boolean closedHere(Element var, Tree at, String how) {
        VarInfo info = flow.infos.get(var);
        if (info == null || info.kind() != Kind.NOALIAS) {
            return false;
        }
        com.sun.source.tree.TryTree closing = flow.spawns.closingTry(var);
        if (closing == null) {
            closing = laterResourceOf(var);
        }
        if (closing == null) {
            return false;
        }
        flow.reporter.error(at, Diagnostic.RESOURCE_MOVED, flow.name(var), flow.line(closing), how);
        flow.fail(var);
        return true;
    }

    /**
     * The try-with-resources statement when the code being checked is a later resource of it, and
     * {@code var} one of its resources ({@code try (R r = new R(); R q = r)}: both are closed at the end
     * of the block), else null.
     */
    private com.sun.source.tree.TryTree laterResourceOf(Element var) {
        Tree child = flow.getCurrentPath().getLeaf();
        for (TreePath path = flow.getCurrentPath().getParentPath(); path != null; path = path.getParentPath()) {
            if (path.getLeaf() instanceof com.sun.source.tree.TryTree tryTree && tryTree.getResources().contains(child)) {
                for (Tree resource : tryTree.getResources()) {
                    if (var.equals(flow.trees.getElement(new TreePath(path, resource)))) {
                        return tryTree;
                    }
                }
                return null;
            }
            child = path.getLeaf();
        }
        return null;
    }

    /**
     * For each call whose arguments are being evaluated (innermost first), the values moved into it: a
     * call takes its arguments once all are evaluated, so {@code f(x, x.length)} reads {@code x}
     * before {@code f} owns it. Giving one value to two arguments is still a use after the move, and
     * so is a value moved by a later argument before the call takes it ({@code f(x, g(x))}).
     */
    private final Deque<PendingCall> pendingMoves = new ArrayDeque<>();

    /**
     * What a call whose arguments are being evaluated takes once they are: the values moved into it, and
     * the owned values it borrows (an array {@code Arrays.fill} or {@code System.arraycopy} writes into,
     * in reading order), which no other argument may move ({@code Arrays.fill(x, x)},
     * {@code Arrays.setAll(x, i -> keep(x))}: the callee would write into an array that has another owner).
     */
    private static final class PendingCall {
        final Map<Element, Pending> moved = new java.util.LinkedHashMap<>();
        final java.util.List<Held> borrowed = new java.util.ArrayList<>();
    }
    private final Deque<Tree> pendingCalls = new ArrayDeque<>();
    /** For each call in {@link #pendingCalls}, its receiver when that is an owned value ({@link #hold}), or null. */
    private final Deque<java.util.Optional<Held>> pendingReceivers = new ArrayDeque<>();

    /** A value moved into a call once its arguments are evaluated, and the argument ({@code at}) it was read in. */
    private record Pending(VarState.Moved moved, Tree at) {
    }

    /**
     * The values moved into the innermost call whose arguments are being evaluated and that the use at
     * {@code path} is an argument of, or null. A call that only returns its argument
     * ({@code Objects.requireNonNull}) takes nothing: {@code f(requireNonNull(x), x.length)} moves
     * {@code x} into {@code f}.
     */
    private PendingCall pendingArguments(TreePath path) {
        java.util.Iterator<PendingCall> moves = pendingMoves.iterator();
        for (Tree call : pendingCalls) {
            PendingCall moved = moves.next();
            if (!flow.moveContexts.passesOn(call)) {
                return flow.moveContexts.isArgumentOf(path, call) ? moved : null;
            }
        }
        return null;
    }

    /**
     * The arguments of {@code call} are about to be evaluated (its receiver, if any, is evaluated
     * already): a method runs on its receiver only after them, so an owned receiver is held until then.
     */
    void beginArguments(Tree call) {
        pendingMoves.push(new PendingCall());
        pendingCalls.push(call);
        Held receiver = null;
        if (call instanceof MethodInvocationTree invocation && invocation.getMethodSelect() instanceof MemberSelectTree select) {
            receiver = hold(select.getExpression(), "by an argument, evaluated before the call of '"
                    + select.getIdentifier() + "' runs on it");
        }
        pendingReceivers.push(java.util.Optional.ofNullable(receiver));
    }

    /**
     * The call happens: the values moved into it are gone now. One that a later argument moved first
     * ({@code f(x, g(x))}: {@code g} owns it, then {@code f} takes it too) is used after that move
     * (SJ041), as is a receiver an argument moved ({@code x.m(g(x))}). The receiver is checked before
     * the call's own arguments are taken: {@code x.equals(x)} hands one value to one call.
     */
    void endArguments() {
        PendingCall pending = pendingMoves.pop();
        Map<Element, Pending> moved = pending.moved;
        Tree call = pendingCalls.pop();
        release(pendingReceivers.pop().orElse(null));
        String callee = call instanceof MethodInvocationTree invocation
                ? "'" + FlowScanner.calleeName(invocation) + "'" : "the constructor";
        for (Held borrowed : pending.borrowed) {
            VarState now = flow.state == null ? null : flow.state.get(borrowed.var());
            Pending also = moved.get(borrowed.var());
            if (now instanceof VarState.Moved since) {
                movedUse(borrowed.at(), borrowed.var(), since.how()
                        + " (a later argument, evaluated before " + callee + " reads or writes the array given here)");
                return;
            } else if (also != null && now instanceof VarState.Owned) {
                movedUse(also.at(), borrowed.var(), "into "
                        + callee + " on line " + flow.line(borrowed.at()) + ", which also reads or writes it as an array "
                        + "(one call cannot both borrow a value and keep it)");
                return;
            }
        }
        for (Map.Entry<Element, Pending> move : moved.entrySet()) { // a loop: no lambda linked per compilation
            Element var = move.getKey();
            VarState now = flow.state == null ? null : flow.state.get(var);
            if (now instanceof VarState.Owned) {
                flow.set(var, move.getValue().moved());
                flow.tryMoves.record(var);
            } else if (now instanceof VarState.Moved since) {
                movedUse(move.getValue().at(), var, since.how()
                        + " (a later argument, evaluated before " + (call instanceof MethodInvocationTree invocation
                                ? "the call of '" + FlowScanner.calleeName(invocation) + "'" : "the constructor call")
                        + " takes it)");
            }
        }
    }

    /**
     * An owned {@code @NoAlias} value read by an expression that uses it only after evaluating more
     * operands: the receiver of a call, the array of an array access, the array or object of an
     * assignment's target. {@code why} says what moved it for the message, should an operand move it;
     * {@code also}: the other alternative of a conditional ({@code (c ? x : y).m(g(x))}), or null.
     */
    record Held(Element var, Tree at, String why, Held also) {
    }

    /**
     * Holds {@code read} (parentheses and casts stripped) when it names an owned {@code @NoAlias}
     * variable (or a tracked field as {@code f} or {@code this.f}) that is not moved now; else null.
     * {@link #release} then checks that no operand evaluated in between moved it.
     */
    Held hold(ExpressionTree read, String why) {
        ExpressionTree stripped = FlowScanner.strip(read);
        while (stripped instanceof TypeCastTree cast) {
            stripped = FlowScanner.strip(cast.getExpression());
        }
        if (stripped instanceof ConditionalExpressionTree conditional) {
            return both(hold(conditional.getTrueExpression(), why), hold(conditional.getFalseExpression(), why));
        }
        if (stripped instanceof MethodInvocationTree call && flow.moveContexts.returnsArgument(call)) {
            // Objects.requireNonNull(x) is x (adv13 A11); requireNonNullElse(x, d) may be either
            TreePath callPath = flow.pathOf(call);
            Held held = null;
            for (ExpressionTree argument : call.getArguments()) {
                if (callPath != null && flow.moveContexts.passesThrough(callPath, argument)) {
                    held = both(held, hold(argument, why));
                }
            }
            return held;
        }
        if (stripped instanceof SwitchExpressionTree expression) {
            // any arm's value may be the switch's (adv13 A11)
            Held held = null;
            for (ExpressionTree value : SwitchArms.values(expression)) {
                held = both(held, hold(value, why));
            }
            return held;
        }
        Element var = stripped instanceof IdentifierTree
                || stripped instanceof MemberSelectTree select && isThis(select.getExpression())
                ? flow.elementOf(stripped) : null;
        VarInfo info = var == null ? null : flow.infos.get(var);
        if (stripped instanceof com.sun.source.tree.ArrayAccessTree access && flow.views.owns()
                && flow.viewResults.elementMayView(flow.pathOf(access))) {
            return hold(access.getExpression(), why); // x[0].clear(), g(x): a row of x is held like x
        }
        if (stripped instanceof MethodInvocationTree call && flow.views.owns()) {
            // x.subList(0, 1).set(0, g(x)), Arrays.stream(x): a result that may be x or a view of it (adv14 A1)
            TreePath callPath = flow.pathOf(call);
            if (call.getMethodSelect() instanceof MemberSelectTree select
                    && flow.viewResults.returnsView(callPath, select.getExpression())) {
                return hold(select.getExpression(), why);
            }
            return !call.getArguments().isEmpty() && flow.viewResults.returnsView(callPath, call.getArguments().get(0))
                    ? hold(call.getArguments().get(0), why) : null;
        }
        if (info == null || !info.kind().moves() || flow.state == null
                || !(flow.state.get(var) instanceof VarState.Owned)) {
            return null;
        }
        return new Held(var, stripped, why, null);
    }

    /** Both (either may be null: nothing held). */
    private static Held both(Held first, Held second) {
        return first == null ? second : second == null ? first : chain(first, second);
    }

    /** {@code first}, then {@code second}, as one chain of held values. */
    private static Held chain(Held first, Held second) {
        return new Held(first.var(), first.at(), first.why(), first.also() == null ? second : chain(first.also(), second));
    }

    /**
     * Holds the array of an assignment's target {@code x[i] = v} or the object of {@code x.f = v}: the
     * store happens after the right-hand side is evaluated ({@code x[0] = g(x)} stores into a moved array).
     */
    Held holdTarget(ExpressionTree target) {
        ExpressionTree stripped = FlowScanner.strip(target);
        String why = "by the right-hand side, evaluated before this assignment stores into it";
        if (stripped instanceof ArrayAccessTree access) {
            return hold(access.getExpression(), why);
        }
        return stripped instanceof MemberSelectTree select ? hold(select.getExpression(), why) : null;
    }

    /** The expression that held {@code held} (null: nothing) uses it now: SJ041 if it was moved meanwhile. */
    void release(Held held) {
        for (Held each = held; each != null; each = each.also()) {
            if (flow.state != null && flow.state.get(each.var()) instanceof VarState.Moved moved) {
                movedUse(each.at(), each.var(), moved.how() + " (" + each.why() + ")");
            }
        }
    }

    /**
     * Checks an assignment to a {@code @NoAlias} local ({@code info} not null) or field; returns false
     * when the target is neither.
     */
    boolean assignment(AssignmentTree tree, ExpressionTree target, Element var, VarInfo info) {
        Element field = var == null && target instanceof MemberSelectTree ? flow.elementOf(target) : var;
        if (info == null && field != null && target instanceof MemberSelectTree select && isThis(select.getExpression())
                && flow.infos.get(field) != null) {
            var = field; // this.f = ... on a tracked field
            info = flow.infos.get(field);
        }
        if (!((info != null && info.kind().owned()) || (field != null
                && field.getKind() == ElementKind.FIELD && isNoAlias(field)))) {
            return false;
        }
        boolean unique = flow.noAliasValues.unique(tree.getExpression());
        if (target instanceof MemberSelectTree select) {
            flow.scan(select.getExpression(), null);
        }
        flow.scan(tree.getExpression(), null);
        if (!unique && flow.state != null) {
            flow.reporter.error(tree.getExpression(), Diagnostic.NOT_UNIQUE,
                    (info != null ? info.name() : field.getSimpleName()), tree.getExpression());
        }
        if (info != null) {
            flow.set(var, unique ? VarState.OWNED : VarState.FAILED);
            flow.views.reassigned(var);
        }
        // The assignment's value is the value just stored: used where a use of the variable would move
        // it (int[] shared = b = new int[1]; f(b = x)), it moves it, or copies a field out (SJ043).
        if (flow.state != null && flow.moveContexts.moveContext(flow.getCurrentPath()) != null) {
            if (info != null && unique) {
                useNoAlias(var, tree, flow.getCurrentPath());
            } else if (info == null) {
                String name = field.getSimpleName().toString();
                flow.reporter.error(tree, Diagnostic.NOALIAS_FIELD_READ, name, name, name, name, COPIED_OUT);
            }
        }
        return true;
    }

    /**
     * A name that is a {@code @NoAlias} local or field: uses or moves it. Returns false when it is
     * neither (or a field only read through).
     */
    boolean identifier(IdentifierTree tree, Element var, VarInfo info) {
        if (info != null && info.kind() == Kind.VIEW) {
            flow.views.use(var, tree, flow.getCurrentPath());
            return true;
        }
        if (info != null && info.kind().owned()) {
            useNoAlias(var, tree, flow.getCurrentPath());
            return true;
        }
        if (var != null && var.getKind() == ElementKind.FIELD && isNoAlias(var)
                && flow.moveContexts.moveContext(flow.getCurrentPath()) != null) {
            String field = var.getSimpleName().toString();
            flow.reporter.error(tree, Diagnostic.NOALIAS_FIELD_READ, field, field, field, field, COPIED_OUT);
            return true;
        }
        return false;
    }

    static boolean isThis(ExpressionTree expression) {
        return FlowScanner.strip(expression) instanceof IdentifierTree identifier
                && identifier.getName().contentEquals("this");
    }

    /**
     * A field access {@code this.f} of a tracked field uses or moves it like a plain {@code f};
     * {@code other.f} of a {@code @NoAlias} field may only be read through. Returns false when the
     * selected member is no {@code @NoAlias} field.
     */
    boolean memberSelect(MemberSelectTree tree, Element field) {
        if (field == null || field.getKind() != ElementKind.FIELD) {
            return false;
        }
        VarInfo info = flow.infos.get(field);
        if (info != null && isThis(tree.getExpression())) {
            useNoAlias(field, tree, flow.getCurrentPath());
            return true;
        }
        if (info != null && info.kind() == Kind.NOALIAS_FIELD && flow.state != null
                && flow.state.get(field) instanceof VarState.Moved moved) {
            // Any other reference of the class's type may be this object (an alias of this): it would
            // read the value that now belongs to someone else.
            flow.scan(tree.getExpression(), null);
            flow.reporter.error(tree, Diagnostic.FIELD_NOT_REFILLED, info.name(), moved.how(),
                    "before it is read through '" + tree.getExpression() + "', which may be this object");
            flow.fail(field);
            return true;
        }
        if (isNoAlias(field) && flow.moveContexts.moveContext(flow.getCurrentPath()) != null) {
            flow.scan(tree.getExpression(), null);
            String name = field.getSimpleName().toString();
            flow.reporter.error(tree, Diagnostic.NOALIAS_FIELD_READ, name, name, name, name, COPIED_OUT);
            return true;
        }
        return false;
    }

    /**
     * A compact canonical constructor assigns each parameter to its record component's field after its
     * body: code javac writes, a use of every parameter. A {@code @NoAlias} parameter the body moved
     * (and did not reassign) would be stored in the field while its new owner holds it too.
     */
    void compactConstructorEnd(com.sun.source.tree.MethodTree constructor) {
        if (flow.state == null) {
            return; // the body never completes normally: the fields are never assigned
        }
        for (VariableTree parameter : constructor.getParameters()) {
            Element var = flow.trees.getElement(new TreePath(flow.root, parameter));
            if (var != null && flow.state.get(var) instanceof VarState.Moved moved) {
                movedUse(constructor, var, moved.how()
                        + " (the compact constructor stores it in field '" + var.getSimpleName() + "' at its end)");
            }
        }
    }

    /** A {@code @NoAlias} local named inside a lambda or local class body moves into it. */
    void captured(Element var, VarInfo info, IdentifierTree identifier, String what) {
        if (flow.state == null) {
            return;
        }
        if (flow.state.get(var) instanceof VarState.Moved moved) {
            movedUse(identifier, var, moved.how());
        } else if (flow.state.get(var) instanceof VarState.Owned
                && !closedHere(var, identifier, "into " + what)) {
            flow.set(var, new VarState.Moved("into " + what + " on line " + flow.line(identifier)));
            flow.tryMoves.record(var);
        }
    }

    /**
     * Reports a use at {@code at} of {@code var} after its value was moved ({@code how}): SJ041 for an owned
     * variable, whose message suggests handing over a copy when the value went into a call (adv14 A4); SJ048
     * for a view of one ({@link NoAliasViews}).
     */
    void movedUse(Tree at, Element var, String how) {
        VarInfo info = flow.infos.get(var);
        if (info != null && info.kind() == Kind.VIEW) {
            flow.views.report(at, var, how);
            return;
        }
        flow.reporter.error(at, Diagnostic.MOVED_VALUE_USED, flow.name(var), how, fix(var, how));
        flow.fail(var);
    }

    /**
     * How to fix a use after a move ({@code how}): give the variable a new value; when the value went into
     * a call or a constructor, which may only need to read it, hand it a copy instead, named for the
     * variable's type ({@code x.clone()}, {@code new ArrayList<>(x)}: a new object first, which
     * {@code pass} accepts too, SJ042).
     */
    private String fix(Element var, String how) {
        if (how.contains(MoveContexts.THROUGH_A_COPY)) {
            return "copy the elements themselves where the copy is made (stream().map(Map.Entry::copyOf), "
                    + "row.clone()), or assign '" + flow.name(var) + "' a new value first";
        }
        if (!how.startsWith("into a call of") && !how.startsWith("into a constructor call")) {
            return "assign it a new value first";
        }
        String name = flow.name(var);
        javax.lang.model.type.TypeMirror type = var.asType();
        ViewResults views = flow.viewResults;
        String copy = type.getKind() == javax.lang.model.type.TypeKind.ARRAY ? name + ".clone()"
                : views.isA(type, "java.util.List") ? "new ArrayList<>(" + name + ") or List.copyOf(" + name + ")"
                : views.isA(type, "java.util.Set") ? "new HashSet<>(" + name + ") or Set.copyOf(" + name + ")"
                : views.isA(type, "java.util.Map") ? "new HashMap<>(" + name + ") or Map.copyOf(" + name + ")"
                : views.isA(type, "java.lang.CharSequence") ? name + ".toString()" : "a copy of it";
        if (views.elementsMayView(type)) { // rows of rows: a shallow copy still shares them with the peer
            copy = "a copy of each of its elements (" + copy + " would still share them)";
        }
        return "if that call should not own the value, give it " + copy + ", which leaves '" + name
                + "' its value; else assign '" + name + "' a new value first";
    }

    /** Two different ownership states meet: moved on some path, so any later use is an error, reported there. */
    static VarState merge(VarState left, VarState right) {
        return left instanceof VarState.Moved ? left : right;
    }
}
