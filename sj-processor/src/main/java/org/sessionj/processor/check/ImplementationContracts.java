package org.sessionj.processor.check;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import org.sessionj.types.SessionType;
import com.sun.source.util.Trees;

/**
 * The promises of code that implements a method without being declared as one: lambdas and method
 * references implementing a functional interface, and the constructor and accessors javac writes for
 * a record's components.
 *
 * <p>Invariant: <em>whatever code a call of a method may run keeps that method's promises</em> — its
 * {@code @Session} parameter types (SJ036: a lambda or method reference does exactly the lent part of
 * the session), its {@code @NoAlias} result (SJ040) and parameters (SJ045); and the members javac
 * writes for a record neither store a session (SJ031) nor hand out a {@code @NoAlias} field (SJ043).
 * Overrides declared in classes (anonymous ones too) are {@link OverrideRules}'.
 */
final class ImplementationContracts {
    private final Elements elements;
    private final Trees trees;
    private final SessionApi api;
    private final SessionParameters sessionParameters;

    ImplementationContracts(Elements elements, Trees trees, SessionApi api, SessionParameters sessionParameters) {
        this.elements = elements;
        this.trees = trees;
        this.api = api;
        this.sessionParameters = sessionParameters;
    }

    /**
     * The single abstract method of the functional interface {@code type} (a lambda's or method
     * reference's target), or null.
     */
    ExecutableElement functionalMethod(TypeMirror type) {
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)
                || element.getKind() != ElementKind.INTERFACE) {
            return null;
        }
        for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(element))) {
            if (method.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(method)) {
                return method;
            }
        }
        return null;
    }

    /** equals/hashCode/toString redeclared by an interface are not its functional method. */
    private static boolean isObjectMethod(ExecutableElement method) {
        String name = method.getSimpleName().toString();
        int parameters = method.getParameters().size();
        return parameters == 0 && (name.equals("hashCode") || name.equals("toString"))
                || parameters == 1 && name.equals("equals");
    }

    /**
     * A lambda parameter whose {@code @Session} type differs from the functional method's (an
     * unannotated one takes the method's type, {@link #sessionType}), or that is {@code @NoAlias} where
     * the functional method takes shared values.
     */
    void lambdaParameters(LambdaExpressionTree lambda, List<? extends VariableElement> parameters,
            ExecutableElement functional, Reporter reporter) {
        List<? extends VariableElement> theirs = functional.getParameters();
        for (int i = 0; i < parameters.size() && i < theirs.size(); i++) {
            VariableElement mine = parameters.get(i);
            // An annotated parameter claims a session type: the functional method must promise the same
            // one, also where it promises none (Consumer<SJService>: any service would get in, A11), as
            // for an override. The API's callbacks (a session thread's body) are SJ051's.
            if (sessionTyped(mine) && sessionParameters.of(mine, null, null).annotated()
                    && (lent(theirs.get(i)) || !OverrideRules.fromApi(functional))
                    && !OverrideRules.same(declared(mine), declared(theirs.get(i)))) {
                reporter.error(lambda.getParameters().get(i), Diagnostic.OVERRIDE_MISMATCH, mine.getSimpleName(),
                        "the lambda", OverrideRules.describe(declared(mine)), owner(functional),
                        OverrideRules.describe(declared(theirs.get(i))));
                return;
            }
        }
        for (int i = 0; i < parameters.size() && i < theirs.size(); i++) {
            if (NoAliasRules.isNoAlias(parameters.get(i)) && !NoAliasRules.isNoAlias(theirs.get(i))) {
                reporter.error(lambda.getParameters().get(i), Diagnostic.NOALIAS_OVERRIDE, "the lambda",
                        owner(functional), "its parameter '" + parameters.get(i).getSimpleName()
                                + "' is @NoAlias where " + functional.getSimpleName() + " takes shared values");
                return;
            }
        }
    }

    /**
     * A method reference implementing {@code functional}: if that promises a unique result, the method
     * referred to must too (or be a constructor); its parameters may not own what callers share.
     */
    void methodReference(TreePath path, Element referenced, ExecutableElement functional, Reporter reporter) {
        MemberReferenceTree tree = (MemberReferenceTree) path.getLeaf();
        if (!(referenced instanceof ExecutableElement method)) {
            return;
        }
        boolean constructor = method.getKind() == ElementKind.CONSTRUCTOR
                || tree.getMode() == MemberReferenceTree.ReferenceMode.NEW;
        if (NoAliasRules.isNoAlias(functional) && !constructor && !NoAliasRules.isNoAlias(method)
                && !newArray(path, method)) {
            reporter.error(tree, Diagnostic.NOT_UNIQUE, functional.getSimpleName() + "()'s result (the method "
                    + "reference implements " + owner(functional) + "." + functional.getSimpleName() + ")", tree);
            return;
        }
        List<? extends VariableElement> mine = method.getParameters();
        List<? extends VariableElement> theirs = functional.getParameters();
        int offset = theirs.size() - mine.size(); // an unbound receiver takes the first parameter
        if (offset < 0 || offset > 1 || method.isVarArgs()) {
            return;
        }
        if (offset == 1 && lent(theirs.get(0))) {
            reporter.error(tree, Diagnostic.ESCAPE, theirs.get(0).getSimpleName(), "into the receiver of the method "
                    + "reference " + tree + " (implementing " + owner(functional) + "." + functional.getSimpleName()
                    + "), where the checker cannot follow it");
            return;
        }
        for (int i = 0; i < mine.size(); i++) {
            VariableElement theirsAt = theirs.get(i + offset);
            // A service or server socket the method declares with a protocol must come with that protocol
            // from every caller of the functional method (A11); a socket through a parameter without a
            // @Session type is SJ010 (SessionChecker), the API's callbacks SJ051's.
            boolean claims = !OverrideRules.fromApi(functional) && endpoint(mine.get(i)) && declared(mine.get(i)) != null;
            if ((lent(theirsAt) || claims) && !OverrideRules.same(declared(mine.get(i)), declared(theirsAt))) {
                reporter.error(tree, Diagnostic.OVERRIDE_MISMATCH, mine.get(i).getSimpleName(), method.getSimpleName(),
                        OverrideRules.describe(declared(mine.get(i))), owner(functional),
                        OverrideRules.describe(declared(theirsAt)));
                return;
            }
        }
        for (int i = 0; i < mine.size(); i++) {
            if (NoAliasRules.isNoAlias(mine.get(i)) && !NoAliasRules.isNoAlias(theirs.get(i + offset))) {
                reporter.error(tree, Diagnostic.NOALIAS_OVERRIDE, "the method reference " + tree, owner(functional),
                        "the parameter '" + mine.get(i).getSimpleName() + "' of " + method.getSimpleName()
                                + " is @NoAlias where " + functional.getSimpleName() + " takes shared values");
                return;
            }
        }
    }

    /**
     * Whether the method a reference at {@code path} names returns a new array each call: an array's
     * {@code clone()} ({@code shared::clone}, {@code int[]::clone}) or one of the JDK methods {@link
     * NoAliasValues#returnsNewArray} lists ({@code String::toCharArray}), as the calls themselves are unique.
     */
    private boolean newArray(TreePath path, ExecutableElement method) {
        if (NoAliasValues.returnsNewArray(method)) {
            return true;
        }
        MemberReferenceTree tree = (MemberReferenceTree) path.getLeaf();
        return method.getSimpleName().contentEquals("clone") && method.getParameters().isEmpty()
                && trees.getTypeMirror(new TreePath(path, tree.getQualifierExpression())) instanceof TypeMirror type
                && type.getKind() == TypeKind.ARRAY;
    }

    /**
     * A record component declared {@code @NoAlias} whose accessor javac writes: the accessor would return
     * the field itself, a second reference to the value the record owns (SJ043, at the component).
     */
    void recordComponents(TypeElement record, ClassTree tree, Reporter reporter) {
        if (record.getKind() != ElementKind.RECORD) {
            return;
        }
        for (RecordComponentElement component : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
            // A lent session (a @Session component) would be stored by the constructor javac writes and
            // never checked; a component without one is SJ031 at every construction from a tracked socket.
            if (api.isSocket(component.asType()) && field(record, component) != null
                    && canonicalParameter(record, component) instanceof VariableElement parameter
                    && sessionParameters.of(parameter, null, null).annotated()) {
                reporter.error(declaration(tree, component.getSimpleName().toString()), Diagnostic.ESCAPE,
                        component.getSimpleName(), "into a field of record " + record.getSimpleName()
                                + " (its canonical constructor stores it); keep each session in a local variable "
                                + "or a @Session parameter");
            }
        }
        for (RecordComponentElement component : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
            ExecutableElement accessor = component.getAccessor();
            // javac writes no tree for an accessor it generates (and reports its origin as explicit).
            if (accessor == null || trees.getTree(accessor) != null
                    || !(NoAliasRules.isNoAlias(component) || NoAliasRules.isNoAlias(field(record, component)))) {
                continue;
            }
            String name = component.getSimpleName().toString();
            reporter.error(declaration(tree, name), Diagnostic.NOALIAS_FIELD_READ, name, name, name, name,
                    "the accessor javac writes for record component '" + name + "' would return the field itself; "
                            + "declare " + name + "() and return a copy (e.g. " + name + ".clone()) or read through it");
        }
    }

    /** The canonical constructor's parameter for {@code component} (it carries the component's annotations). */
    static VariableElement canonicalParameter(TypeElement record, RecordComponentElement component) {
        return canonicalParameter(record, component, null);
    }

    /**
     * As {@link #canonicalParameter(TypeElement, RecordComponentElement)}; with {@code types}, a constructor
     * whose parameter types are the components' also matches (a class file need not keep parameter names).
     */
    static VariableElement canonicalParameter(TypeElement record, RecordComponentElement component,
            javax.lang.model.util.Types types) {
        List<? extends RecordComponentElement> components = ElementFilter.recordComponentsIn(
                record.getEnclosedElements());
        int index = components.indexOf(component);
        for (ExecutableElement constructor : ElementFilter.constructorsIn(record.getEnclosedElements())) {
            List<? extends VariableElement> parameters = constructor.getParameters();
            if (parameters.size() == components.size() && index >= 0) {
                boolean canonical = true;
                for (int i = 0; i < parameters.size(); i++) {
                    canonical &= parameters.get(i).getSimpleName().equals(components.get(i).getSimpleName());
                }
                boolean sameTypes = types != null;
                for (int i = 0; sameTypes && i < parameters.size(); i++) {
                    sameTypes = types.isSameType(types.erasure(parameters.get(i).asType()),
                            types.erasure(components.get(i).asType()));
                }
                if (canonical || sameTypes) {
                    return parameters.get(index);
                }
            }
        }
        return null;
    }

    private static VariableElement field(TypeElement record, RecordComponentElement component) {
        for (VariableElement field : ElementFilter.fieldsIn(record.getEnclosedElements())) {
            if (field.getSimpleName().equals(component.getSimpleName())) {
                return field;
            }
        }
        return null;
    }

    private static Tree declaration(ClassTree tree, String name) {
        for (Tree member : tree.getMembers()) {
            if (member instanceof VariableTree variable && variable.getName().contentEquals(name)) {
                return variable;
            }
        }
        return tree;
    }

    /**
     * The {@code @Session} type an unannotated lambda parameter takes from the functional method's
     * parameter at the same position, or null.
     */
    SessionParameters.SessionParameter sessionType(int position, ExecutableElement functional) {
        if (functional == null || position >= functional.getParameters().size()) {
            return null;
        }
        SessionParameters.SessionParameter theirs = sessionParameters.of(functional.getParameters().get(position),
                null, null);
        return theirs.annotated() ? theirs : null;
    }

    /**
     * Whether callers lend a session (or a typed service) to this parameter of a functional method: it
     * has a {@code @Session} type. Checked code cannot give a tracked socket to any other parameter
     * (SJ031), so what implements it is not bound by a type (SJ.spawn's bodies are checked there).
     */
    private boolean lent(VariableElement parameter) {
        return sessionTyped(parameter) && sessionParameters.of(parameter, null, null).annotated();
    }

    private boolean endpoint(VariableElement parameter) {
        return api.isService(parameter.asType()) || api.isServerSocket(parameter.asType());
    }

    private boolean sessionTyped(VariableElement parameter) {
        TypeMirror type = parameter.asType();
        return api.isSocket(type) || api.isService(type) || api.isServerSocket(type);
    }

    private SessionType declared(VariableElement parameter) {
        return sessionParameters.of(parameter, null, null).declared();
    }

    private static String owner(ExecutableElement method) {
        return method.getEnclosingElement().getSimpleName().toString();
    }
}
