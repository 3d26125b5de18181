package org.sessionj.processor.check;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/** The session API types as javac sees them, and which of their uses are session operations. */
final class SessionApi {
    private final TypeElement socket;
    private final TypeElement service;
    private final TypeElement serverSocket;
    private final TypeElement multicast;
    private final TypeElement session;
    private final TypeElement scope;
    private final TypeElement runtime;
    private final TypeElement selector;
    private final Types types;
    private final Elements elements;
    private final Map<Element, Boolean> socketTypes = new IdentityHashMap<>();
    /**
     * The {@code close()} each resource class is closed with, by class ({@link #closeMethod}): found with
     * {@code Elements.getAllMembers}, which builds a scope of every inherited member, once per class rather
     * than once per try-with-resources statement (issue 12: 180 statements of one class on the compile-time
     * benchmark, 3 % of the processor's samples, and the javac methods it made hot for the JIT).
     */
    private final Map<Element, ExecutableElement> closeMethods = new IdentityHashMap<>();
    /** The types of the classes {@link #namedType} was asked for, by name. */
    private final Map<String, TypeMirror> namedTypes = new HashMap<>();

    SessionApi(Elements elements, Types types) {
        this.types = types;
        this.elements = elements;
        this.socket = elements.getTypeElement("org.sessionj.api.SJSocket");
        this.service = elements.getTypeElement("org.sessionj.api.SJService");
        this.serverSocket = elements.getTypeElement("org.sessionj.api.SJServerSocket");
        this.multicast = elements.getTypeElement("org.sessionj.api.SJ");
        this.session = elements.getTypeElement("org.sessionj.api.Session");
        this.scope = elements.getTypeElement("org.sessionj.api.SJScope");
        this.runtime = elements.getTypeElement("org.sessionj.runtime.SJRuntime");
        this.selector = elements.getTypeElement("org.sessionj.api.SJSelector");
    }

    /** Whether the session API is on the class path at all (if not, nothing to check). */
    boolean available() {
        return socket != null && service != null && serverSocket != null && multicast != null;
    }

    /**
     * Whether values of {@code type} are session sockets: {@code SJSocket}, a subtype of it, a type
     * variable bounded by it, or an intersection with it. Every expression of such a type must be a
     * tracked variable or is reported (docs/diagnostics.md, SJ010).
     */
    boolean isSocket(TypeMirror type) {
        if (type == null || socket == null) {
            return false;
        }
        return switch (type.getKind()) {
            case DECLARED -> isSocketType(((DeclaredType) type).asElement());
            case TYPEVAR -> isSocket(types.erasure(type));
            case INTERSECTION -> ((IntersectionType) type).getBounds().stream().anyMatch(this::isSocket);
            default -> false;
        };
    }

    /**
     * Whether a class's values are sockets: whether its erasure is a subtype of {@code SJSocket}'s,
     * which depends on the class alone, so it is asked of javac once per class (a body asks it of
     * nearly every expression it meets).
     */
    private boolean isSocketType(Element type) {
        Boolean known = socketTypes.get(type);
        if (known == null) {
            known = socket.equals(type) || types.isSubtype(types.erasure(type.asType()), types.erasure(socket.asType()));
            socketTypes.put(type, known);
        }
        return known;
    }

    /** Whether {@code type} may stand for a socket once its type arguments are known (a type variable). */
    static boolean mayBeSocket(TypeMirror type) {
        return type != null && (type.getKind() == TypeKind.TYPEVAR || type.getKind() == TypeKind.INTERSECTION);
    }

    boolean isService(TypeMirror type) {
        return type != null && isSame(type, service);
    }

    boolean isServerSocket(TypeMirror type) {
        return type != null && isSame(type, serverSocket);
    }

    boolean isSocketClass(Element owner) {
        return socket.equals(owner);
    }

    boolean isServiceClass(Element owner) {
        return service.equals(owner);
    }

    boolean isServerSocketClass(Element owner) {
        return serverSocket.equals(owner);
    }

    /**
     * The constructor a class instance creation runs its arguments through: for an anonymous class
     * ({@code new C(s) { … }}), the constructor of C that javac's own constructor for the anonymous class
     * passes them on to (same parameter types), which carries the {@code @Session} annotations; else
     * {@code constructor} itself.
     */
    javax.lang.model.element.ExecutableElement invokedConstructor(javax.lang.model.element.ExecutableElement constructor) {
        if (!(constructor.getEnclosingElement() instanceof TypeElement owner)
                || owner.getNestingKind() != javax.lang.model.element.NestingKind.ANONYMOUS
                || !(types.asElement(owner.getSuperclass()) instanceof TypeElement superclass)) {
            return constructor;
        }
        for (javax.lang.model.element.ExecutableElement candidate
                : javax.lang.model.util.ElementFilter.constructorsIn(superclass.getEnclosedElements())) {
            if (sameErasedParameters(candidate, constructor)) {
                return candidate;
            }
        }
        return constructor;
    }

    private boolean sameErasedParameters(javax.lang.model.element.ExecutableElement a,
            javax.lang.model.element.ExecutableElement b) {
        if (a.getParameters().size() != b.getParameters().size() || a.isVarArgs() != b.isVarArgs()) {
            return false;
        }
        for (int i = 0; i < a.getParameters().size(); i++) {
            if (!types.isSameType(types.erasure(a.getParameters().get(i).asType()),
                    types.erasure(b.getParameters().get(i).asType()))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code type} is {@code SJScope}. */
    boolean isScope(TypeMirror type) {
        return type != null && scope != null && isSame(type, scope);
    }

    /** {@code SJScope}: {@code scope.add(s)} returns the session it is given. */
    boolean isScopeClass(Element owner) {
        return scope != null && scope.equals(owner);
    }

    /**
     * {@code SJRuntime.transportOf(s)} and {@code SJRuntime.peerPrincipal(s)}: queries that read a
     * session's connection and perform no session action, so a tracked socket may be their argument.
     */
    boolean isQuery(javax.lang.model.element.ExecutableElement method) {
        return runtime != null && runtime.equals(method.getEnclosingElement())
                && (method.getSimpleName().contentEquals("transportOf")
                        || method.getSimpleName().contentEquals("peerPrincipal"));
    }

    /**
     * Whether {@code method} makes a service or server socket of the protocol its first argument names
     * (a class literal): {@code SJService.create}, {@code SJServerSocket.create}, and an
     * {@code SJRuntime}'s {@code service} and {@code serverSocket}.
     */
    boolean isEndpointFactory(javax.lang.model.element.ExecutableElement method) {
        Element owner = method.getEnclosingElement();
        String name = method.getSimpleName().toString();
        if (name.equals("create")) {
            return isServiceClass(owner) || isServerSocketClass(owner);
        }
        return runtime != null && runtime.equals(owner) && (name.equals("service") || name.equals("serverSocket"))
                && (isService(method.getReturnType()) || isServerSocket(method.getReturnType()));
    }

    /** {@code SJSelector}: typed selectors ({@code SJSelector.of}) are checked by {@link SelectorRules}. */
    boolean isSelectorClass(Element owner) {
        return selector != null && selector.equals(owner);
    }

    /**
     * Whether {@code method} makes a typed selector of the protocols its arguments name:
     * {@code SJSelector.of(P.class, …)}, and its documented twin on a runtime instance,
     * {@code SJRuntime.openSelector(P.class, …)} (adv11 A10; {@code openSelector()} with no protocol is
     * the untyped one).
     */
    boolean isTypedSelectorFactory(javax.lang.model.element.ExecutableElement method) {
        Element owner = method.getEnclosingElement();
        return isSelectorClass(owner) && method.getSimpleName().contentEquals("of")
                || runtime != null && runtime.equals(owner) && method.getSimpleName().contentEquals("openSelector")
                        && method.isVarArgs();
    }

    /** Whether values of {@code type} are selectors ({@code SJSelector}). */
    boolean isSelector(TypeMirror type) {
        return type != null && selector != null && isSame(type, selector);
    }

    boolean isMulticastClass(Element owner) {
        return multicast.equals(owner);
    }

    TypeElement sessionAnnotation() {
        return session;
    }

    /**
     * What an API object of {@code type} is ("a service", "a server socket", "a selector", "a
     * scope"), or null: such objects are never plain messages (a service travels only as a service
     * payload, the others not at all), whatever a message type like {@code Object} would admit.
     */
    String apiObject(TypeMirror type) {
        if (isService(type)) {
            return "a service";
        }
        if (isServerSocket(type)) {
            return "a server socket";
        }
        if (isSelector(type)) {
            return "a selector";
        }
        return type != null && scope != null && isSame(type, scope) ? "a scope" : null;
    }

    /**
     * The type of the class named {@code name} (a JDK or API class every compilation has, such as
     * {@code java.lang.RuntimeException}): asked of javac once per compilation, not at every call the
     * checks read (issue 12). The class is known before any body is checked, and stays the same element.
     */
    TypeMirror namedType(String name) {
        TypeMirror known = namedTypes.get(name);
        if (known == null) {
            known = elements.getTypeElement(name).asType();
            namedTypes.put(name, known);
        }
        return known;
    }

    /**
     * The {@code close()} a resource of class {@code owner} is closed with (the most specific one, with no
     * parameter and not static), or null: it depends on the class alone, so it is looked for once per class.
     */
    ExecutableElement closeMethod(TypeElement owner) {
        if (closeMethods.containsKey(owner)) {
            return closeMethods.get(owner);
        }
        ExecutableElement found = null;
        for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(owner))) {
            if (method.getSimpleName().contentEquals("close") && method.getParameters().isEmpty()
                    && !method.getModifiers().contains(Modifier.STATIC)
                    && (found == null || elements.overrides(method, found, owner))) {
                found = method;
            }
        }
        closeMethods.put(owner, found);
        return found;
    }

    private static boolean isSame(TypeMirror type, TypeElement element) {
        return type instanceof javax.lang.model.type.DeclaredType declared && declared.asElement().equals(element);
    }
}
