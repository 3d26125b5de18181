package org.sessionj.processor.check;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.EmptyStatementTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Where code in a try block may throw, and what: the predicates behind the throw points that
 * {@link LinearityRules} records for the catch blocks (docs/diagnostics.md, "Exceptions and sessions").
 *
 * <p>Invariants: a statement that evaluates nothing ({@code break}, {@code continue}, {@code return;},
 * an empty statement, a block or label around others) cannot throw; a full expression whose last step
 * is a call (its value discarded or stored in a local without unboxing) throws nothing after that call
 * returns; an {@code SJIOException} (a session failure) is thrown only by code of the session API or of
 * the program, never by the JVM's own checks nor by JDK code that is given nothing of the program.
 */
final class ThrowSites {
    private ThrowSites() {
    }

    /** Whether executing {@code statement} itself evaluates anything (else it cannot throw). */
    static boolean evaluates(StatementTree statement) {
        return !(statement instanceof BreakTree || statement instanceof ContinueTree
                || statement instanceof EmptyStatementTree || statement instanceof BlockTree
                || statement instanceof LabeledStatementTree || statement instanceof ClassTree
                || statement instanceof ReturnTree ret && ret.getExpression() == null
                || statement instanceof VariableTree variable && variable.getInitializer() == null);
    }

    /**
     * Whether nothing can throw in the full expression {@code expression} (whose parent is
     * {@code parent}) after its outermost call returns: the expression is that call, or stores its
     * result in a local variable, and the value is not unboxed on the way. Then the state after it is
     * seen by a catch only through later code, which records its own throw points.
     */
    static boolean endsWithItsLastCall(ExpressionTree expression, Tree parent, MethodChecker flow) {
        ExpressionTree stripped = FlowScanner.strip(expression);
        if (stripped instanceof AssignmentTree assignment && parent instanceof ExpressionStatementTree) {
            ExpressionTree target = FlowScanner.strip(assignment.getVariable());
            Element var = target instanceof IdentifierTree ? flow.elementOf(target) : null;
            if (var == null || !(var.getKind() == ElementKind.LOCAL_VARIABLE || var.getKind() == ElementKind.PARAMETER
                    || var.getKind() == ElementKind.RESOURCE_VARIABLE || var.getKind() == ElementKind.EXCEPTION_PARAMETER
                    || var.getKind() == ElementKind.BINDING_VARIABLE)) {
                return false;
            }
            ExpressionTree value = FlowScanner.strip(assignment.getExpression());
            return isCall(value) && !unboxes(value, var.asType(), flow);
        }
        if (!isCall(stripped)) {
            return false;
        }
        if (parent instanceof ExpressionStatementTree) {
            return true; // the value is dropped
        }
        if (parent instanceof VariableTree variable && flow.trees.getElement(flow.pathOf(variable)) instanceof Element var) {
            return !unboxes(stripped, var.asType(), flow);
        }
        return false;
    }

    private static boolean isCall(ExpressionTree tree) {
        return tree instanceof MethodInvocationTree || tree instanceof NewClassTree;
    }

    /** Whether storing {@code value} into a variable of type {@code target} unboxes it (which may throw). */
    private static boolean unboxes(ExpressionTree value, TypeMirror target, MethodChecker flow) {
        if (target == null || !target.getKind().isPrimitive()) {
            return false;
        }
        TypeMirror type = flow.trees.getTypeMirror(flow.pathOf(value));
        return type == null || !type.getKind().isPrimitive();
    }

    /**
     * Whether a call of {@code callee} at {@code call} may throw an {@code SJIOException}: unless it is
     * a method or constructor of the JDK ({@code java.*}, the JDK modules' {@code javax.*}) whose receiver and arguments
     * all have {@link #closed} types, so that no code of the program (nor of the session API) can run in it.
     */
    static boolean mayFailASession(Tree call, Element callee, MethodChecker flow) {
        if (!(callee instanceof ExecutableElement method) || !inJdk(method, flow)) {
            return true;
        }
        java.util.List<? extends ExpressionTree> arguments;
        if (call instanceof MethodInvocationTree invocation) {
            arguments = invocation.getArguments();
            if (!method.getModifiers().contains(Modifier.STATIC)) {
                if (!(invocation.getMethodSelect() instanceof MemberSelectTree select)) {
                    return true; // an inherited JDK method called on this object: this object's class is the program's
                }
                if (!closed(flow.trees.getTypeMirror(flow.pathOf(select.getExpression())), flow)) {
                    return true;
                }
            }
        } else if (call instanceof NewClassTree construction) {
            if (construction.getClassBody() != null || construction.getEnclosingExpression() != null) {
                return true;
            }
            arguments = construction.getArguments();
        } else {
            return true;
        }
        for (ExpressionTree argument : arguments) {
            if (!closed(flow.trees.getTypeMirror(flow.pathOf(argument)), flow)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether code of the program (or a library) may run in a call of {@code callee} at {@code call}, so that
     * it may throw any unchecked exception (SJ024's "swallow and go on" rule, adv16 A6): a method or
     * constructor outside the JDK, or one of the JDK called on or given a value that may be an object of the
     * program's ({@link #mayBeProgramObject}: {@code supplier.getAsInt()}, {@code o.toString()} on an
     * {@code Object}, a lambda given to {@code list.sort}), or an inherited JDK method called on this object,
     * or a constructor with a class body. {@code System.out.println("text")} runs none: a {@code PrintStream}
     * is the JDK's own class (a subclass of the program's is not counted, as the JDK's undeclared failures are not).
     */
    static boolean runsProgramCode(Tree call, Element callee, MethodChecker flow) {
        if (!(callee instanceof ExecutableElement method) || !inJdk(method, flow)) {
            return true;
        }
        java.util.List<? extends ExpressionTree> arguments;
        if (call instanceof MethodInvocationTree invocation) {
            arguments = invocation.getArguments();
            if (!method.getModifiers().contains(Modifier.STATIC)) {
                if (!(invocation.getMethodSelect() instanceof MemberSelectTree select)) {
                    return true; // an inherited JDK method called on this object, whose class is the program's
                }
                if (mayBeProgramObject(flow.trees.getTypeMirror(flow.pathOf(select.getExpression())), flow)) {
                    return true;
                }
            }
        } else if (call instanceof NewClassTree construction) {
            if (construction.getClassBody() != null) {
                return true;
            }
            arguments = construction.getArguments();
        } else {
            return true;
        }
        for (ExpressionTree argument : arguments) {
            if (mayBeProgramObject(flow.trees.getTypeMirror(flow.pathOf(argument)), flow)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a value of static type {@code type} may be an object of the program's (or a library's) classes,
     * whose methods the JDK may call: its class is not the JDK's, or it is an interface, an abstract class,
     * {@code Object}, a type variable (an array: its elements). A concrete class of the JDK
     * ({@code String}, {@code ArrayList}, {@code PrintStream}) counts as the JDK's own, though a subclass
     * of the program's could stand for a non-final one.
     */
    static boolean mayBeProgramObject(TypeMirror type, MethodChecker flow) {
        if (type == null) {
            return true;
        }
        if (type.getKind().isPrimitive() || type.getKind() == TypeKind.NULL || type.getKind() == TypeKind.VOID) {
            return false;
        }
        if (type instanceof ArrayType array) {
            return mayBeProgramObject(array.getComponentType(), flow);
        }
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)) {
            return true; // a type variable, an intersection, a wildcard
        }
        return !inJdk(element, flow) || element.getKind().isInterface() || element.getModifiers().contains(Modifier.ABSTRACT)
                || element.getQualifiedName().contentEquals("java.lang.Object");
    }

    /**
     * Whether {@code element} is the JDK's: in a {@code java.*} package (only the JDK may define one), or
     * in a {@code javax.*} package of one of the JDK's own modules ({@code java.*}, {@code jdk.*}).
     * {@code javax.*} is no reserved namespace (adv12 A1): javax.inject, javax.servlet, a program's own
     * {@code javax.app} live on the class path (the unnamed module) and run code of their own.
     */
    static boolean inJdk(Element element, MethodChecker flow) {
        PackageElement pkg = flow.elements.getPackageOf(element);
        String name = pkg == null ? "" : pkg.getQualifiedName().toString();
        if (name.startsWith("java.")) {
            return true;
        }
        if (!name.startsWith("javax.")) {
            return false;
        }
        javax.lang.model.element.ModuleElement module = flow.elements.getModuleOf(element);
        String moduleName = module == null || module.isUnnamed() ? "" : module.getQualifiedName().toString();
        return moduleName.startsWith("java.") || moduleName.startsWith("jdk.");
    }

    /**
     * Whether every value of {@code type} is free of code of the program: a primitive, null, a final
     * JDK class whose type arguments are closed too ({@code String}, the boxes, {@code Duration}), or
     * an array of such.
     */
    static boolean closed(TypeMirror type, MethodChecker flow) {
        if (type == null) {
            return false;
        }
        if (type.getKind().isPrimitive() || type.getKind() == TypeKind.NULL) {
            return true;
        }
        if (type instanceof ArrayType array) {
            return closed(array.getComponentType(), flow);
        }
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)
                || !element.getModifiers().contains(Modifier.FINAL) || !inJdk(element, flow)) {
            return false;
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
            if (!closed(argument, flow)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The exceptions the JVM throws by its own checks, without a {@code throw} of any code: a null
     * dereference, a cast, an array's index, store or size, a monitor not held,
     * an index (its supertype, which {@code List.get} also throws), the failures of the machine itself and of
     * class loading and linking. They are the program's bugs (or the machine's), which SJ024 does not
     * count where no code of the program runs. Not {@code ArithmeticException} (adv20 A8): the JVM throws it for
     * an integer division by zero, but the JDK's {@code Math.toIntExact}, {@code addExact}, {@code BigDecimal.divide}
     * document it as their failure, and a catch that names it expects one of those (a division is no call: it is a
     * throw point of its own, {@link JvmChecks}, adv21 B8).
     */
    private static final java.util.List<String> JVM_CHECKS = java.util.List.of("java.lang.NullPointerException",
            "java.lang.ClassCastException", "java.lang.IndexOutOfBoundsException", "java.lang.ArrayStoreException",
            "java.lang.NegativeArraySizeException", "java.lang.IllegalMonitorStateException",
            "java.lang.VirtualMachineError", "java.lang.LinkageError");

    /**
     * The subtypes of {@link #JVM_CHECKS} the JVM throws itself: an array's index, and every failure of the machine and
     * of linking. Other subtypes are thrown by library code only ({@code StringIndexOutOfBoundsException} by
     * {@code String}'s methods): a catch of one names a particular failure of a call (adv19 A13).
     */
    private static final java.util.List<String> JVM_THROWN_SUBTYPES = java.util.List.of(
            "java.lang.ArrayIndexOutOfBoundsException", "java.lang.VirtualMachineError", "java.lang.LinkageError");

    /**
     * Whether a catch of {@code caught} may take one of the exceptions the JVM throws by its own checks
     * ({@link #JVM_CHECKS}): it is one of them, a supertype ({@code RuntimeException}, {@code Error},
     * {@code Exception}, {@code Throwable}), or a subtype the JVM throws itself ({@link #JVM_THROWN_SUBTYPES}:
     * {@code ArrayIndexOutOfBoundsException}, {@code OutOfMemoryError}, {@code NoClassDefFoundError}…).
     */
    static boolean jvmCheck(TypeMirror caught, MethodChecker flow) {
        TypeMirror erased = flow.types.erasure(caught);
        for (String name : JVM_CHECKS) {
            TypeElement check = flow.elements.getTypeElement(name);
            if (check != null && flow.types.isSubtype(check.asType(), erased)) {
                return true;
            }
        }
        for (String name : JVM_THROWN_SUBTYPES) {
            TypeElement thrown = flow.elements.getTypeElement(name);
            if (thrown != null && flow.types.isSubtype(erased, thrown.asType())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a value of static type {@code thrown} may be an {@code SJIOException} (it is one, or a supertype). */
    static boolean mayBeASessionFailure(TypeMirror thrown, MethodChecker flow) {
        TypeElement failure = flow.elements.getTypeElement("org.sessionj.api.SJIOException");
        if (thrown == null || failure == null || thrown.getKind() != TypeKind.DECLARED) {
            return true;
        }
        return flow.types.isSubtype(thrown, failure.asType()) || flow.types.isSubtype(failure.asType(), thrown);
    }

    /**
     * Whether every exception type in {@code thrown} is taken by one of {@code catches} (a type that is not a
     * declared class, or null, is not known to be taken).
     */
    static boolean caughtBy(java.util.List<javax.lang.model.type.TypeMirror> thrown,
            java.util.List<javax.lang.model.type.TypeMirror> catches, javax.lang.model.util.Types types) {
        for (javax.lang.model.type.TypeMirror type : thrown) {
            if (type == null || type.getKind() != javax.lang.model.type.TypeKind.DECLARED) {
                return false;
            }
            boolean taken = false;
            for (javax.lang.model.type.TypeMirror handler : catches) {
                taken |= types.isSubtype(types.erasure(type), types.erasure(handler));
            }
            if (!taken) {
                return false;
            }
        }
        return true;
    }
}
