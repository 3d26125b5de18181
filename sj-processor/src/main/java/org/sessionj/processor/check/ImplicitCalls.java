package org.sessionj.processor.check;

import com.sun.source.tree.DeconstructionPatternTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Where Java runs code of the program that the source does not show as a call: {@code toString()} of
 * an object in a string concatenation, {@code iterator()}/{@code hasNext()}/{@code next()} of an
 * enhanced for over an {@code Iterable}, the accessors a record pattern calls that the record declares
 * itself. (Also {@code close()} of try-with-resources, read elsewhere.) Such code may read a moved {@code @NoAlias} field
 * (SJ044), and may throw anything, a session failure included (a throw point for the catch blocks).
 */
final class ImplicitCalls {
    private final MethodChecker flow;

    ImplicitCalls(MethodChecker flow) {
        this.flow = flow;
    }

    /**
     * A string concatenation {@code at} (or {@code +=}) with {@code left} and {@code right} (null: none)
     * as operands calls their toString(): reported while a field is moved out.
     */
    void concatenation(Tree at, ExpressionTree left, ExpressionTree right) {
        boolean foreign = callsToString(left) || right != null && callsToString(right);
        if (flow.state != null && flow.linearity.collectingThrowPoints() && foreign) {
            flow.linearity.throwPoint(); // a toString() of the program's may throw anything
        }
        if (foreign) {
            flow.liveExits.implicitCall(at, "the toString() of an operand of the string concatenation");
            // adv21 B9: an unchecked exit of the program's toString() comes out here
            flow.liveExits.implicitCallee(at, flow.uncheckedExits.implicitCallees.toStringOf(
                    flow.trees.getTypeMirror(flow.pathOf(left))));
            if (right != null) {
                flow.liveExits.implicitCallee(at, flow.uncheckedExits.implicitCallees.toStringOf(
                        flow.trees.getTypeMirror(flow.pathOf(right))));
            }
        }
        if (flow.noAliasFields.fieldMoved() && (callsToString(left) || right != null && callsToString(right))) {
            flow.noAliasFields.beforeForeignCode(at, "before this string concatenation (which calls toString())");
        }
    }

    /** The detail of an assert (null: none) becomes its AssertionError's message through its toString(). */
    void assertDetail(ExpressionTree detail) {
        if (detail != null && flow.state != null && flow.linearity.collectingThrowPoints() && callsToString(detail)) {
            flow.linearity.throwPoint();
        }
        if (detail != null && callsToString(detail)) {
            flow.liveExits.implicitCall(detail, "the toString() of the assert's detail");
        }
        if (detail != null && flow.state != null && flow.noAliasFields.fieldMoved() && callsToString(detail)) {
            flow.noAliasFields.beforeForeignCode(detail, "before this assert's detail becomes the message of its "
                    + "AssertionError (which calls its toString())");
        }
    }

    /** Over an Iterable (not an array), the loop's calls of iterator()/hasNext()/next() are foreign code. */
    void iteration(EnhancedForLoopTree loop) {
        if (flow.state != null && flow.linearity.collectingThrowPoints() && overIterable(loop)) {
            flow.linearity.throwPoint(); // the Iterable's methods may throw anything
        }
        if (overIterable(loop) && ThrowSites.mayBeProgramObject(flow.trees.getTypeMirror(flow.pathOf(loop.getExpression())), flow)) {
            flow.liveExits.implicitCall(loop.getExpression(), "the iterator(), hasNext() or next() of the enhanced for's Iterable");
            // adv21 B9: an unchecked exit of the program's iterator(), hasNext() or next() comes out here
            for (ExecutableElement callee : flow.uncheckedExits.implicitCallees.iteration(
                    flow.trees.getTypeMirror(flow.pathOf(loop.getExpression())))) {
                flow.liveExits.implicitCallee(loop.getExpression(), callee);
            }
        }
        if (flow.state != null && flow.noAliasFields.fieldMoved() && overIterable(loop)) {
            flow.noAliasFields.beforeForeignCode(loop.getExpression(), "before the loop asks its Iterable for the next "
                    + "element (iterator(), hasNext() and next() may read it)");
        }
    }

    /**
     * A record pattern ({@code o instanceof Pt(int x, int y)}, {@code case Pt(var x, var y) ->}) at {@code path}
     * calls the record's accessors, with no call in the source (JLS 14.30.2: what one throws comes out wrapped in
     * a {@code MatchException}). An accessor the program's record declares itself may throw anything: a throw
     * point for the live plain local sessions, as a call of it by name is (adv20 A6: {@code int v = p.x();} was
     * SJ024, the record pattern that makes the same call compiled and the peer waited). The accessors javac
     * writes, and one written out as the same {@code return x;}, only read their field, and the JDK's records
     * run no code of the program.
     */
    void recordPattern(DeconstructionPatternTree pattern, TreePath path) {
        Element record = flow.trees.getElement(new TreePath(path, pattern.getDeconstructor()));
        if (!(record instanceof TypeElement type) || ThrowSites.inJdk(type, flow)) {
            return;
        }
        for (ExecutableElement accessor : flow.uncheckedExits.implicitCallees.accessors(type)) {
            flow.liveExits.implicitCallee(pattern, accessor); // adv21 B9: an unchecked exit of the accessor comes out here
        }
        for (RecordComponentElement component : type.getRecordComponents()) {
            ExecutableElement accessor = component.getAccessor();
            if (accessor == null || !onlyReadsField(accessor, type)) {
                flow.liveExits.implicitCall(pattern, "the accessor '" + component.getSimpleName() + "()' of '"
                        + type.getSimpleName() + "' that the record pattern calls");
                return;
            }
        }
    }

    /**
     * Whether {@code accessor} of {@code record} only reads its field: javac's own accessor (its tree, if any, has no
     * body yet — javac writes it later), or one written as {@code return x;} or {@code return this.x;}. One known
     * only from a class file (a record of a library) may do anything.
     */
    private boolean onlyReadsField(ExecutableElement accessor, TypeElement record) {
        Tree tree = flow.trees.getTree(accessor);
        if (tree == null) {
            return flow.trees.getTree(record) != null; // declared in this compilation, with no accessor written out
        }
        if (!(tree instanceof MethodTree method)) {
            return false;
        }
        if (method.getBody() == null) {
            return true; // javac's accessor (a record's accessor cannot be abstract)
        }
        if (method.getBody().getStatements().size() != 1
                || !(method.getBody().getStatements().get(0) instanceof ReturnTree returned)
                || returned.getExpression() == null) {
            return false;
        }
        ExpressionTree value = FlowScanner.strip(returned.getExpression());
        return value instanceof IdentifierTree
                || value instanceof MemberSelectTree select && select.getExpression() instanceof IdentifierTree self
                        && self.getName().contentEquals("this");
    }

    /**
     * A read or write of the static field {@code field} at {@code at} (not a constant, which javac puts in place) may be
     * the first use of its class, which runs the class's static initializer (JLS 12.4.1) — code of the program with no
     * call in the source: what it throws comes out as an {@code ExceptionInInitializerError} (a
     * {@code NoClassDefFoundError} at every later use). A throw point of an {@code Error} for the live plain local
     * sessions (adv20 A6, U07: {@code int v = Limits.MAX;} between two actions, {@code MAX = compute()} throwing, under a
     * caller's {@code catch (Throwable e)} that went on, compiled). Not for the class whose code is checked or its
     * superclasses (initialized before that code runs), the JDK's classes, a plain enum ({@link PlainEnums}) or a
     * class of this compilation whose static initializer calls nothing; a class known only from a class file may
     * run anything.
     */
    void staticField(Tree at, Element field) {
        if (flow.state == null || flow.reporter.silent() || field == null
                || field.getKind() != javax.lang.model.element.ElementKind.FIELD
                        && field.getKind() != javax.lang.model.element.ElementKind.ENUM_CONSTANT
                || !field.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)
                || ((javax.lang.model.element.VariableElement) field).getConstantValue() != null
                || !(field.getEnclosingElement() instanceof TypeElement owner) || ThrowSites.inJdk(owner, flow)
                || flow.getCurrentPath().getParentPath().getLeaf() instanceof com.sun.source.tree.ConstantCaseLabelTree) {
            return; // a case label names a constant of the value switched on, whose class is initialized
        }
        for (TreePath up = flow.getCurrentPath(); up != null; up = up.getParentPath()) {
            if (up.getLeaf() instanceof com.sun.source.tree.ClassTree
                    && flow.trees.getElement(up) instanceof TypeElement checked) {
                for (Element type = checked; type instanceof TypeElement current;
                        type = flow.types.asElement(current.getSuperclass())) {
                    if (current.equals(owner)) {
                        return;
                    }
                }
                break;
            }
        }
        if (PlainEnums.plain(owner, flow.trees) || !initializerCalls(owner)) {
            return;
        }
        flow.liveExits.initializer(at, "the static initializer of '" + owner.getSimpleName() + "' that the first use of '"
                + owner.getSimpleName() + "." + field.getSimpleName() + "' runs");
    }

    /**
     * Whether the static initializer of {@code owner} may run code: a class known only from a class file, an enum that
     * is not plain, or one with a static block or a static field initializer that calls a method or a constructor.
     */
    private boolean initializerCalls(TypeElement owner) {
        com.sun.source.tree.ClassTree tree = flow.trees.getTree(owner);
        if (tree == null) {
            return true;
        }
        if (owner.getKind() == javax.lang.model.element.ElementKind.ENUM) {
            return true; // not plain (tested first): its constants' constructors or bodies run code
        }
        for (Tree member : tree.getMembers()) {
            if (member instanceof com.sun.source.tree.BlockTree block && block.isStatic()) {
                return true;
            }
            if (member instanceof com.sun.source.tree.VariableTree variable && variable.getInitializer() != null
                    && variable.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.STATIC)
                    && calls(variable.getInitializer())) {
                return true;
            }
        }
        return false;
    }

    /** Whether evaluating {@code expression} calls a method or a constructor (not inside a lambda or class it creates). */
    private static boolean calls(Tree expression) {
        boolean[] found = {false};
        new com.sun.source.util.TreeScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(com.sun.source.tree.MethodInvocationTree call, Void unused) {
                found[0] = true;
                return null;
            }

            @Override
            public Void visitNewClass(com.sun.source.tree.NewClassTree creation, Void unused) {
                found[0] = true;
                return null;
            }

            @Override
            public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree lambda, Void unused) {
                return null; // runs later, when called
            }
        }.scan(expression, null);
        return found[0];
    }

    /** Whether {@code operand} of a string concatenation is an object whose toString() may be user code. */
    private boolean callsToString(ExpressionTree operand) {
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(operand));
        if (type == null) {
            return false;
        }
        return switch (type.getKind()) {
            case DECLARED -> !(((DeclaredType) type).asElement() instanceof TypeElement element)
                    || !JDK_TO_STRING.contains(element.getQualifiedName().toString());
            case TYPEVAR, INTERSECTION -> true;
            default -> false; // primitives, arrays (Object.toString) and null
        };
    }

    /** Final JDK classes whose toString() runs no code of the program. */
    private static final Set<String> JDK_TO_STRING = Set.of("java.lang.String", "java.lang.Integer",
            "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.lang.Character", "java.lang.Boolean",
            "java.lang.Float", "java.lang.Double", "java.lang.StringBuilder", "java.lang.StringBuffer",
            "java.lang.Class");

    /** Whether an enhanced for loop iterates an Iterable (whose methods are calls), not an array. */
    private boolean overIterable(EnhancedForLoopTree loop) {
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(loop.getExpression()));
        return type != null && type.getKind() != TypeKind.ARRAY;
    }
}
