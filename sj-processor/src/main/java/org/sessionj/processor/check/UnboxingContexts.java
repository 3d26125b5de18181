package org.sessionj.processor.check;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.CaseLabelTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConstantCaseLabelTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.tree.YieldTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Whether the value of an expression of a box type is unboxed by where it stands (JLS 5.1.8 contexts):
 * assigned or cast to a primitive, an operand of a numeric, comparison or logical operator, a condition,
 * an array index or size, a switch selector (unless the switch has {@code case null}), an argument for a primitive parameter, a value returned or
 * yielded as a primitive. Parentheses and casts to reference types are looked through
 * ({@code (Integer) s.receive()} is unboxed where the cast's value is). An explicit {@code intValue()}
 * is not a context: the program chose to unbox.
 */
final class UnboxingContexts {
    private final Trees trees;
    private final ImplementationContracts contracts;

    UnboxingContexts(Trees trees, ImplementationContracts contracts) {
        this.trees = trees;
        this.contracts = contracts;
    }

    /** Whether the value of the expression at {@code path} is unboxed by its context. */
    boolean unboxed(TreePath path) {
        Tree child = path.getLeaf();
        TreePath parentPath = path.getParentPath();
        while (parentPath != null) {
            Tree parent = parentPath.getLeaf();
            if (parent instanceof ParenthesizedTree) {
                child = parent;
                parentPath = parentPath.getParentPath();
                continue;
            }
            if (parent instanceof TypeCastTree cast) {
                if (primitive(type(new TreePath(parentPath, cast.getType())))) {
                    return true;
                }
                child = parent;
                parentPath = parentPath.getParentPath();
                continue;
            }
            if (parent instanceof ConditionalExpressionTree conditional) {
                if (conditional.getCondition() == child) {
                    return true;
                }
                if (primitive(type(parentPath))) {
                    return true;
                }
                child = parent;
                parentPath = parentPath.getParentPath();
                continue;
            }
            if (parent instanceof SwitchExpressionTree switchExpression && switchExpression.getExpression() != child) {
                // An arm's value is the switch's value (adv17 A13): unboxed when the switch's type is primitive
                // (a standalone numeric switch, or a poly one whose target is), else where the switch's value goes.
                if (primitive(type(parentPath))) {
                    return true;
                }
                child = parent;
                parentPath = parentPath.getParentPath();
                continue;
            }
            return unboxedBy(parentPath, parent, child);
        }
        return false;
    }

    private boolean unboxedBy(TreePath parentPath, Tree parent, Tree child) {
        if (parent instanceof VariableTree variable) {
            Element element = trees.getElement(parentPath);
            return variable.getInitializer() == child && element != null && primitive(element.asType());
        }
        if (parent instanceof AssignmentTree assignment) {
            return assignment.getExpression() == child
                    && primitive(type(new TreePath(parentPath, assignment.getVariable())));
        }
        if (parent instanceof CompoundAssignmentTree compound) {
            // out += s.<Integer>receive() on a String concatenates (a null box gives "null"): nothing unboxed
            TypeMirror target = type(new TreePath(parentPath, compound.getVariable()));
            return compound.getKind() != Tree.Kind.PLUS_ASSIGNMENT || target == null || target.getKind() != TypeKind.DECLARED;
        }
        if (parent instanceof UnaryTree) {
            return true;
        }
        if (parent instanceof BinaryTree binary) {
            return binaryUnboxes(parentPath, binary, child);
        }
        if (parent instanceof IfTree || parent instanceof WhileLoopTree || parent instanceof DoWhileLoopTree
                || parent instanceof ForLoopTree || parent instanceof AssertTree) {
            return !(parent instanceof AssertTree assertion) || assertion.getCondition() == child;
        }
        if (parent instanceof ArrayAccessTree access) {
            return access.getIndex() == child;
        }
        if (parent instanceof NewArrayTree array) {
            return array.getDimensions().contains(child)
                    || array.getInitializers() != null && array.getInitializers().contains(child)
                            && type(parentPath) instanceof ArrayType arrayType
                            && primitive(arrayType.getComponentType());
        }
        if (parent instanceof SwitchTree statement) {
            return !handlesNull(statement.getCases()); // only the selector is an expression child of a switch
        }
        if (parent instanceof SwitchExpressionTree expression) {
            return !handlesNull(expression.getCases());
        }
        if (parent instanceof MethodInvocationTree invocation) {
            return invocation.getArguments().contains(child)
                    && argumentUnboxed(parentPath, invocation.getArguments(), child);
        }
        if (parent instanceof NewClassTree creation) {
            return creation.getArguments().contains(child) && argumentUnboxed(parentPath, creation.getArguments(), child);
        }
        if (parent instanceof ReturnTree || parent instanceof YieldTree || parent instanceof LambdaExpressionTree) {
            return primitive(resultType(parentPath));
        }
        return false;
    }

    /**
     * Numeric, comparison and logical operators unbox their operands; {@code ==} and {@code !=} only
     * when the other operand is primitive; {@code +} not when it concatenates strings.
     */
    private boolean binaryUnboxes(TreePath binaryPath, BinaryTree binary, Tree child) {
        Tree.Kind kind = binary.getKind();
        if (kind == Tree.Kind.EQUAL_TO || kind == Tree.Kind.NOT_EQUAL_TO) {
            ExpressionTree other = binary.getLeftOperand() == child ? binary.getRightOperand() : binary.getLeftOperand();
            return primitive(type(new TreePath(binaryPath, other)));
        }
        if (kind == Tree.Kind.PLUS) {
            TypeMirror result = type(binaryPath);
            return result == null || result.getKind() != TypeKind.DECLARED; // String concatenation
        }
        return true;
    }

    /** Whether a switch has {@code case null}: null goes there, nothing is unboxed. */
    private static boolean handlesNull(List<? extends CaseTree> cases) {
        for (CaseTree item : cases) {
            for (CaseLabelTree label : item.getLabels()) {
                if (label instanceof ConstantCaseLabelTree constant
                        && constant.getConstantExpression().getKind() == Tree.Kind.NULL_LITERAL) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean argumentUnboxed(TreePath callPath, List<? extends ExpressionTree> arguments, Tree child) {
        if (!(trees.getElement(callPath) instanceof ExecutableElement method)) {
            return false;
        }
        int index = arguments.indexOf(child);
        List<? extends TypeMirror> parameters = method.asType() instanceof ExecutableType executable
                ? executable.getParameterTypes() : List.of();
        if (parameters.isEmpty()) {
            return false;
        }
        if (index >= parameters.size() - 1 && method.isVarArgs()) {
            TypeMirror last = parameters.get(parameters.size() - 1);
            TypeMirror argument = type(new TreePath(callPath, child));
            boolean asArray = arguments.size() == parameters.size() && argument != null
                    && argument.getKind() == TypeKind.ARRAY;
            return !asArray && last instanceof ArrayType array && primitive(array.getComponentType());
        }
        return index < parameters.size() && primitive(parameters.get(index));
    }

    /** The result type of the method or lambda a {@code return}/{@code yield}/expression body belongs to. */
    private TypeMirror resultType(TreePath from) {
        TreePath path = from;
        while (path != null) {
            Tree leaf = path.getLeaf();
            if (leaf instanceof SwitchExpressionTree && from.getLeaf() instanceof YieldTree) {
                return type(path);
            }
            if (leaf instanceof LambdaExpressionTree) {
                ExecutableElement function = contracts.functionalMethod(type(path));
                return function == null ? null : function.getReturnType();
            }
            if (leaf instanceof MethodTree) {
                Element method = trees.getElement(path);
                return method instanceof ExecutableElement executable ? executable.getReturnType() : null;
            }
            path = path.getParentPath();
        }
        return null;
    }

    private TypeMirror type(TreePath path) {
        return trees.getTypeMirror(path);
    }

    private static boolean primitive(TypeMirror type) {
        return type != null && type.getKind().isPrimitive();
    }
}
