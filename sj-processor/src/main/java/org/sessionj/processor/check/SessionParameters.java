package org.sessionj.processor.check;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.types.SessionType;

/**
 * The session types of {@code @Session} socket parameters: {@code @Session("…")} resolved in the
 * method's class, or {@code @Session(protocol = P.class)}; without the begin action. Cached per
 * parameter for the whole compilation (callers in other classes look them up too).
 */
final class SessionParameters {
    /**
     * Whether the parameter is annotated, and its type as declared (null when the annotation is
     * invalid): with its begin action for a service or server socket parameter.
     */
    record SessionParameter(boolean annotated, SessionType declared) {
        /** The type without its begin action: what a socket parameter has left to do. */
        SessionType type() {
            return declared == null ? null : TypeModel.stripBegin(declared);
        }
    }

    private final SessionApi api;
    private final ProtocolRegistry registry;
    /** A parameter's type and the problems found resolving it (reported at its declaration only). */
    private record Resolved(SessionParameter parameter, List<String> problems) {
    }

    /**
     * Per parameter element: resolved once for the compilation, whoever asks first (its method's
     * body, or a call in another class). Elements belong to one compilation, and so does this cache
     * (one per processor instance); @Session types are read after the last processing round.
     */
    private final Map<Element, Resolved> cache = new HashMap<>();

    private CheckedUsersIndex reads;

    SessionParameters(SessionApi api, ProtocolRegistry registry) {
        this.api = api;
        this.registry = registry;
    }

    /** Tells {@code index} of every parameter whose type is read from now on. */
    void recordReadsIn(CheckedUsersIndex index) {
        this.reads = index;
    }

    /** The {@code @Session} type of a socket parameter; reports problems at {@code declaration} if given (the declaring method does; callers do not). */
    SessionParameter of(VariableElement parameter, VariableTree declaration, Reporter reporter) {
        if (reads != null) {
            reads.parameter(parameter);
        }
        Resolved known = cache.get(parameter);
        if (known == null) {
            known = resolve(parameter);
            cache.put(parameter, known);
        }
        if (declaration != null && !known.problems().isEmpty()) {
            Tree at = annotationTree(declaration);
            for (String problem : known.problems()) {
                reporter.error(at, Diagnostic.BAD_SESSION_ANNOTATION, parameter.getSimpleName(), problem);
            }
        }
        return known.parameter();
    }

    private Resolved resolve(VariableElement parameter) {
        AnnotationMirror annotation = null;
        for (AnnotationMirror mirror : parameter.getAnnotationMirrors()) {
            if (mirror.getAnnotationType().asElement().equals(api.sessionAnnotation())) {
                annotation = mirror;
            }
        }
        if (annotation == null) {
            return new Resolved(new SessionParameter(false, null), List.of());
        }
        List<String> problems = new ArrayList<>();
        SessionType type = sessionType(parameter, annotation, problems);
        return new Resolved(new SessionParameter(true, type), problems);
    }

    private SessionType sessionType(VariableElement parameter, AnnotationMirror annotation, List<String> problems) {
        // No lambdas or Optional chains: javac loads the processor afresh per compilation, and each lambda
        // site would be linked afresh every time.
        AnnotationValue textValue = ProtocolRegistry.annotationValue(annotation, "value").orElse(null);
        String text = textValue == null ? "" : String.valueOf(textValue.getValue());
        AnnotationValue protocolValue = ProtocolRegistry.annotationValue(annotation, "protocol").orElse(null);
        TypeElement protocol = protocolValue != null && protocolValue.getValue() instanceof DeclaredType declared
                ? (TypeElement) declared.asElement() : null;
        if (!text.isBlank() && protocol != null) {
            problems.add("give either the session type or the protocol class, not both");
            return null;
        }
        if (protocol != null) {
            if (!ProtocolRegistry.isProtocol(protocol)) {
                problems.add("'" + protocol.getQualifiedName() + "' is not a @Protocol interface");
                return null;
            }
            if (ProtocolRegistry.isSetProtocol(protocol)) {
                problems.add("'" + protocol.getQualifiedName() + "' is a set protocol: a session parameter has one"
                        + " session type (a member's protocol, or its text)");
                return null;
            }
            SessionType declared = registry.definition(protocol) instanceof ProtocolDefinition.Valid valid
                    ? valid.expanded() : null;
            if (declared != null && (api.isService(parameter.asType()) || api.isServerSocket(parameter.asType()))
                    && org.sessionj.processor.internal.model.TypeModel.beginSide(declared).isEmpty()) {
                problems.add("'" + protocol.getQualifiedName() + "' has no begin (cbegin or sbegin), so it types part "
                        + "of a session, not a " + (api.isService(parameter.asType()) ? "service (give it a protocol "
                        + "that begins with cbegin)" : "server socket (give it a protocol that begins with sbegin)"));
                return null;
            }
            return declared;
        }
        if (text.isBlank()) {
            problems.add("give the remaining session type, @Session(\"?(int).!<int>\"), or a protocol class, "
                    + "@Session(protocol = P.class)");
            return null;
        }
        Element scope = parameter.getEnclosingElement().getEnclosingElement();
        String protocolName = protocolNamed(text.strip(), scope);
        if (protocolName != null) {
            // adv15 A24: the protocol's name where its type belongs; say the fix rather than "syntax error".
            problems.add("'" + protocolName + "' names a @Protocol interface, not a session type: write"
                    + " @Session(protocol = " + protocolName + ".class)");
            return null;
        }
        List<String> found = new ArrayList<>();
        SessionType resolved = registry.resolveText(text, scope, found).orElse(null);
        SessionType type = resolved == null ? null : registry.expandResolved(resolved, found).orElse(null);
        problems.addAll(found);
        return type;
    }

    /**
     * {@code text} if it is a Java name ({@code Greet}, {@code Protocols.Greet}) that resolves, in
     * {@code scope}, to a {@code @Protocol} interface; null otherwise (then it is read as a session type).
     */
    private String protocolNamed(String text, Element scope) {
        if (text.isEmpty() || !Character.isJavaIdentifierStart(text.charAt(0))) {
            return null;
        }
        for (int i = 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isJavaIdentifierPart(c) && !(c == '.' && text.charAt(i - 1) != '.')) {
                return null;
            }
        }
        if (text.endsWith(".") || text.equals("cbegin") || text.equals("sbegin") || text.equals("rec")) {
            return null;
        }
        List<String> problems = new ArrayList<>();
        return registry.resolveText("@(" + text + ")", scope, problems).isPresent() && problems.isEmpty() ? text
                : null;
    }

    private static Tree annotationTree(VariableTree declaration) {
        for (AnnotationTree annotation : declaration.getModifiers().getAnnotations()) {
            String type = annotation.getAnnotationType().toString();
            if (type.equals("Session") || type.endsWith(".Session")) {
                return annotation;
            }
        }
        return declaration;
    }

}
