package org.sessionj.processor.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.TypeMirror;

/**
 * adv21 B1 X04, B2 X11, B10: objects of classes of the program that are functions — they implement a JDK functional
 * interface ({@code record BookTask(String in) implements Runnable}, {@code new Runnable() { … }}), so the JDK runs
 * their method through the interface, where the checker records no call. {@link FunctionFates} gives such an object
 * the fate of a lambda, where it is made.
 */
final class FunctionObjects {
    private final javax.lang.model.util.Elements elements;
    private final javax.lang.model.util.Types types;
    /** For each class created, the methods that implement a JDK functional interface's method. */
    private final Map<Element, List<ExecutableElement>> cache = new HashMap<>();

    FunctionObjects(javax.lang.model.util.Elements elements, javax.lang.model.util.Types types) {
        this.elements = elements;
        this.types = types;
    }


    /**
     * adv21 B1 X04, B2 X11, B10: the methods of the class {@code constructor} creates (a class of the program, an
     * anonymous one among them) that implement the abstract method of a JDK interface declared
     * {@code @FunctionalInterface} ({@code run()} of a
     * {@code Runnable}, {@code call()} of a {@code Callable}): such an object is a function, which runs where the
     * JDK calls that method — calls the checker does not record — so it is followed or rejected where it stands
     * ({@link FunctionFates}). Empty for a class of the JDK. Found once per class.
     */
    List<ExecutableElement> functionMethods(ExecutableElement constructor, MethodChecker flow) {
        if (!(constructor.getEnclosingElement() instanceof javax.lang.model.element.TypeElement created)
                || ThrowSites.inJdk(created, flow)) {
            return List.of();
        }
        List<ExecutableElement> found = cache.get(created);
        if (found != null) {
            return found;
        }
        found = new ArrayList<>();
        java.util.Deque<TypeMirror> todo = new java.util.ArrayDeque<>(types.directSupertypes(created.asType()));
        Set<Element> visited = new java.util.HashSet<>();
        while (!todo.isEmpty()) {
            TypeMirror next = todo.pop();
            if (!(types.asElement(next) instanceof javax.lang.model.element.TypeElement type) || !visited.add(type)) {
                continue;
            }
            todo.addAll(types.directSupertypes(next));
            if (type.getKind() != javax.lang.model.element.ElementKind.INTERFACE || !ThrowSites.inJdk(type, flow)
                    || !declaredFunctional(type)) {
                continue; // not Comparable, Iterable or AutoCloseable: not run as functions, and called by name
            }
            for (ExecutableElement method : javax.lang.model.util.ElementFilter.methodsIn(type.getEnclosedElements())) {
                if (method.getModifiers().contains(javax.lang.model.element.Modifier.ABSTRACT)) {
                    ExecutableElement implementation = implementation(created, method);
                    if (implementation != null && !found.contains(implementation)) {
                        found.add(implementation);
                    }
                }
            }
        }
        cache.put(created, found);
        return found;
    }

    /** Whether the JDK interface {@code type} is declared {@code @FunctionalInterface} (Runnable, Callable, java.util.function). */
    private static boolean declaredFunctional(javax.lang.model.element.TypeElement type) {
        for (javax.lang.model.element.AnnotationMirror annotation : type.getAnnotationMirrors()) {
            if (((javax.lang.model.element.TypeElement) annotation.getAnnotationType().asElement()).getQualifiedName()
                    .contentEquals("java.lang.FunctionalInterface")) {
                return true;
            }
        }
        return false;
    }

    /** The method of the program that implements {@code method} for {@code created} (in it or a superclass), or null. */
    private ExecutableElement implementation(javax.lang.model.element.TypeElement created, ExecutableElement method) {
        for (TypeMirror type = created.asType(); types.asElement(type) instanceof javax.lang.model.element.TypeElement owner;
                type = owner.getSuperclass()) {
            for (ExecutableElement candidate : javax.lang.model.util.ElementFilter.methodsIn(owner.getEnclosedElements())) {
                if (candidate.getSimpleName().equals(method.getSimpleName())
                        && !candidate.getModifiers().contains(javax.lang.model.element.Modifier.ABSTRACT)
                        && elements.overrides(candidate, method, created)) {
                    return candidate;
                }
            }
        }
        return null;
    }
}
