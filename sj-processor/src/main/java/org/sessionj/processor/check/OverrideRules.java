package org.sessionj.processor.check;

import com.sun.source.tree.MethodTree;
import com.sun.source.tree.VariableTree;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
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

    OverrideRules(SessionApi api, SessionParameters sessionParameters, Elements elements, Types types) {
        this.api = api;
        this.sessionParameters = sessionParameters;
        this.elements = elements;
        this.types = types;
    }

    void check(ExecutableElement method, MethodTree tree, Reporter reporter) {
        if (cannotOverride(method)) {
            return; // most session methods are static: no supertype walk for them
        }
        boolean sessions = method.getParameters().stream().anyMatch(this::sessionTyped);
        boolean owned = method.getParameters().stream().anyMatch(NoAliasRules::isNoAlias);
        if (!sessions && !owned && !mayOverrideNoAlias(method)) {
            return;
        }
        TypeElement owner = (TypeElement) method.getEnclosingElement();
        for (ExecutableElement overridden : overridden(method, owner)) {
            if (noAlias(method, tree, overridden, reporter)) {
                return;
            }
            List<? extends VariableElement> mine = method.getParameters();
            List<? extends VariableElement> theirs = overridden.getParameters();
            for (int i = 0; i < mine.size() && i < theirs.size(); i++) {
                if (!sessionTyped(mine.get(i))) {
                    continue;
                }
                SessionType own = declared(mine.get(i));
                SessionType inherited = declared(theirs.get(i));
                if (!same(own, inherited)) {
                    VariableTree at = tree.getParameters().get(i);
                    reporter.error(at, Diagnostic.OVERRIDE_MISMATCH, mine.get(i).getSimpleName(),
                            method.getSimpleName(), describe(own),
                            overridden.getEnclosingElement().getSimpleName(), describe(inherited));
                    return;
                }
            }
        }
    }

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
    private boolean noAlias(ExecutableElement method, MethodTree tree, ExecutableElement overridden,
            Reporter reporter) {
        String where = overridden.getEnclosingElement().getSimpleName().toString();
        if (NoAliasRules.isNoAlias(overridden) && !NoAliasRules.isNoAlias(method)) {
            reporter.error(tree, Diagnostic.NOALIAS_OVERRIDE, method.getSimpleName(), where,
                    "its result is not @NoAlias where the overridden method promises a unique one");
            return true;
        }
        List<? extends VariableElement> mine = method.getParameters();
        List<? extends VariableElement> theirs = overridden.getParameters();
        for (int i = 0; i < mine.size() && i < theirs.size(); i++) {
            if (NoAliasRules.isNoAlias(mine.get(i)) && !NoAliasRules.isNoAlias(theirs.get(i))) {
                reporter.error(tree.getParameters().get(i), Diagnostic.NOALIAS_OVERRIDE, method.getSimpleName(), where,
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
        return left.equals(right) || TypeModel.unfold(left).equals(TypeModel.unfold(right));
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
