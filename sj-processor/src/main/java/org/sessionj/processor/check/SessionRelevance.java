package org.sessionj.processor.check;

import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.AnnotatedConstruct;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.UnionType;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;

/**
 * The pre-scan: whether a body (method, initializer, field initializer, lambda) can touch a session at
 * all, decided before a {@link MethodChecker} with its twenty rule objects is built for it; asked of a
 * whole class, whether a class whose file never names {@code org.sessionj.api} can still reach the
 * API ({@code var s = Services.one().request()}, a lambda given to a {@code @Session} handler, another
 * class's {@code @NoAlias} field), so that such a file is checked. Most bodies
 * of a real program never touch a session, and the processor runs mostly interpreted (javac loads it
 * afresh for every compilation), so the full flow analysis of such a body is pure cost.
 *
 * <p>Invariant (it over-approximates): a body is skipped only if <em>no</em> node of it, nested lambdas,
 * local and anonymous classes included,
 * <ul>
 *   <li>has a static type that mentions a type of {@code org.sessionj.api} or {@code org.sessionj.runtime} (a socket, a
 *       service, a selector, a {@code @Protocol} interface, {@code List<SJSocket>}, a type variable
 *       bounded by one, a class whose supertypes or type parameters mention one), or carries a type
 *       annotation from a package under {@code org.sessionj} ({@code @NoAlias} as a type use);</li>
 *   <li>names an element (variable, field, method, constructor, type) that is annotated from under
 *       {@code org.sessionj} ({@code @NoAlias}, {@code @Session}, {@code @Protocol}), belongs to an API type
 *       ({@code SJ.outwhile}, {@code s.send}), or whose declared type, parameters or result mention one
 *       as above;</li>
 *   <li>is a lambda or method reference whose functional method does;</li>
 *   <li>is a method that may override one that does (an override of a {@code @NoAlias} result must keep
 *       the promise, SJ045, though nothing in it names the API);</li>
 *   <li>is a class that inherits a method that does from a proper supertype (an implementation it
 *       inherits from another supertype must keep that method's contract, SJ036/SJ045);</li>
 * </ul>
 * and, for a method, the method itself passes the same test and its class has no {@code @NoAlias}
 * field (which every method of the class may move and must refill). Every rule of the checker is
 * triggered by one of these (a socket, service or selector expression, a {@code @NoAlias} or
 * {@code @Session} element, a session API call), so a skipped body has nothing to report. When in
 * doubt (an erroneous type, a type variable nested absurdly deep) the answer is "check it".
 */
final class SessionRelevance {
    /** Annotations from here count ({@code @NoAlias}, {@code @Session}, {@code @Protocol}). */
    private static final String SESSIONJ = "org.sessionj.";
    /**
     * Types from here count, and any type that reaches one: the checker's triggers are all API types,
     * and the runtime's ({@code SJRuntime}) make services.
     */
    private static final String SESSIONJ_API = "org.sessionj.api.";
    private static final String SESSIONJ_RUNTIME = "org.sessionj.runtime.";
    /** Type variables whose bounds nest deeper than this are taken as relevant rather than followed. */
    private static final int MAX_TYPE_DEPTH = 12;

    private final Trees trees;
    private final ImplementationContracts contracts;
    /** Per type element: whether it, or any type reachable from its supertypes and bounds, is from org.sessionj. */
    private final Map<Element, Boolean> types = new IdentityHashMap<>();
    /** Per named element (variable, method, constructor). */
    private final Map<Element, Boolean> elements = new IdentityHashMap<>();
    /** Per functional interface: whether its functional method is relevant. */
    private final Map<Element, Boolean> functional = new IdentityHashMap<>();
    /** Per class: the relevant methods of its proper supertypes, as name/number of parameters. */
    private final Map<Element, Set<String>> inheritedRelevant = new IdentityHashMap<>();
    /** Per class: whether it declares a {@code @NoAlias} field. */
    private final Map<Element, Boolean> noAliasFields = new IdentityHashMap<>();
    private final Finder finder = new Finder();

    SessionRelevance(Trees trees, ImplementationContracts contracts) {
        this.trees = trees;
        this.contracts = contracts;
    }

    /** Whether the body at {@code unit} may touch a session; false only when it certainly does not. */
    boolean mayTouchSessions(TreePath unit) {
        Tree leaf = unit.getLeaf();
        if (leaf.getKind() == Tree.Kind.METHOD || leaf.getKind() == Tree.Kind.VARIABLE) {
            Element element = trees.getElement(unit);
            if (element == null || relevantElement(element)) {
                return true;
            }
            if (element instanceof ExecutableElement method && hasNoAliasField(method.getEnclosingElement())) {
                return true;
            }
        }
        return finder.find(unit);
    }

    /** Walks a body's nodes until one is relevant. A plain tree scanner: no path is kept, javac's own. */
    private final class Finder extends TreeScanner<Void, Void> {
        private TreePath unit;
        private boolean found;

        boolean find(TreePath at) {
            unit = at;
            found = false;
            scan(at.getLeaf(), null);
            unit = null;
            return found;
        }

        @Override
        public Void scan(Tree tree, Void unused) {
            if (tree == null || found) {
                return null;
            }
            if (relevantNode(tree)) {
                found = true;
                return null;
            }
            return tree.accept(this, unused);
        }

        /**
         * The node's own type and element. javac reads both off the node itself (the path's parent is
         * only consulted for classes not yet attributed, and every class is attributed at ANALYZE), so
         * the node is placed directly under the unit rather than building its real path.
         */
        private boolean relevantNode(Tree tree) {
            TreePath at = new TreePath(unit, tree);
            TypeMirror type = trees.getTypeMirror(at);
            if (type != null && mentions(type, 0)) {
                return true;
            }
            switch (tree.getKind()) {
                case IDENTIFIER, MEMBER_SELECT, NEW_CLASS, VARIABLE -> {
                    Element element = trees.getElement(at);
                    return element != null && relevantElement(element);
                }
                case CLASS -> {
                    Element element = trees.getElement(at);
                    return element != null && (relevantElement(element) || inheritsRelevant(element));
                }
                case METHOD -> {
                    Element element = trees.getElement(at);
                    return element != null && (relevantElement(element) || overridesRelevant(element));
                }
                case MEMBER_REFERENCE -> {
                    Element element = trees.getElement(at);
                    return element != null && relevantElement(element) || relevantFunctional(type);
                }
                case LAMBDA_EXPRESSION -> {
                    return relevantFunctional(type);
                }
                default -> {
                    return false;
                }
            }
        }
    }

    /**
     * Whether {@code element}, a method, may override a relevant one ({@code int[] make()} overriding
     * {@code @NoAlias int[] make()}: the override must keep the promise, SJ045, though nothing in it names
     * the API). Over-approximates: any method of a proper supertype with the same name and number of
     * parameters that is relevant counts, overriding or not.
     */
    private boolean overridesRelevant(Element element) {
        if (!(element instanceof ExecutableElement method) || method.getKind() != ElementKind.METHOD
                || method.getModifiers().contains(Modifier.STATIC) || method.getModifiers().contains(Modifier.PRIVATE)
                || !(method.getEnclosingElement() instanceof TypeElement owner)) {
            return false;
        }
        Set<String> names = inheritedRelevant(owner);
        return names == null || names.contains(method.getSimpleName() + "/" + method.getParameters().size());
    }

    /**
     * Whether a class inherits a relevant method from a proper supertype: an implementation it inherits
     * from one supertype may implement that method of another ({@code class Impl extends Lib implements
     * Api {}}, {@link OverrideRules#checkInherited}), though the class names nothing of the API.
     */
    private boolean inheritsRelevant(Element element) {
        if (!(element instanceof TypeElement type)) {
            return false;
        }
        Set<String> names = inheritedRelevant(type);
        return names == null || !names.isEmpty();
    }

    /**
     * The relevant methods of the proper supertypes of {@code owner}, as name/number of parameters; null
     * when a supertype is not understood (then everything counts).
     */
    private Set<String> inheritedRelevant(TypeElement owner) {
        if (inheritedRelevant.containsKey(owner)) {
            return inheritedRelevant.get(owner);
        }
        Set<String> names = new java.util.HashSet<>();
        Set<Element> visited = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<TypeMirror> pending = new ArrayDeque<>();
        pending.push(owner.getSuperclass());
        pending.addAll(owner.getInterfaces());
        while (!pending.isEmpty()) {
            TypeMirror next = pending.pop();
            if (next.getKind() == javax.lang.model.type.TypeKind.ERROR) {
                names = null; // not understood: every method of the class counts
                break;
            }
            if (!(next instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement type)
                    || !visited.add(type)) {
                continue;
            }
            for (ExecutableElement inherited : ElementFilter.methodsIn(type.getEnclosedElements())) {
                if (relevantElement(inherited)) {
                    names.add(inherited.getSimpleName() + "/" + inherited.getParameters().size());
                }
            }
            pending.push(type.getSuperclass());
            pending.addAll(type.getInterfaces());
        }
        inheritedRelevant.put(owner, names);
        return names;
    }

    /** Whether a variable, field, method, constructor or type is relevant (see the class comment). */
    boolean relevantElement(Element element) {
        Boolean known = elements.get(element);
        if (known == null) {
            known = computeElement(element);
            elements.put(element, known);
        }
        return known;
    }

    private boolean computeElement(Element element) {
        if (annotatedFromSessionj(element)) {
            return true;
        }
        if (element instanceof TypeElement type) {
            return relevantType(type);
        }
        if (element instanceof ExecutableElement method) {
            if (method.getEnclosingElement() instanceof TypeElement owner && fromSessionj(owner)) {
                return true;
            }
            if (mentions(method.getReturnType(), 0)) {
                return true;
            }
            for (VariableElement parameter : method.getParameters()) {
                if (annotatedFromSessionj(parameter) || mentions(parameter.asType(), 0)) {
                    return true;
                }
            }
            for (TypeParameterElement parameter : method.getTypeParameters()) {
                for (TypeMirror bound : parameter.getBounds()) {
                    if (mentions(bound, 0)) {
                        return true;
                    }
                }
            }
            return false;
        }
        if (element instanceof VariableElement variable) {
            return mentions(variable.asType(), 0);
        }
        return false; // packages, modules
    }

    /** Whether a static type mentions anything from org.sessionj (see the class comment). */
    private boolean mentions(TypeMirror type, int depth) {
        if (depth > MAX_TYPE_DEPTH || annotatedFromSessionj(type)) {
            return true;
        }
        switch (type.getKind()) {
            case DECLARED -> {
                DeclaredType declared = (DeclaredType) type;
                if (declared.asElement() instanceof TypeElement element && relevantType(element)) {
                    return true;
                }
                for (TypeMirror argument : declared.getTypeArguments()) {
                    if (mentions(argument, depth + 1)) {
                        return true;
                    }
                }
                TypeMirror enclosing = declared.getEnclosingType();
                return enclosing.getKind() == javax.lang.model.type.TypeKind.DECLARED && mentions(enclosing, depth + 1);
            }
            case ARRAY -> {
                return mentions(((ArrayType) type).getComponentType(), depth + 1);
            }
            case TYPEVAR -> {
                TypeVariable variable = (TypeVariable) type;
                return mentions(variable.getUpperBound(), depth + 1) || mentions(variable.getLowerBound(), depth + 1);
            }
            case WILDCARD -> {
                WildcardType wildcard = (WildcardType) type;
                return wildcard.getExtendsBound() != null && mentions(wildcard.getExtendsBound(), depth + 1)
                        || wildcard.getSuperBound() != null && mentions(wildcard.getSuperBound(), depth + 1);
            }
            case INTERSECTION -> {
                return anyMentions(((IntersectionType) type).getBounds(), depth);
            }
            case UNION -> {
                return anyMentions(((UnionType) type).getAlternatives(), depth);
            }
            case ERROR, OTHER -> {
                return true; // not understood: check the body
            }
            default -> {
                return false; // primitives, void, null, packages, methods' own types, none
            }
        }
    }

    private boolean anyMentions(List<? extends TypeMirror> types, int depth) {
        for (TypeMirror type : types) {
            if (mentions(type, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a class is from org.sessionj or reaches one through its supertypes, their type arguments
     * and its type parameters' bounds ({@code class Box implements Supplier<SJSocket>}: {@code box.get()}
     * is a socket). A reachability search with its own visited set, so that cycles through type
     * arguments ({@code enum E extends Enum<E>}) end; only the asked class's answer is kept.
     */
    private boolean relevantType(TypeElement type) {
        Boolean known = types.get(type);
        if (known != null) {
            return known;
        }
        boolean result = false;
        Set<Element> visited = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<TypeMirror> pending = new ArrayDeque<>();
        visited.add(type);
        if (fromSessionj(type) || annotatedFromSessionj(type)) {
            result = true;
        } else {
            addEdges(type, pending);
        }
        while (!result && !pending.isEmpty()) {
            TypeMirror next = pending.pop();
            if (annotatedFromSessionj(next)) {
                result = true;
                break;
            }
            switch (next.getKind()) {
                case DECLARED -> {
                    DeclaredType declared = (DeclaredType) next;
                    pending.addAll(declared.getTypeArguments());
                    if (declared.asElement() instanceof TypeElement element && visited.add(element)) {
                        Boolean elementKnown = types.get(element);
                        if (elementKnown != null) {
                            result = elementKnown;
                        } else if (fromSessionj(element) || annotatedFromSessionj(element)) {
                            result = true;
                        } else {
                            addEdges(element, pending);
                        }
                    }
                }
                case ARRAY -> pending.push(((ArrayType) next).getComponentType());
                case TYPEVAR -> {
                    TypeVariable variable = (TypeVariable) next;
                    if (visited.add(variable.asElement())) {
                        pending.push(variable.getUpperBound());
                        pending.push(variable.getLowerBound());
                    }
                }
                case WILDCARD -> {
                    WildcardType wildcard = (WildcardType) next;
                    if (wildcard.getExtendsBound() != null) {
                        pending.push(wildcard.getExtendsBound());
                    }
                    if (wildcard.getSuperBound() != null) {
                        pending.push(wildcard.getSuperBound());
                    }
                }
                case INTERSECTION -> pending.addAll(((IntersectionType) next).getBounds());
                case UNION -> pending.addAll(((UnionType) next).getAlternatives());
                case ERROR, OTHER -> result = true;
                default -> {
                }
            }
        }
        types.put(type, result);
        return result;
    }

    private static void addEdges(TypeElement type, Deque<TypeMirror> pending) {
        pending.push(type.getSuperclass());
        pending.addAll(type.getInterfaces());
        for (TypeParameterElement parameter : type.getTypeParameters()) {
            pending.addAll(parameter.getBounds());
        }
        if (type.getEnclosingElement() instanceof TypeElement outer) {
            pending.push(outer.asType()); // an inner class sees its outer class's type parameters
        }
    }

    /** Whether a lambda's or method reference's functional method is relevant. */
    private boolean relevantFunctional(TypeMirror type) {
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)) {
            return type != null && type.getKind() == javax.lang.model.type.TypeKind.ERROR;
        }
        Boolean known = functional.get(element);
        if (known == null) {
            ExecutableElement method = contracts.functionalMethod(declared);
            known = method != null && relevantElement(method);
            functional.put(element, known);
        }
        return known;
    }

    private boolean hasNoAliasField(Element type) {
        Boolean known = noAliasFields.get(type);
        if (known == null) {
            known = false;
            for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
                if (NoAliasRules.isNoAlias(field) || annotatedFromSessionj(field)) {
                    known = true;
                    break;
                }
            }
            noAliasFields.put(type, known);
        }
        return known;
    }

    private static boolean fromSessionj(TypeElement type) {
        String name = type.getQualifiedName().toString();
        return name.startsWith(SESSIONJ_API) || name.startsWith(SESSIONJ_RUNTIME);
    }

    private static boolean annotationFromSessionj(TypeElement annotation) {
        return annotation.getQualifiedName().toString().startsWith(SESSIONJ);
    }

    private static boolean annotatedFromSessionj(AnnotatedConstruct construct) {
        for (AnnotationMirror mirror : construct.getAnnotationMirrors()) {
            if (mirror.getAnnotationType().asElement() instanceof TypeElement annotation && annotationFromSessionj(annotation)) {
                return true;
            }
        }
        return false;
    }
}
