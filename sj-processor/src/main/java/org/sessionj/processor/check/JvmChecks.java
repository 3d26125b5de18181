package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import javax.lang.model.element.Element;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * adv21 B8: the JVM's own checks are throw points of their own exception types, for SJ024's "swallow and go on" rule
 * ({@link LiveSessionExits}): an array index ({@code ArrayIndexOutOfBoundsException}), an integer division or remainder
 * by a divisor that is not a constant other than zero ({@code ArithmeticException}), a reference cast that may fail
 * ({@code ClassCastException}), an array size that is not a constant ({@code NegativeArraySizeException}) and a store
 * into an array whose element type a subclass may narrow ({@code ArrayStoreException}). A catch that takes one of them
 * and goes on — one that names it ({@code catch (ArrayIndexOutOfBoundsException e)} around the call of a method doing
 * {@code parts[1]} between two actions: the commonest parse loop), or a broad one ({@code catch (Exception e)}), which
 * takes it as well — outlives the session the check abandoned. Not a null dereference: every dereference and every JDK
 * call may throw a {@code NullPointerException}, and counting it would make every plain local session under a broad
 * catch need try-with-resources (docs/diagnostics.md, SJ024).
 *
 * <p>Cost: each check asks first whether a plain local session is live here ({@link LiveSessionExits#anyLiveLocal}),
 * a walk over the tracked variables; only then are the operand types read. Code with no live session records nothing.
 */
final class JvmChecks {
    private final MethodChecker flow;

    JvmChecks(MethodChecker flow) {
        this.flow = flow;
    }

    /** An array access {@code tree} that reads the element (not the target of a plain assignment, {@link #stored}). */
    void arrayAccess(ArrayAccessTree tree) {
        Tree parent = flow.getCurrentPath() == null || flow.getCurrentPath().getParentPath() == null ? null
                : flow.getCurrentPath().getParentPath().getLeaf();
        if (parent instanceof AssignmentTree assignment && assignment.getVariable() == tree) {
            return; // a plain store checks its index after the value is evaluated (JLS 15.26.1): stored() does it
        }
        if (flow.liveExits.anyLiveLocal()) {
            check(tree, "the array index", "java.lang.ArrayIndexOutOfBoundsException");
        }
    }

    /**
     * A plain assignment {@code tree} has evaluated its value: a store into an array element checks the index, then
     * (an element type a subclass may narrow: not a primitive, a final class) the value's class (JLS 15.26.1).
     */
    void stored(AssignmentTree tree) {
        if (!(FlowScanner.strip(tree.getVariable()) instanceof ArrayAccessTree access) || !flow.liveExits.anyLiveLocal()) {
            return;
        }
        check(access, "the array index", "java.lang.ArrayIndexOutOfBoundsException");
        TypeMirror array = flow.trees.getTypeMirror(flow.pathOf(access.getExpression()));
        TypeMirror value = flow.trees.getTypeMirror(flow.pathOf(tree.getExpression()));
        if (array instanceof ArrayType arrayType && narrowable(arrayType.getComponentType())
                && value != null && value.getKind() != TypeKind.NULL) { // a primitive is boxed, then stored
            check(access, "the array store", "java.lang.ArrayStoreException");
        }
    }

    /** A binary {@code tree} whose operands are evaluated: an integer {@code /} or {@code %} may divide by zero. */
    void binary(com.sun.source.tree.BinaryTree tree) {
        if ((tree.getKind() == Tree.Kind.DIVIDE || tree.getKind() == Tree.Kind.REMAINDER)
                && integral(tree.getLeftOperand()) && integral(tree.getRightOperand())
                && !nonZeroConstant(tree.getRightOperand()) && flow.liveExits.anyLiveLocal()) {
            check(tree, "the integer division", "java.lang.ArithmeticException");
        }
    }

    /** A compound assignment {@code tree} ({@code total /= n}) whose value is evaluated. */
    void compound(CompoundAssignmentTree tree) {
        if ((tree.getKind() == Tree.Kind.DIVIDE_ASSIGNMENT || tree.getKind() == Tree.Kind.REMAINDER_ASSIGNMENT)
                && integral(tree.getVariable()) && integral(tree.getExpression())
                && !nonZeroConstant(tree.getExpression()) && flow.liveExits.anyLiveLocal()) {
            check(tree, "the integer division", "java.lang.ArithmeticException");
        }
    }

    /**
     * A cast {@code tree} whose operand is evaluated: to a reference type the operand's static type is no subtype of
     * ({@code (LocalDate) o}), or to a primitive from a reference that is not its box ({@code (int) o}).
     */
    void cast(TypeCastTree tree) {
        if (!flow.liveExits.anyLiveLocal()) {
            return;
        }
        TypeMirror target = flow.trees.getTypeMirror(flow.pathOf(tree.getType()));
        TypeMirror operand = flow.trees.getTypeMirror(flow.pathOf(tree.getExpression()));
        if (target == null || operand == null || operand.getKind().isPrimitive() || operand.getKind() == TypeKind.NULL) {
            return;
        }
        boolean mayFail;
        if (target.getKind().isPrimitive()) {
            mayFail = !(operand instanceof DeclaredType) || unboxed(operand) == null;
        } else {
            mayFail = !flow.types.isSubtype(flow.types.erasure(operand), flow.types.erasure(target));
        }
        if (mayFail) {
            check(tree, "the cast to '" + tree.getType() + "'", "java.lang.ClassCastException");
        }
    }

    /** An array creation {@code tree} whose dimensions are evaluated: one that is not a constant may be negative. */
    void newArray(NewArrayTree tree) {
        for (ExpressionTree dimension : tree.getDimensions()) {
            if (!constant(dimension) && flow.liveExits.anyLiveLocal()) {
                check(tree, "the array size", "java.lang.NegativeArraySizeException");
                return;
            }
        }
    }

    private void check(Tree at, String what, String exception) {
        flow.liveExits.jvmCheck(at, what + " on line " + flow.line(at) + " ("
                + exception.substring(exception.lastIndexOf('.') + 1) + ") throws", exception);
    }

    /** Whether an array of element type {@code component} may be of a narrower element type at run time. */
    private static boolean narrowable(TypeMirror component) {
        if (component.getKind().isPrimitive()) {
            return false;
        }
        return !(component instanceof DeclaredType declared && declared.asElement().getModifiers().contains(Modifier.FINAL));
    }

    /** Whether {@code operand} is of an integral type (after unboxing): its division by zero throws. */
    private boolean integral(ExpressionTree operand) {
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(operand));
        if (type instanceof DeclaredType) {
            type = unboxed(type);
        }
        if (type == null) {
            return false;
        }
        TypeKind kind = type.getKind();
        return kind == TypeKind.INT || kind == TypeKind.LONG || kind == TypeKind.SHORT || kind == TypeKind.BYTE
                || kind == TypeKind.CHAR;
    }

    private TypeMirror unboxed(TypeMirror type) {
        try {
            return flow.types.unboxedType(type);
        } catch (IllegalArgumentException notABox) {
            return null;
        }
    }

    /** Whether {@code expression} is a constant other than zero (a literal, a negated one, a constant variable). */
    private boolean nonZeroConstant(ExpressionTree expression) {
        Object value = constantValue(expression);
        return value instanceof Number number && number.longValue() != 0
                || value instanceof Character character && character != 0;
    }

    /** Whether {@code expression} is a constant that is not negative. */
    private boolean constant(ExpressionTree expression) {
        Object value = constantValue(expression);
        return value instanceof Number number && number.longValue() >= 0 || value instanceof Character;
    }

    private Object constantValue(ExpressionTree expression) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        if (stripped instanceof LiteralTree literal) {
            return literal.getValue();
        }
        if (stripped instanceof UnaryTree unary && unary.getKind() == Tree.Kind.UNARY_MINUS
                && constantValue(unary.getExpression()) instanceof Number number) {
            return -number.longValue();
        }
        return constantOf(stripped);
    }

    /** The constant value of a constant variable {@code tree} names ({@code static final int N = 3}), or null. */
    private Object constantOf(ExpressionTree tree) {
        ExpressionTree stripped = FlowScanner.strip(tree);
        Element element = stripped instanceof IdentifierTree || stripped instanceof MemberSelectTree
                ? flow.elementOf(stripped) : null;
        return element instanceof VariableElement variable ? variable.getConstantValue() : null;
    }
}
