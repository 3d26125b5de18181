package org.sessionj.processor.check;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import org.sessionj.processor.check.FlowScanner.Kind;
import org.sessionj.processor.check.FlowScanner.VarInfo;
import org.sessionj.processor.internal.flow.VarState;

/**
 * The window in which a tracked {@code @NoAlias} field of this object is moved out: no code that may
 * read this object's fields (a call, a constructor, a lambda, a class initializer, a serialisation of
 * a value that may be this object) may run until it is refilled, and the method may not leave it empty
 * (SJ044). See {@code docs/noalias.md}.
 */
final class NoAliasFieldWindow {
    private final MethodChecker flow;

    NoAliasFieldWindow(MethodChecker flow) {
        this.flow = flow;
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
}
