package org.sessionj.processor.check;

import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Elements;

/**
 * Whether a class whose source never names the session API can still reach it. A compilation unit
 * need not name {@code org.sessionj.api} to hold a session: {@code var s = Services.one().request()},
 * an implicitly typed lambda given to a method whose parameter is a {@code @Session} handler, a
 * {@code @NoAlias} field of another class read through {@code other.field}, or a service made by
 * {@code org.sessionj.runtime.SJRuntime} all reach it with no API name in the file. So the cheap test on
 * names only ever decides that a unit is checked; to skip one, this scan over its attributed tree must
 * find no element of the API's packages and no element whose type or annotations come from them.
 *
 * <p>Invariant: if any expression in the class has a type of the session API, or any element it refers
 * to carries a session annotation ({@code @Session}, {@code @NoAlias}), the scan says so. It looks at
 * every reference (identifiers, member selects, calls, constructor calls, method references) and every
 * variable declared (locals, {@code var}, lambda and catch parameters), which is where such a type or
 * annotation must first appear.
 */
final class SessionApiReach extends TreePathScanner<Void, Void> {
    /** Type arguments and bounds nest; a bound that refers to itself must not recurse for ever. */
    private static final int MAX_TYPE_DEPTH = 8;

    private final Trees trees;
    private final SessionApi api;
    private final PackageElement[] apiPackages;
    private boolean found;

    private SessionApiReach(Trees trees, Elements elements, SessionApi api) {
        this.trees = trees;
        this.api = api;
        this.apiPackages = new PackageElement[] {elements.getPackageElement("org.sessionj.api"),
            elements.getPackageElement("org.sessionj.runtime")};
    }

    /** Whether the class at {@code classPath} refers to anything of the session API. */
    static boolean reaches(Trees trees, Elements elements, SessionApi api, TreePath classPath) {
        SessionApiReach scan = new SessionApiReach(trees, elements, api);
        scan.scan(classPath, null);
        return scan.found;
    }

    @Override
    public Void scan(Tree tree, Void unused) {
        return found ? null : super.scan(tree, unused);
    }

    @Override
    public Void visitIdentifier(IdentifierTree tree, Void unused) {
        look();
        return null;
    }

    @Override
    public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        look();
        return super.visitMemberSelect(tree, unused);
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
        look();
        return super.visitMethodInvocation(tree, unused);
    }

    @Override
    public Void visitNewClass(NewClassTree tree, Void unused) {
        look();
        return super.visitNewClass(tree, unused);
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
        look();
        return super.visitMemberReference(tree, unused);
    }

    @Override
    public Void visitVariable(VariableTree tree, Void unused) {
        look();
        return super.visitVariable(tree, unused);
    }

    private void look() {
        Element element = trees.getElement(getCurrentPath());
        if (element != null && refersToApi(element)) {
            found = true;
        }
    }

    private boolean refersToApi(Element element) {
        if (inApi(element) || annotatedFromApi(element) || mentionsApi(element.asType(), 0)) {
            return true;
        }
        if (element instanceof ExecutableElement method) {
            if (mentionsApi(method.getReturnType(), 0)) {
                return true;
            }
            for (VariableElement parameter : method.getParameters()) {
                if (annotatedFromApi(parameter) || mentionsApi(parameter.asType(), 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean inApi(Element element) {
        Element at = element;
        while (at != null && !(at instanceof PackageElement)) {
            at = at.getEnclosingElement();
        }
        for (PackageElement apiPackage : apiPackages) {
            if (apiPackage != null && apiPackage.equals(at)) {
                return true;
            }
        }
        return false;
    }

    private boolean annotatedFromApi(Element element) {
        for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
            if (inApi(annotation.getAnnotationType().asElement())) {
                return true;
            }
        }
        return false;
    }

    private boolean mentionsApi(TypeMirror type, int depth) {
        if (type == null || depth > MAX_TYPE_DEPTH) {
            return false;
        }
        if (type instanceof DeclaredType declared) {
            if (inApi(declared.asElement()) || api.isSocket(type)) {
                return true;
            }
            for (TypeMirror argument : declared.getTypeArguments()) {
                if (mentionsApi(argument, depth + 1)) {
                    return true;
                }
            }
            return false;
        }
        if (type instanceof ArrayType array) {
            return mentionsApi(array.getComponentType(), depth + 1);
        }
        if (type instanceof TypeVariable variable) {
            return mentionsApi(variable.getUpperBound(), depth + 1);
        }
        if (type instanceof WildcardType wildcard) {
            return mentionsApi(wildcard.getExtendsBound(), depth + 1) || mentionsApi(wildcard.getSuperBound(), depth + 1);
        }
        if (type instanceof IntersectionType intersection) {
            for (TypeMirror bound : intersection.getBounds()) {
                if (mentionsApi(bound, depth + 1)) {
                    return true;
                }
            }
        }
        return false;
    }
}
