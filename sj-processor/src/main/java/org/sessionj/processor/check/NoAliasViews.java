package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.VarState;

/**
 * Locals that may hold a {@code @NoAlias} value itself or a view over it (adv14 A1): the result of a
 * call on the value that may return it ({@code StringBuilder alias = b.append("x")}, a fluent
 * {@code Buf y = x.set(1)}) or a view of it ({@code List<Integer> view = x.subList(0, 1)},
 * {@code Iterator<Integer> it = x.iterator()}, {@code IntStream st = Arrays.stream(x)}), as
 * {@link ViewResults#returnsView} decides. Such a local is tracked ({@link Kind#VIEW}) with the state
 * of the values it may view:
 * <ul>
 * <li>{@link VarState#OWNED} while they are owned: reads through it are reads of the value, and a use
 * that would move the value ({@code keep(view)}, {@code field = view}, {@code return view}, capturing it)
 * moves the value it views;</li>
 * <li>{@link VarState.Moved} once one of them is moved ({@code s.pass(x)}): any use of the view is then
 * SJ048 (it would read or write what the peer owns now);</li>
 * <li>{@link VarState#UNASSIGNED} when it views nothing tracked (declared without a value, assigned
 * another value, or the value it viewed was replaced in its owner: nobody else holds the old one).</li>
 * </ul>
 * Copying the view into another local makes that one a view of the same values. What it views is
 * kept per variable for the whole method (a superset on every path): a move of any of them ends it.
 */
final class NoAliasViews {
    private final MethodChecker flow;
    /** For each view local, the owned variables whose value it may be or view. */
    private final Map<Element, Set<Element>> owners = new HashMap<>();
    /** For each owned variable, the view locals that may view it. */
    private final Map<Element, Set<Element>> views = new HashMap<>();
    /** For each view local, what made it a view, for messages ("the result of 'subList' on line 5"). */
    private final Map<Element, String> made = new HashMap<>();
    /** Whether the method has owned values at all: only then are locals without a value tracked as views. */
    private boolean owning;

    NoAliasViews(MethodChecker flow) {
        this.flow = flow;
    }

    /** An owned ({@code @NoAlias}) variable was declared: locals declared from now on may become views. */
    void startOwning() {
        owning = true;
    }

    /**
     * Whether the method has owned values: only then can a call's result be a view worth following
     * (the checks cost type queries that methods without {@code @NoAlias} values need not pay).
     */
    boolean owns() {
        return owning;
    }

    /**
     * The local {@code var} declared by {@code tree}: when its initializer may be (a view of) an owned
     * value it is checked here and {@code var} is tracked as a view; one declared without a value (or
     * {@code null}) in a method with owned values is tracked as viewing nothing, as it may be assigned one.
     * Returns the first state to track it with, or null when it is not tracked.
     */
    VarState declared(VariableTree tree, Element var) {
        if (!owning || !mayHoldView(var.asType())) {
            return null;
        }
        ExpressionTree initializer = tree.getInitializer();
        if (initializer == null || FlowScanner.strip(initializer) instanceof LiteralTree) {
            flow.scan(initializer, null);
            return VarState.UNASSIGNED;
        }
        Set<Element> viewed = new LinkedHashSet<>();
        String how = viewedBy(initializer, false, viewed);
        if (viewed.isEmpty()) {
            return null;
        }
        flow.scan(initializer, null);
        return record(var, viewed, how);
    }

    /**
     * The variable {@code var} of the enhanced {@code for} statement {@code loop} over an {@code Iterable}
     * (adv16 A1): an element read from an owned value, or from a view of one ({@code x.entrySet()}), is a
     * view of it when its type could hold one — as the same element read by {@code get(i)} or
     * {@code next()} is; so is an array's element ({@code for (int[] row : x)} of an array of arrays), as
     * {@code x[i]} is. Returns its first state, or null when it is not tracked.
     */
    VarState element(EnhancedForLoopTree loop, Element var) {
        if (!owning || !mayHoldView(var.asType())) {
            return null;
        }
        TypeMirror iterable = flow.trees.getTypeMirror(flow.pathOf(loop.getExpression()));
        if (iterable == null || !flow.viewResults.elementMayView(var.asType(), iterable)) {
            return null;
        }
        Set<Element> viewed = new LinkedHashSet<>();
        viewedBy(loop.getExpression(), true, viewed);
        return viewed.isEmpty() ? null : record(var, viewed, "an element of '" + loop.getExpression()
                + "' read by the enhanced for loop on line " + flow.line(loop));
    }

    /** {@code var = value} for a view local {@code var}: it now views what {@code value} may be. */
    void assigned(AssignmentTree tree, Element var) {
        Set<Element> viewed = new LinkedHashSet<>();
        String how = viewedBy(tree.getExpression(), false, viewed);
        flow.scan(tree.getExpression(), null);
        flow.set(var, viewed.isEmpty() ? VarState.UNASSIGNED : record(var, viewed, how));
        if (flow.moveContexts.moveContext(flow.getCurrentPath()) != null) {
            use(var, tree, flow.getCurrentPath()); // keep(view = x.subList(0, 1)): the value escapes too
        }
    }

    /** Records that {@code view} may view {@code viewed}; returns its state now (moved if one of them is). */
    private VarState record(Element view, Set<Element> viewed, String how) {
        made.put(view, how);
        VarState state = VarState.OWNED;
        for (Element owner : viewed) {
            owners.computeIfAbsent(view, k -> new LinkedHashSet<>()).add(owner);
            views.computeIfAbsent(owner, k -> new LinkedHashSet<>()).add(view);
            VarState now = flow.state == null ? null : flow.state.get(owner);
            if (now instanceof VarState.Moved moved) {
                state = moved;
            } else if (now instanceof VarState.Failed && state instanceof VarState.Owned) {
                state = VarState.FAILED;
            }
        }
        return state;
    }

    /**
     * Whether a variable of this type could hold a view: a reference type that is not an enum, a
     * {@code String} or a boxed primitive.
     */
    private boolean mayHoldView(TypeMirror type) {
        if (type.getKind() == TypeKind.ARRAY || type.getKind() == TypeKind.TYPEVAR) {
            return true;
        }
        if (type.getKind() != TypeKind.DECLARED) {
            return false;
        }
        Element element = flow.types.asElement(type);
        return element.getKind() != ElementKind.ENUM && !(element instanceof javax.lang.model.element.TypeElement named
                && named.getQualifiedName().toString().startsWith("java.lang.") && isImmutable(named));
    }

    /** {@code java.lang}'s {@code String} and boxed primitives (by simple name; the caller checks the package). */
    private static boolean isImmutable(javax.lang.model.element.TypeElement type) {
        return switch (type.getSimpleName().toString()) {
            case "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double" -> true;
            default -> false;
        };
    }

    /**
     * Adds to {@code viewed} the owned variables whose value {@code expression} may be a view of (through
     * a call that may return it or a view, when not {@code throughView} yet) or, for a view local, what it
     * views; returns how the first was made ("the result of 'subList' on line 5"), or null. The mirror of
     * {@link MoveContexts#reach}, walking down.
     */
    private String viewedBy(ExpressionTree expression, boolean throughView, Set<Element> viewed) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        if (stripped instanceof TypeCastTree cast) {
            return viewedBy(cast.getExpression(), throughView, viewed);
        }
        if (stripped instanceof ArrayAccessTree access && flow.viewResults.elementMayView(flow.pathOf(access))) {
            // a row of x's (int[] row = x[0]), or an entry of a copy of x.entrySet() (arr[0])
            String inner = viewedBy(access.getExpression(), true, viewed);
            return inner != null ? inner : "the element '" + access + "' on line " + flow.line(access);
        }
        if (stripped instanceof ConditionalExpressionTree conditional) {
            String first = viewedBy(conditional.getTrueExpression(), throughView, viewed);
            String second = viewedBy(conditional.getFalseExpression(), throughView, viewed);
            return first != null ? first : second;
        }
        if (stripped instanceof SwitchExpressionTree switchExpression) {
            String first = null;
            for (ExpressionTree value : SwitchArms.values(switchExpression)) {
                String how = viewedBy(value, throughView, viewed);
                first = first != null ? first : how;
            }
            return first;
        }
        if (stripped instanceof AssignmentTree assignment) {
            Element target = flow.elementOf(FlowScanner.strip(assignment.getVariable()));
            VarInfo info = target == null ? null : flow.infos.get(target);
            return info != null && info.kind() == Kind.VIEW ? viewedBy(assignment.getExpression(), throughView, viewed) : null;
        }
        ExpressionTree copied = stripped instanceof MethodInvocationTree || stripped instanceof NewClassTree
                ? flow.jdkCopies.copiedSource(stripped) : null;
        if (copied != null) {
            return copyOfViews(stripped, copied, viewed);
        }
        if (stripped instanceof MethodInvocationTree call) {
            TreePath path = flow.pathOf(call);
            if (flow.moveContexts.returnsArgument(call)) {
                return viewedBy(call.getArguments().get(0), throughView, viewed);
            }
            ExpressionTree operand = call.getMethodSelect() instanceof MemberSelectTree select
                    && flow.viewResults.returnsView(path, select.getExpression()) ? select.getExpression()
                    : !call.getArguments().isEmpty() && flow.viewResults.returnsView(path, call.getArguments().get(0))
                            ? call.getArguments().get(0) : null;
            if (operand == null) {
                return null;
            }
            String inner = viewedBy(operand, true, viewed);
            return inner != null ? inner : "the result of '" + FlowScanner.calleeName(call) + "' on line " + flow.line(call);
        }
        Element var = stripped instanceof IdentifierTree
                || stripped instanceof MemberSelectTree select && NoAliasRules.isThis(select.getExpression())
                ? flow.elementOf(stripped) : null;
        VarInfo info = var == null ? null : flow.infos.get(var);
        if (info == null) {
            return null;
        }
        if (info.kind() == Kind.VIEW && flow.state != null && !(flow.state.get(var) instanceof VarState.Unassigned)) {
            Set<Element> theirs = owners.get(var);
            if (theirs != null) {
                viewed.addAll(theirs);
            }
            return made.get(var);
        }
        if (throughView && info.kind().owned()) {
            viewed.add(var);
        }
        return null;
    }

    /** Whether the JDK copy {@code copy} holds elements that may be views of an owned value (adv16 A3, A12). */
    boolean holdsViews(ExpressionTree copy) {
        ExpressionTree source = owning ? flow.jdkCopies.copiedSource(copy) : null;
        return source != null && copyOfViews(copy, source, new LinkedHashSet<>()) != null;
    }

    /**
     * A JDK copy ({@code copy}) of {@code source}'s elements (adv16 A3): a view of what {@code source} may be
     * or view when its elements may be views of it — {@code new ArrayList<>(x.entrySet())} holds the map's own
     * entries — and of nothing otherwise ({@code new ArrayList<>(x)} of a list of numbers is a new value).
     */
    private String copyOfViews(ExpressionTree copy, ExpressionTree source, Set<Element> viewed) {
        if (flow.viewResults.freshElements(FlowScanner.strip(source))) {
            return null; // x.entrySet().stream().map(Map.Entry::copyOf).toList(): a snapshot (adv17 A5)
        }
        TypeMirror sourceType = flow.trees.getTypeMirror(flow.pathOf(source));
        TypeMirror element = sourceType == null ? null : flow.viewResults.elementType(sourceType);
        if (element == null || !flow.viewResults.elementMayView(element, sourceType)) {
            return null;
        }
        Set<Element> theirs = new LinkedHashSet<>();
        String how = viewedBy(source, true, theirs);
        if (theirs.isEmpty()) {
            return null;
        }
        viewed.addAll(theirs);
        return "a copy of the elements of '" + source + "' on line " + flow.line(copy) + " (they may be views: "
                + (how != null ? how : "'" + source + "' itself") + ")";
    }

    /**
     * Whether the owned value used at {@code path} goes, through a call that may return it or a view,
     * into a local that is tracked as a view of it (which {@link #declared} or {@link #assigned} records):
     * then the use is no move.
     */
    boolean storedAsView(TreePath path, boolean throughView) {
        Tree store = flow.moveContexts.storedBy(path, throughView);
        if (store instanceof VariableTree declaration) {
            Element var = flow.trees.getElement(new TreePath(flow.getCurrentPath(), declaration));
            return var != null && var.getKind() != ElementKind.FIELD && !NoAliasRules.isNoAlias(var)
                    && mayHoldView(var.asType());
        }
        if (store instanceof AssignmentTree assignment) {
            ExpressionTree target = FlowScanner.strip(assignment.getVariable());
            Element var = target instanceof IdentifierTree ? flow.elementOf(target) : null;
            VarInfo info = var == null ? null : flow.infos.get(var);
            return info != null && info.kind() == Kind.VIEW;
        }
        return false;
    }

    /**
     * The view local {@code var} is used at {@code at}: after what it views was moved, SJ048; a use that
     * would move a value ({@code keep(view)}) moves what it views; reads through it are reads.
     */
    void use(Element var, Tree at, TreePath path) {
        VarState state = flow.state == null ? null : flow.state.get(var);
        if (state instanceof VarState.Moved moved) {
            report(at, var, moved.how());
            return;
        }
        if (!(state instanceof VarState.Owned) || storedAsView(path, false)) {
            return;
        }
        Set<Element> theirs = owners.get(var);
        if (theirs == null) {
            return;
        }
        for (Element owner : theirs) {
            if (flow.state != null && flow.state.get(owner) instanceof VarState.Owned) {
                flow.noAlias.useOwner(owner, at, path, " through '" + flow.name(var) + "' (" + made.get(var)
                        + ", which may be it or a view of it)");
            }
        }
    }

    /** The view local {@code var} is captured by a lambda or local class ({@code what}): what it views moves there. */
    void captured(Element var, IdentifierTree identifier, String what) {
        VarState state = flow.state == null ? null : flow.state.get(var);
        if (state instanceof VarState.Moved moved) {
            report(identifier, var, moved.how());
            return;
        }
        Set<Element> theirs = owners.get(var);
        if (!(state instanceof VarState.Owned) || theirs == null) {
            return;
        }
        for (Element owner : theirs) {
            VarInfo info = flow.infos.get(owner);
            if (info != null && flow.state.get(owner) instanceof VarState.Owned) {
                flow.noAlias.captured(owner, info, identifier, what + " (through '" + flow.name(var) + "', "
                        + made.get(var) + ")");
            }
        }
    }

    /** SJ048: the view {@code var} is used after the value it may view was moved ({@code how}). */
    void report(Tree at, Element var, String how) {
        Set<Element> theirs = owners.get(var);
        StringBuilder names = new StringBuilder();
        if (theirs != null) {
            for (Element owner : theirs) {
                names.append(names.length() == 0 ? "" : "' or '").append(flow.name(owner));
            }
        }
        flow.reporter.error(at, Diagnostic.VIEW_USED, flow.name(var), String.valueOf(made.get(var)), names, how);
        flow.fail(var);
    }

    /**
     * {@code owner} was set to {@code value}: the views of its value end with it — moved with it, or, when
     * it is given another value, they keep the old one, which nobody else holds now (no longer tracked).
     */
    void changed(Element owner, VarState value) {
        Set<Element> its = views.isEmpty() ? null : views.get(owner);
        if (its == null || flow.state == null) {
            return;
        }
        for (Element view : its) { // a loop: no lambda linked per compilation
            if (flow.state == null || !(flow.state.get(view) instanceof VarState.Owned)) {
                continue;
            }
            // through set: an enhanced for over the view (its hidden reference, IteratedValues) ends with it
            if (value instanceof VarState.Moved moved) {
                flow.set(view, moved);
                flow.tryMoves.record(view);
            } else if (value instanceof VarState.Failed) {
                flow.set(view, VarState.FAILED);
            } else if (!(value instanceof VarState.Owned)) {
                flow.set(view, VarState.UNASSIGNED);
            }
        }
    }

    /** {@code owner} was given a new value ({@code owner = new …}): its views keep the old one, no longer tracked. */
    void reassigned(Element owner) {
        Set<Element> its = views.isEmpty() ? null : views.get(owner);
        if (its == null || flow.state == null) {
            return;
        }
        for (Element view : its) {
            if (flow.state != null && flow.state.get(view) instanceof VarState.Owned) {
                flow.set(view, VarState.UNASSIGNED);
            }
        }
    }
}
