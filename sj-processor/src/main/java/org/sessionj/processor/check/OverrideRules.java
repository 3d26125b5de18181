package org.sessionj.processor.check;

import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.tree.VariableTree;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.SessionType;

/**
 * Invariant: <em>a call is checked against the {@code @Session} types of the method it names, and
 * runs the body of any override</em> — so every override must declare each session, service and
 * server-socket parameter with the same {@code @Session} type (or none where the overridden method
 * has none). A different type in either direction lets the caller and the body disagree on the
 * session (SJ036, at the overriding parameter).
 */
final class OverrideRules {
    private final SessionApi api;
    private final SessionParameters sessionParameters;
    private final Elements elements;
    private final Types types;

    private final LentSessions lent;

    OverrideRules(SessionApi api, SessionParameters sessionParameters, Elements elements, Types types,
            LentSessions lent) {
        this.lent = lent;
        this.api = api;
        this.sessionParameters = sessionParameters;
        this.elements = elements;
        this.types = types;
    }

    void check(ExecutableElement method, MethodTree tree, Reporter reporter) {
        if (cannotOverride(method)) {
            return; // most session methods are static: no supertype walk for them
        }
        if (!relevant(method) && !mayOverrideNoAlias(method)) {
            return;
        }
        TypeElement owner = (TypeElement) method.getEnclosingElement();
        for (ExecutableElement overridden : overridden(method, owner)) {
            if (mismatch(method, overridden, tree, null, reporter)) {
                return;
            }
        }
    }

    /**
     * The same invariant for the methods a class <em>inherits</em>: a concrete method of a superclass
     * (or a default method) that implements, as a member of {@code type}, a method of another supertype
     * ({@code class Impl extends Lib implements H {}}: {@code Lib.on} implements {@code H.on}) is the
     * body every call through that other supertype runs, though neither {@code Lib} nor {@code Impl}
     * declares an override to check. Reported at the class ({@code tree}). A pair whose implementing
     * class is itself a subtype of the other method's type was checked at the implementation's own
     * declaration.
     */
    void checkInherited(TypeElement type, Tree tree, Reporter reporter) {
        if (!relevantSupertype(type)) {
            return; // the usual case: no supertype method has a session or @NoAlias to disagree on
        }
        List<ExecutableElement> inherited = supertypeMethods(type);
        inheritingClass = type;
        Set<String> declared = new HashSet<>();
        for (ExecutableElement own : ElementFilter.methodsIn(type.getEnclosedElements())) {
            declared.add(own.getSimpleName() + "/" + own.getParameters().size());
        }
        boolean isClass = type.getKind() == ElementKind.CLASS || type.getKind() == ElementKind.ENUM
                || type.getKind() == ElementKind.RECORD;
        if (isClass) {
            for (ExecutableElement member : ElementFilter.methodsIn(elements.getAllMembers(type))) {
                if (member.getEnclosingElement() == type || member.getModifiers().contains(Modifier.ABSTRACT)
                        || cannotOverride(member)
                        || declared.contains(member.getSimpleName() + "/" + member.getParameters().size())) {
                    continue;
                }
                TypeElement implementer = (TypeElement) member.getEnclosingElement();
                for (ExecutableElement other : inherited) {
                    if (other == member || other.getEnclosingElement() == implementer
                            || !other.getSimpleName().equals(member.getSimpleName())
                            || other.getParameters().size() != member.getParameters().size()
                            || !relevant(member) && !relevant(other)
                            || isSubtype(implementer, other.getEnclosingElement())
                            || !elements.overrides(member, other, type)) {
                        continue;
                    }
                    if (mismatch(member, other, null, tree, reporter)) {
                        return;
                    }
                }
            }
        }
        abstractPairs(type, tree, inherited, declared, reporter);
    }

    /**
     * Two abstract methods a type inherits from unrelated supertypes with one signature
     * ({@code interface HH extends H1, H2 {}}, {@code abstract class AC implements H1, H2 {}}) are
     * implemented by one body (a lambda for {@code HH}, a subclass's method), which callers through
     * either reach: they must declare the same {@code @Session} types (SJ036) and the same
     * {@code @NoAlias} result (SJ045). A pair that a method of a common subtype overrides was compared
     * there; a type that declares the method itself is checked by {@link #check}.
     */
    private void abstractPairs(TypeElement type, Tree tree, List<ExecutableElement> inherited, Set<String> declared,
            Reporter reporter) {
        DeclaredType asMember = (DeclaredType) type.asType();
        for (int i = 0; i < inherited.size(); i++) {
            ExecutableElement first = inherited.get(i);
            if (!first.getModifiers().contains(Modifier.ABSTRACT)
                    || declared.contains(first.getSimpleName() + "/" + first.getParameters().size())) {
                continue;
            }
            for (int j = i + 1; j < inherited.size(); j++) {
                ExecutableElement second = inherited.get(j);
                if (!second.getModifiers().contains(Modifier.ABSTRACT)
                        || !second.getSimpleName().equals(first.getSimpleName())
                        || second.getParameters().size() != first.getParameters().size()
                        || !relevant(first) && !relevant(second)
                        || isSubtype(first.getEnclosingElement(), second.getEnclosingElement())
                        || isSubtype(second.getEnclosingElement(), first.getEnclosingElement())
                        || !sameSignature(asMember, first, second)
                        || overriddenByCommonSubtype(inherited, first, second)) {
                    continue;
                }
                boolean firstUnique = NoAliasRules.isNoAlias(first);
                if (firstUnique != NoAliasRules.isNoAlias(second)) {
                    ExecutableElement shared = firstUnique ? second : first;
                    ExecutableElement unique = firstUnique ? first : second;
                    reporter.error(tree, Diagnostic.NOALIAS_OVERRIDE, name(shared, tree),
                            unique.getEnclosingElement().getSimpleName(), "its result is not @NoAlias where the other "
                                    + "method promises a unique one (one body implements both)");
                    return;
                }
                if (sessionMismatch(first, second, null, tree, reporter)) {
                    return;
                }
            }
        }
    }

    private boolean sameSignature(DeclaredType in, ExecutableElement first, ExecutableElement second) {
        try {
            return types.isSubsignature((javax.lang.model.type.ExecutableType) types.asMemberOf(in, first),
                    (javax.lang.model.type.ExecutableType) types.asMemberOf(in, second));
        } catch (IllegalArgumentException notAMember) {
            return false;
        }
    }

    /** Whether a method of a type below both owners, with the same name and arity, overrides both. */
    private boolean overriddenByCommonSubtype(List<ExecutableElement> inherited, ExecutableElement first,
            ExecutableElement second) {
        for (ExecutableElement third : inherited) {
            if (third != first && third != second && third.getSimpleName().equals(first.getSimpleName())
                    && third.getParameters().size() == first.getParameters().size()
                    && isSubtype(third.getEnclosingElement(), first.getEnclosingElement())
                    && isSubtype(third.getEnclosingElement(), second.getEnclosingElement())) {
                return true;
            }
        }
        return false;
    }

    private boolean isSubtype(Element sub, Element sup) {
        return types.isSubtype(types.erasure(sub.asType()), types.erasure(sup.asType()));
    }

    /**
     * Per type, whether it or any of its supertypes declares a method that can be overridden and is
     * {@link #relevant}: {@link #checkInherited} asks it of each class's direct supertypes, so that
     * {@code Object}'s and a shared interface's methods are read once per compilation, not once per
     * class. Elements belong to one compilation, as does this cache.
     */
    private final java.util.Map<TypeElement, Boolean> relevantAbove = new java.util.HashMap<>();

    private boolean relevantAbove(TypeElement type) {
        Boolean known = relevantAbove.get(type);
        if (known != null) {
            return known;
        }
        relevantAbove.put(type, false); // a cycle (an erroneous hierarchy) ends here
        boolean found = false;
        for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
            if (!cannotOverride(method) && relevant(method)) {
                found = true;
                break;
            }
        }
        if (!found) {
            found = relevantSupertype(type);
        }
        relevantAbove.put(type, found);
        return found;
    }

    /**
     * Whether a class {@code type} names as its direct supertype (its superclass, then its interfaces) is
     * {@link #relevantAbove}. Read off the declaration ({@code getSuperclass}, {@code getInterfaces}), not with
     * {@code Types.directSupertypes}, which substitutes type arguments this needs not and builds its answer
     * with a stream javac runs cold in every fresh compilation (issue 12; about 1 % of the processor's samples
     * on the compile-time benchmark). The one supertype it adds, an interface's {@code Object}, declares no
     * method with a session or {@code @NoAlias}.
     */
    private boolean relevantSupertype(TypeElement type) {
        if (type.getSuperclass() instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                && relevantAbove(element)) {
            return true;
        }
        for (TypeMirror supertype : type.getInterfaces()) {
            if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                    && relevantAbove(element)) {
                return true;
            }
        }
        return false;
    }

    /** Every non-static, non-private method declared in a proper supertype of {@code type}. */
    private List<ExecutableElement> supertypeMethods(TypeElement type) {
        List<ExecutableElement> found = new java.util.ArrayList<>();
        Deque<TypeMirror> pending = new ArrayDeque<>(types.directSupertypes(type.asType()));
        Set<Element> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            if (!(pending.pop() instanceof DeclaredType declared)
                    || !(declared.asElement() instanceof TypeElement supertype) || !seen.add(supertype)) {
                continue;
            }
            for (ExecutableElement method : ElementFilter.methodsIn(supertype.getEnclosedElements())) {
                if (!cannotOverride(method)) {
                    found.add(method);
                }
            }
            pending.addAll(types.directSupertypes(supertype.asType()));
        }
        return found;
    }

    /** Whether a method has a session-typed or {@code @NoAlias} parameter or a {@code @NoAlias} result. */
    private boolean relevant(ExecutableElement method) {
        if (NoAliasRules.isNoAlias(method)) {
            return true;
        }
        for (VariableElement parameter : method.getParameters()) {
            if (sessionTyped(parameter) || NoAliasRules.isNoAlias(parameter)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Compares {@code method} with a method it overrides and reports the first difference: at the
     * override's own declaration ({@code tree}, its parameters), or, for an inherited implementation,
     * at the class that inherits it ({@code inheritedAt}). Whether one was reported.
     */
    private boolean mismatch(ExecutableElement method, ExecutableElement overridden, MethodTree tree, Tree inheritedAt,
            Reporter reporter) {
        lent.contractsRead(overridden); // its class's fingerprint holds them (SJ009)
        return noAlias(method, tree, inheritedAt, overridden, reporter)
                || sessionMismatch(method, overridden, tree, inheritedAt, reporter)
                || endsLent(method, overridden, tree != null ? tree : inheritedAt, "'" + name(method, inheritedAt) + "'",
                        reporter)
                || throwsUndeclared(method, null, overridden, tree != null ? tree : inheritedAt,
                        "'" + name(method, inheritedAt) + "'", reporter);
    }

    /**
     * Invariant (adv17 A2, dispatch): <em>a body that a call through a method runs throws, with a session it
     * is lent, only what a caller of that method counts</em>. A caller counts, at a call that lends a socket
     * to a method that does not end it, that method's own unchecked {@code throw} or {@code assert}
     * ({@link LentSessions#ownUncheckedThrow}) and the unchecked exceptions it declares; the body that runs
     * may be an override, an inherited implementation, a lambda or a method reference, whose own throw the
     * caller cannot see (an interface method has no body). So such a body's own unchecked throw must be of
     * a type the method it implements declares ({@code throws IllegalArgumentException}) or throws itself
     * (SJ057), as Java requires of checked exceptions. A session failure ({@code SJIOException}) is the
     * session's own end and is not counted. {@code lambda}: the lambda implementing it ({@code implementation}
     * null), or null. Whether one was reported.
     */
    boolean throwsUndeclared(ExecutableElement implementation, TreePath lambda, ExecutableElement implemented,
            Tree at, String what, Reporter reporter) {
        if (fromApi(implemented)) {
            return false;
        }
        List<? extends VariableElement> mine = lambda != null ? lambdaParameters(lambda) : implementation.getParameters();
        List<? extends VariableElement> theirs = implemented.getParameters();
        int offset = theirs.size() - mine.size(); // a method reference with an unbound receiver
        if (offset < 0 || offset > 1) {
            return false;
        }
        VariableElement lentOne = null;
        for (int i = 0; i < mine.size() && lentOne == null; i++) {
            VariableElement parameter = mine.get(i);
            if (api.isSocket(parameter.asType()) && api.isSocket(theirs.get(i + offset).asType())
                    && (lambda != null ? lent.lambdaEnding(lambda, parameter) : lent.ending(implementation, parameter)) == null
                    && lent.ending(implemented, theirs.get(i + offset)) == null) {
                lentOne = parameter;
            }
        }
        if (lentOne == null) {
            return false;
        }
        TreePath own = lambda != null ? lent.lambdaUncheckedThrow(lambda, types, elements)
                : lent.ownUncheckedThrow(implementation, types, elements);
        TypeMirror thrown = own == null ? null : lent.thrownBy(own, elements);
        if (thrown == null || sessionFailure(thrown)) {
            return false;
        }
        for (TypeMirror declared : implemented.getThrownTypes()) {
            if (types.isSubtype(types.erasure(thrown), types.erasure(declared))) {
                return false;
            }
        }
        TreePath theirOwn = lent.ownUncheckedThrow(implemented, types, elements);
        TypeMirror theirThrown = theirOwn == null ? null : lent.thrownBy(theirOwn, elements);
        if (theirThrown != null && types.isSubtype(types.erasure(thrown), types.erasure(theirThrown))) {
            return false;
        }
        String type = types.erasure(thrown) instanceof DeclaredType declared
                ? declared.asElement().getSimpleName().toString() : thrown.toString();
        String where = (own.getLeaf() instanceof com.sun.source.tree.ThrowTree ? "the throw on line " : "the assert on line ")
                + lent.line(own) + inMethod(own, lambda != null ? lambda.getLeaf() : null);
        reporter.error(at, Diagnostic.THROWS_UNDECLARED, what, type, lentOne.getSimpleName(), where,
                implemented.getEnclosingElement().getSimpleName() + "." + implemented.getSimpleName(), type);
        return true;
    }

    /**
     * " in 'name'", the method {@code own} stands in (a constructor by its class's name), or "" when it stands
     * in {@code lambda}'s body itself.
     */
    private static String inMethod(TreePath own, Tree lambda) {
        for (TreePath up = own; up != null; up = up.getParentPath()) {
            if (up.getLeaf() == lambda) {
                return "";
            }
            if (up.getLeaf() instanceof MethodTree declaration) {
                String name = declaration.getName().toString();
                if (name.equals("<init>") && up.getParentPath() != null
                        && up.getParentPath().getLeaf() instanceof com.sun.source.tree.ClassTree owner) {
                    name = owner.getSimpleName().toString();
                }
                return " in '" + name + "'";
            }
        }
        return "";
    }

    /** Whether {@code type} is a session failure ({@code SJIOException} or a subclass). */
    private boolean sessionFailure(TypeMirror type) {
        javax.lang.model.element.TypeElement failure = elements.getTypeElement("org.sessionj.api.SJIOException");
        return failure != null && types.isSubtype(types.erasure(type), types.erasure(failure.asType()));
    }

    /** The parameters of the lambda at {@code lambda}. */
    private List<VariableElement> lambdaParameters(TreePath lambda) {
        List<VariableElement> parameters = new java.util.ArrayList<>();
        for (com.sun.source.tree.VariableTree parameter : ((com.sun.source.tree.LambdaExpressionTree) lambda.getLeaf())
                .getParameters()) {
            if (lent.trees().getElement(new TreePath(lambda, parameter)) instanceof VariableElement v) {
                parameters.add(v);
            }
        }
        return parameters;
    }

    /**
     * Invariant: <em>a body that a call through a method runs ends the caller's session if and only if
     * that method's own body does</em> — a caller through an interface or an overridden method sees that
     * method's answer ({@link LentSessions}), so an implementation (override, inherited implementation,
     * method reference) may not close, delegate, spawn or register a {@code @Session} socket parameter
     * the method it implements does not end (SJ056), and must end one that method ends (SJ037: the
     * caller counts it as ended and may not close it, so nobody would). An abstract override of a method
     * that ends its socket is SJ037 too (its implementations may not end it). The API's own callbacks (a
     * session thread's body) own what they are given and are exempt. Whether one was reported.
     */
    boolean endsLent(ExecutableElement implementation, ExecutableElement implemented, Tree at, String what,
            Reporter reporter) {
        if (fromApi(implemented)) {
            return false;
        }
        List<? extends VariableElement> mine = implementation.getParameters();
        List<? extends VariableElement> theirs = implemented.getParameters();
        int offset = theirs.size() - mine.size(); // a method reference with an unbound receiver
        if (offset < 0 || offset > 1) {
            return false;
        }
        for (int i = 0; i < mine.size(); i++) {
            VariableElement parameter = mine.get(i);
            if (!api.isSocket(parameter.asType())) {
                continue;
            }
            String how = lent.ending(implementation, parameter);
            String theirHow = lent.ending(implemented, theirs.get(i + offset));
            if (how != null && theirHow == null) {
                reporter.error(at, Diagnostic.ENDS_LENT_SESSION, what, parameter.getSimpleName(), "it " + how,
                        implemented.getEnclosingElement().getSimpleName() + "." + implemented.getSimpleName());
                return true;
            }
            if (how == null && theirHow != null) {
                reporter.error(at, Diagnostic.KEEPS_ENDED_SESSION, what, parameter.getSimpleName(),
                        implemented.getEnclosingElement().getSimpleName() + "." + implemented.getSimpleName(),
                        theirHow);
                return true;
            }
        }
        return false;
    }

    /**
     * The same for a lambda implementing {@code implemented}: its body must not end a socket parameter either.
     * Whether one was reported.
     */
    boolean lambdaEndsLent(TreePath lambda, List<? extends VariableElement> parameters, ExecutableElement implemented,
            Reporter reporter) {
        if (fromApi(implemented) || parameters.size() != implemented.getParameters().size()) {
            return false;
        }
        for (int i = 0; i < parameters.size(); i++) {
            VariableElement parameter = parameters.get(i);
            if (!api.isSocket(parameter.asType())) {
                continue;
            }
            String how = lent.lambdaEnding(lambda, parameter);
            if (how != null && lent.ending(implemented, implemented.getParameters().get(i)) == null) {
                reporter.error(lambda.getLeaf(), Diagnostic.ENDS_LENT_SESSION, "the lambda", parameter.getSimpleName(),
                        "it " + how, implemented.getEnclosingElement().getSimpleName() + "." + implemented.getSimpleName());
                return true;
            }
        }
        return false;
    }

    /** Whether a method belongs to the session API (its callbacks, such as a session thread's body, own their sessions). */
    static boolean fromApi(ExecutableElement method) {
        return method.getEnclosingElement() instanceof TypeElement owner
                && owner.getQualifiedName().toString().startsWith("org.sessionj.api.");
    }

    /** The {@code @Session} part of {@link #mismatch}: each session-typed parameter's type the same. */
    private boolean sessionMismatch(ExecutableElement method, ExecutableElement overridden, MethodTree tree,
            Tree inheritedAt, Reporter reporter) {
        List<? extends VariableElement> mine = method.getParameters();
        List<? extends VariableElement> theirs = overridden.getParameters();
        for (int i = 0; i < mine.size() && i < theirs.size(); i++) {
            if (!sessionTyped(mine.get(i)) && !sessionTyped(theirs.get(i))) {
                continue;
            }
            SessionType own = declared(mine.get(i));
            SessionType inherited = declared(theirs.get(i));
            if (!same(own, inherited)) {
                Tree at = tree != null ? tree.getParameters().get(i) : inheritedAt;
                reporter.error(at, Diagnostic.OVERRIDE_MISMATCH, mine.get(i).getSimpleName(), name(method, inheritedAt),
                        describe(own), overridden.getEnclosingElement().getSimpleName(), describe(inherited));
                return true;
            }
        }
        return false;
    }

    /** The method's name, or for an inherited implementation its class and name and where it is inherited. */
    private String name(ExecutableElement method, Tree inheritedAt) {
        return inheritedAt == null ? method.getSimpleName().toString()
                : method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName() + "' as inherited by '"
                        + (inheritingClass == null || inheritingClass.getSimpleName().isEmpty() ? "this anonymous class"
                                : inheritingClass.getSimpleName());
    }

    /** The class whose inherited methods {@link #checkInherited} is comparing (for messages). */
    private TypeElement inheritingClass;

    /** Constructors and static or private methods override nothing (JLS 8.4.8.1). */
    private static boolean cannotOverride(ExecutableElement method) {
        return method.getKind() != javax.lang.model.element.ElementKind.METHOD
                || method.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)
                || method.getModifiers().contains(javax.lang.model.element.Modifier.PRIVATE);
    }

    /** Only a method returning a reference may override a {@code @NoAlias} one. */
    private static boolean mayOverrideNoAlias(ExecutableElement method) {
        return !method.getReturnType().getKind().isPrimitive()
                && method.getReturnType().getKind() != javax.lang.model.type.TypeKind.VOID;
    }

    /**
     * Invariant: <em>an override keeps the {@code @NoAlias} promises callers rely on</em> — a unique
     * result stays unique, and a parameter that callers may give a shared value does not start owning
     * it (SJ045). Dropping {@code @NoAlias} from a parameter is fine: callers give up more than needed.
     */
    private boolean noAlias(ExecutableElement method, MethodTree tree, Tree inheritedAt, ExecutableElement overridden,
            Reporter reporter) {
        String where = overridden.getEnclosingElement().getSimpleName().toString();
        Tree at = tree != null ? tree : inheritedAt;
        if (NoAliasRules.isNoAlias(overridden) && !NoAliasRules.isNoAlias(method)) {
            reporter.error(at, Diagnostic.NOALIAS_OVERRIDE, name(method, inheritedAt), where,
                    "its result is not @NoAlias where the overridden method promises a unique one");
            return true;
        }
        List<? extends VariableElement> mine = method.getParameters();
        List<? extends VariableElement> theirs = overridden.getParameters();
        for (int i = 0; i < mine.size() && i < theirs.size(); i++) {
            if (NoAliasRules.isNoAlias(mine.get(i)) && !NoAliasRules.isNoAlias(theirs.get(i))) {
                reporter.error(tree != null ? tree.getParameters().get(i) : at, Diagnostic.NOALIAS_OVERRIDE,
                        name(method, inheritedAt), where,
                        "its parameter '" + mine.get(i).getSimpleName() + "' is @NoAlias where the overridden "
                                + "method takes shared values");
                return true;
            }
        }
        return false;
    }

    private boolean sessionTyped(VariableElement parameter) {
        TypeMirror type = parameter.asType();
        return api.isSocket(type) || api.isService(type) || api.isServerSocket(type);
    }

    /** The declared type, or null without (or with an invalid) {@code @Session}. */
    private SessionType declared(VariableElement parameter) {
        return sessionParameters.of(parameter, null, null).declared();
    }

    static boolean same(SessionType left, SessionType right) {
        if (left == null || right == null) {
            return Objects.equals(left, right);
        }
        return TypeModel.sameBehaviour(left, right);
    }

    static String describe(SessionType type) {
        return type == null ? "without a @Session type" : "@Session(\"" + TypeModel.describe(type) + "\")";
    }

    /** Every method of a supertype of {@code owner} that {@code method} overrides. */
    private List<ExecutableElement> overridden(ExecutableElement method, TypeElement owner) {
        List<ExecutableElement> found = new java.util.ArrayList<>();
        Deque<TypeMirror> pending = new ArrayDeque<>(types.directSupertypes(owner.asType()));
        Set<TypeElement> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            if (!(pending.pop() instanceof DeclaredType declared)
                    || !(declared.asElement() instanceof TypeElement type) || !seen.add(type)) {
                continue;
            }
            for (ExecutableElement candidate : ElementFilter.methodsIn(type.getEnclosedElements())) {
                if (candidate.getSimpleName().equals(method.getSimpleName())
                        && candidate.getParameters().size() == method.getParameters().size()
                        && elements.overrides(method, candidate, owner)) {
                    found.add(candidate);
                }
            }
            pending.addAll(types.directSupertypes(type.asType()));
        }
        return found;
    }
}
