package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.PatternCaseLabelTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
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
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
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

    /** Whether a variable, field or method is declared {@code @NoAlias}. */
    static boolean isNoAlias(Element element) {
        if (element == null) {
            return false;
        }
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
                return true;
            }
        }
        TypeMirror type = element instanceof ExecutableElement method ? method.getReturnType() : element.asType();
        for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
            if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().contentEquals(NO_ALIAS)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code expression} yields a value nobody else references: a new object or array, null, a
     * received message, a {@code @NoAlias} method result, or a {@code @NoAlias} variable (moved by the use).
     */
    boolean unique(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        // instanceof, not a pattern switch: javac loads the processor afresh for every compilation, and
        // each switch's bootstrap would be linked cold every time (NoPatternSwitchTest)
        if (stripped instanceof NewClassTree creation) {
            return creation.getClassBody() == null;
        } else if (stripped instanceof NewArrayTree) {
            return true;
        } else if (stripped instanceof LiteralTree literal) {
            return literal.getValue() == null;
        } else if (stripped instanceof TypeCastTree cast) {
            return unique(cast.getExpression());
        } else if (stripped instanceof ConditionalExpressionTree conditional) {
            return unique(conditional.getTrueExpression()) && unique(conditional.getFalseExpression());
        } else if (stripped instanceof IdentifierTree identifier) {
            VarInfo info = flow.infos.get(flow.elementOf(identifier));
            return info != null && info.kind().owned();
        } else if (stripped instanceof MemberSelectTree select && isThis(select.getExpression())) {
            VarInfo info = flow.infos.get(flow.elementOf(select));
            return info != null && info.kind().owned();
        } else if (stripped instanceof MethodInvocationTree call) {
            if (isArrayClone(call) || newArray(call)) {
                return true; // a new array, shallowly copied
            }
            if (flow.moveContexts.returnsArgument(call)) {
                Element method = flow.elementOf(call);
                return method.getSimpleName().contentEquals("requireNonNull") ? unique(call.getArguments().get(0))
                        : method.getSimpleName().contentEquals("requireNonNullElse")
                                && unique(call.getArguments().get(0)) && unique(call.getArguments().get(1));
            }
            Element method = flow.elementOf(call);
            return method != null && (isNoAlias(method) || flow.api.isSocketClass(method.getEnclosingElement())
                    && method.getSimpleName().toString().startsWith("receive"));
        }
        return false;
    }

    /**
     * JDK methods of final classes specified to return a newly allocated array: {@code Arrays.copyOf},
     * {@code Arrays.copyOfRange} (shallow copies, like {@code clone()}), {@code String.toCharArray},
     * {@code String.getBytes}.
     */
    private static final java.util.Set<String> NEW_ARRAY = java.util.Set.of("java.util.Arrays.copyOf",
            "java.util.Arrays.copyOfRange", "java.lang.String.toCharArray", "java.lang.String.getBytes");

    /** Whether {@code call} is one of {@link #NEW_ARRAY}. */
    private boolean newArray(MethodInvocationTree call) {
        return flow.elementOf(call) instanceof ExecutableElement method
                && method.getEnclosingElement() instanceof TypeElement owner
                && NEW_ARRAY.contains(owner.getQualifiedName() + "." + method.getSimpleName());
    }

    /** {@code a.clone()} of an array: always a new array. */
    private boolean isArrayClone(MethodInvocationTree call) {
        return call.getArguments().isEmpty() && call.getMethodSelect() instanceof MemberSelectTree select
                && select.getIdentifier().contentEquals("clone")
                && flow.trees.getTypeMirror(flow.pathOf(select.getExpression())) instanceof TypeMirror type
                && type.getKind() == javax.lang.model.type.TypeKind.ARRAY;
    }

    private void useNoAlias(Element var, Tree at, TreePath path) {
        VarState value = flow.state.get(var);
        if (value instanceof VarState.Moved moved) {
            flow.reporter.error(at, Diagnostic.MOVED_VALUE_USED, flow.name(var), moved.how());
            flow.fail(var);
            return;
        }
        String move = flow.moveContexts.moveContext(path);
        if (move != null && flow.moveContexts.borrowedBy(path)) {
            move = null; // Arrays.fill(x, 0): the JDK method reads or writes the elements and keeps nothing
        }
        if (move == null && flow.moveContexts.throwableDetail(path)) {
            move = "into the AssertionError of an assert (as its cause)";
        }
        if (move != null && value instanceof VarState.Owned && closedHere(var, at, move)) {
            return;
        }
        if (move != null && value instanceof VarState.Owned) {
            VarState.Moved moved = new VarState.Moved(move + " on line " + flow.line(at));
            Map<Element, VarState.Moved> pending = pendingArguments(path);
            if (pending != null) {
                VarState.Moved earlier = pending.putIfAbsent(var, moved);
                if (earlier != null) { // the same value given twice to one call
                    flow.reporter.error(at, Diagnostic.MOVED_VALUE_USED, flow.name(var), earlier.how());
                    flow.fail(var);
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
     * before {@code f} owns it. Giving one value to two arguments is still a use after the move.
     */
    private final Deque<Map<Element, VarState.Moved>> pendingMoves = new ArrayDeque<>();
    private final Deque<Tree> pendingCalls = new ArrayDeque<>();

    /**
     * The values moved into the innermost call whose arguments are being evaluated and that the use at
     * {@code path} is an argument of, or null. A call that only returns its argument
     * ({@code Objects.requireNonNull}) takes nothing: {@code f(requireNonNull(x), x.length)} moves
     * {@code x} into {@code f}.
     */
    private Map<Element, VarState.Moved> pendingArguments(TreePath path) {
        java.util.Iterator<Map<Element, VarState.Moved>> moves = pendingMoves.iterator();
        for (Tree call : pendingCalls) {
            Map<Element, VarState.Moved> moved = moves.next();
            if (!flow.moveContexts.returnsArgument(call)) {
                return flow.moveContexts.isArgumentOf(path, call) ? moved : null;
            }
        }
        return null;
    }

    /** The arguments of {@code call} are about to be evaluated. */
    void beginArguments(Tree call) {
        pendingMoves.push(new java.util.LinkedHashMap<>());
        pendingCalls.push(call);
    }

    /** The call happens: the values moved into it are gone now. */
    void endArguments() {
        Map<Element, VarState.Moved> moved = pendingMoves.pop();
        pendingCalls.pop();
        for (Map.Entry<Element, VarState.Moved> move : moved.entrySet()) { // a loop: no lambda linked per compilation
            Element var = move.getKey();
            if (flow.state != null && flow.state.get(var) instanceof VarState.Owned) {
                flow.set(var, move.getValue());
                flow.tryMoves.record(var);
            }
        }
    }

    /**
     * A {@code @NoAlias} enhanced-for variable: each element it is given stays in the array or
     * collection, so it is never the only reference (SJ040).
     */
    VarState loopVariable(Element var, EnhancedForLoopTree loop) {
        if (flow.state != null) {
            flow.reporter.error(loop.getVariable(), Diagnostic.NOT_UNIQUE, var.getSimpleName(),
                    "an element of " + loop.getExpression() + ", which keeps it");
        }
        return VarState.FAILED;
    }

    /**
     * The first state of a {@code @NoAlias} pattern variable or catch parameter, or null when {@code tree}
     * is neither. A pattern variable owns its value only when a type pattern binds the tested value itself
     * and that value is unique (a {@code @NoAlias} variable, which the test moves, or a new object); a
     * component bound inside a record pattern stays in the record, and a caught exception may still be
     * referenced by whoever threw it (a field, a constant, a caller that keeps it): SJ040.
     */
    VarState bound(VariableTree tree, Element var) {
        TreePath path = flow.getCurrentPath();
        Tree parent = path.getParentPath().getLeaf();
        String shared;
        if (parent instanceof BindingPatternTree) {
            TreePath holder = path.getParentPath().getParentPath();
            // instanceof, not a pattern switch: its bootstrap would be linked cold in every compilation
            Tree held = holder.getLeaf();
            ExpressionTree matched = held instanceof InstanceOfTree test ? test.getExpression()
                    : held instanceof PatternCaseLabelTree ? selectorOf(holder)
                    : null; // a component of a record pattern
            if (matched != null && unique(matched)) {
                return VarState.OWNED; // the tested value moved in (MoveContexts: "into a pattern variable")
            }
            shared = matched != null ? FlowScanner.strip(matched).toString()
                    : "a component of the record it is matched in, which keeps it";
        } else if (SocketExpressionRules.catchParameter(parent, tree)) {
            shared = "a caught exception, which whoever threw it may still reference";
        } else {
            return null;
        }
        if (flow.state != null) {
            flow.reporter.error(tree, Diagnostic.NOT_UNIQUE, var.getSimpleName(), shared);
        }
        return VarState.FAILED;
    }

    /** The selector of the switch whose case label is at {@code label}. */
    private static ExpressionTree selectorOf(TreePath label) {
        for (TreePath p = label.getParentPath(); p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof SwitchTree statement) {
                return statement.getExpression();
            }
            if (p.getLeaf() instanceof SwitchExpressionTree expression) {
                return expression.getExpression();
            }
        }
        return null;
    }

    /** The initial state of a {@code @NoAlias} local declared with {@code initializer} (null: none). */
    VarState declared(Element var, ExpressionTree initializer) {
        if (initializer == null) {
            return VarState.UNASSIGNED;
        }
        boolean unique = unique(initializer);
        flow.scan(initializer, null);
        if (!unique && flow.state != null) {
            flow.reporter.error(initializer, Diagnostic.NOT_UNIQUE, var.getSimpleName(), initializer);
        }
        return unique ? VarState.OWNED : VarState.FAILED;
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
        boolean unique = unique(tree.getExpression());
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

    private static boolean isThis(ExpressionTree expression) {
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
     * Code that may read this object's fields is about to run ({@code what}: a call, a constructor, a
     * lambda or class body): every tracked {@code @NoAlias} field moved out must have been refilled,
     * or that code could see the value that now belongs to someone else.
     */
    void beforeForeignCode(Tree at, String what) {
        if (flow.state == null) {
            return;
        }
        for (Element var : flow.state.variables()) {
            VarInfo info = flow.infos.get(var);
            if (info != null && info.kind() == Kind.NOALIAS_FIELD
                    && flow.state.get(var) instanceof VarState.Moved moved) {
                flow.reporter.error(at, Diagnostic.FIELD_NOT_REFILLED, info.name(), moved.how(), what);
                flow.fail(var);
            }
        }
    }

    /**
     * A static field of another class named while a field is moved out: its class's first use runs the
     * class's static initializer, which may read the field (through a static reference to this object).
     * The class whose method is checked and its superclasses are initialized already; a constant
     * variable is inlined by javac and runs nothing. Enum constants count ({@code Choice.MORE}: the
     * enum's initializer runs its constructors), unless the enum is a plain one ({@link PlainEnums}).
     */
    void staticField(Tree at, Element field) {
        if (field == null || field.getKind() != ElementKind.FIELD && field.getKind() != ElementKind.ENUM_CONSTANT
                || !field.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)
                || ((VariableElement) field).getConstantValue() != null || !fieldMoved() || flow.unitMethod == null
                || flow.getCurrentPath().getParentPath().getLeaf() instanceof com.sun.source.tree.ConstantCaseLabelTree) {
            return; // a case label names a constant of the value switched on, whose class is initialized
        }
        TypeElement owner = (TypeElement) field.getEnclosingElement();
        firstUse(at, owner, "'" + owner.getSimpleName() + "." + field.getSimpleName() + "' is used");
    }

    /**
     * {@code s.inbranch(E.class)} while a field is moved out: the label becomes a constant of E
     * ({@code E.valueOf}), the first use of E, which runs its static initializer as {@code E.X} would.
     */
    void labelEnum(MethodInvocationTree inbranch) {
        if (inbranch.getArguments().size() != 1 || !fieldMoved() || flow.unitMethod == null
                || !(FlowScanner.strip(inbranch.getArguments().get(0)) instanceof MemberSelectTree literal)
                || !literal.getIdentifier().contentEquals("class")
                || !(flow.trees.getTypeMirror(flow.pathOf(literal.getExpression())) instanceof DeclaredType type)) {
            return;
        }
        firstUse(inbranch, (TypeElement) type.asElement(), inbranch + " receives a constant of it");
    }

    /**
     * The first use of {@code owner} ({@code what}) while a field is moved out: SJ044, unless the
     * class is initialized already (the checked method's class and its superclasses) or it is an enum
     * whose initialization runs no code of the program ({@link PlainEnums}).
     */
    private void firstUse(Tree at, TypeElement owner, String what) {
        for (Element type = flow.unitMethod.getEnclosingElement(); type instanceof TypeElement current;
                type = flow.types.asElement(current.getSuperclass())) {
            if (current.equals(owner)) {
                return;
            }
        }
        if (PlainEnums.plain(owner, flow.trees)) {
            return;
        }
        beforeForeignCode(at, "before " + what + " (the first use of " + owner.getQualifiedName()
                + " runs its static initializer, which may read it)");
    }

    /**
     * A value sent with {@code send} is serialised (also on a local connection, which copies it): the
     * serialisation reads the fields of every object it reaches. While a field is moved out, a value
     * that may be this object ({@code this}, or any expression whose type this object's class can be
     * cast to) would carry the moved value along.
     */
    void serialised(ExpressionTree value) {
        if (!fieldMoved() || flow.unitMethod == null) {
            return;
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(value));
        TypeMirror self = flow.unitMethod.getEnclosingElement().asType();
        if (type != null && (type.getKind() == javax.lang.model.type.TypeKind.DECLARED
                || type.getKind() == javax.lang.model.type.TypeKind.TYPEVAR
                || type.getKind() == javax.lang.model.type.TypeKind.INTERSECTION)
                && mayBe(flow.types.erasure(type), flow.types.erasure(self))) {
            beforeForeignCode(value, "before '" + value + "' is sent (serialising it reads the fields of this "
                    + "object: it may be this object)");
        }
    }

    /** Whether a value of static type {@code type} may be an object of class (or interface) {@code self}. */
    private boolean mayBe(TypeMirror type, TypeMirror self) {
        if (flow.types.isSubtype(self, type) || flow.types.isSubtype(type, self)) {
            return true;
        }
        Element typeElement = flow.types.asElement(type);
        Element selfElement = flow.types.asElement(self);
        if (typeElement == null || selfElement == null) {
            return true;
        }
        // An interface and a non-final class (either way round) meet in a subclass implementing it.
        return typeElement.getKind().isInterface() && !selfElement.getModifiers().contains(
                javax.lang.model.element.Modifier.FINAL) || selfElement.getKind().isInterface()
                && !typeElement.getModifiers().contains(javax.lang.model.element.Modifier.FINAL);
    }

    /** Whether a tracked {@code @NoAlias} field is moved out now (so that foreign code must not run). */
    boolean fieldMoved() {
        if (flow.state == null) {
            return false;
        }
        for (Element var : flow.state.variables()) {
            VarInfo info = flow.infos.get(var);
            if (info != null && info.kind() == Kind.NOALIAS_FIELD && flow.state.get(var) instanceof VarState.Moved) {
                return true;
            }
        }
        return false;
    }

    /** A tracked field leaving the method ({@code where}: at a return or at its end) must hold a value. */
    void checkRefilled(Element var, Tree at, String where) {
        VarInfo info = flow.infos.get(var);
        if (info != null && info.kind() == Kind.NOALIAS_FIELD && flow.state.get(var) instanceof VarState.Moved moved) {
            flow.reporter.error(at != null ? at : info.declaration(), Diagnostic.FIELD_NOT_REFILLED, info.name(),
                    moved.how(), where);
            flow.fail(var);
        }
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
                flow.reporter.error(constructor, Diagnostic.MOVED_VALUE_USED, flow.name(var), moved.how()
                        + " (the compact constructor stores it in field '" + var.getSimpleName() + "' at its end)");
                flow.fail(var);
            }
        }
    }

    /** A {@code @NoAlias} local named inside a lambda or local class body moves into it. */
    void captured(Element var, VarInfo info, IdentifierTree identifier, String what) {
        if (flow.state == null) {
            return;
        }
        if (flow.state.get(var) instanceof VarState.Moved moved) {
            flow.reporter.error(identifier, Diagnostic.MOVED_VALUE_USED, info.name(), moved.how());
            flow.fail(var);
        } else if (flow.state.get(var) instanceof VarState.Owned
                && !closedHere(var, identifier, "into " + what)) {
            flow.set(var, new VarState.Moved("into " + what + " on line " + flow.line(identifier)));
            flow.tryMoves.record(var);
        }
    }

    /** Two different ownership states meet: moved on some path, so any later use is an error, reported there. */
    static VarState merge(VarState left, VarState right) {
        return left instanceof VarState.Moved ? left : right;
    }

    /** An argument for a {@code @NoAlias} parameter must be unique (and is moved by the call). */
    void argument(VariableElement parameter, ExpressionTree argument) {
        boolean unique = parameter == null || !isNoAlias(parameter) || unique(argument);
        flow.scan(argument, null);
        if (!unique && flow.state != null) {
            flow.reporter.error(argument, Diagnostic.NOT_UNIQUE, parameter.getSimpleName(), argument);
        }
    }

    /** The result of a {@code @NoAlias} method must be unique. */
    void returned(ExpressionTree expression) {
        ExecutableElement method = flow.resultContract;
        if (expression != null && method != null && isNoAlias(method) && !unique(expression) && flow.state != null) {
            flow.reporter.error(expression, Diagnostic.NOT_UNIQUE, method.getSimpleName() + "()'s result"
                    + (method == flow.unitMethod ? "" : " (the lambda implements " + method.getEnclosingElement()
                            .getSimpleName() + "." + method.getSimpleName() + ")"), expression);
        }
    }
}
