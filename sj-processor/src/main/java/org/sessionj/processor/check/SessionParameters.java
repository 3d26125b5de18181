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
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import com.sun.source.util.Trees;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.processor.internal.protocol.ProtocolDefinition;
import org.sessionj.processor.internal.protocol.ProtocolRegistry;
import org.sessionj.processor.internal.model.ProtocolTextException;
import org.sessionj.types.SessionType;

/**
 * The session types of {@code @Session} socket parameters: {@code @Session("…")} resolved in the
 * method's class, or {@code @Session(protocol = P.class)}; without the begin action. Cached per
 * parameter for the whole compilation (callers in other classes look them up too). Invariant: <em>a
 * method's {@code @Session("…")} type is the same whether its class is compiled now or known from its
 * class file</em>: a class file keeps no imports, so for one the type its own compilation resolved and
 * recorded ({@link EndingsResource}) is read, and the text is resolved again only when there is no record.
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
    /** The compilation's trees, telling a class compiled now from one known by its class file; null: none. */
    private Trees trees;
    /** Where a class file's resolved {@code @Session} texts are read; null: none. */
    private EndingsResource recorded;

    SessionParameters(SessionApi api, ProtocolRegistry registry) {
        this.api = api;
        this.registry = registry;
    }

    /**
     * Reads the {@code @Session("…")} types of methods known from class files ({@code trees} has no tree
     * for them) from what their compilations recorded in {@code endings}.
     */
    void readRecordedTypesFrom(Trees compilation, EndingsResource endings) {
        this.trees = compilation;
        this.recorded = endings;
    }

    /**
     * The type {@code parameter}'s {@code @Session("…")} text resolved to, with binary names, for its
     * compilation to record ({@link EndingsResource}); null when it is not given as text or is invalid.
     */
    String resolvedText(VariableElement parameter) {
        AnnotationMirror annotation = sessionAnnotation(parameter);
        AnnotationValue text = annotation == null ? null
                : ProtocolRegistry.annotationValue(annotation, "value").orElse(null);
        if (text == null || String.valueOf(text.getValue()).isBlank()) {
            return null;
        }
        SessionType declared = of(parameter, null, null).declared();
        return declared == null ? null : TypeModel.print(declared);
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

    private AnnotationMirror sessionAnnotation(VariableElement parameter) {
        AnnotationMirror annotation = null;
        for (AnnotationMirror mirror : parameter.getAnnotationMirrors()) {
            if (mirror.getAnnotationType().asElement().equals(api.sessionAnnotation())) {
                annotation = mirror;
            }
        }
        return annotation;
    }

    private Resolved resolve(VariableElement parameter) {
        AnnotationMirror annotation = sessionAnnotation(parameter);
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
        SessionType fromClassFile = recordedType(parameter);
        if (fromClassFile != null) {
            return fromClassFile;
        }
        List<String> found = new ArrayList<>();
        SessionType resolved = registry.resolveText(text, scope, found).orElse(null);
        SessionType type = resolved == null ? null : registry.expandResolved(resolved, found).orElse(null);
        problems.addAll(found);
        return type;
    }

    /** What the compilation of {@code parameter}'s method recorded as its type, if the method is known from a class file. */
    private SessionType recordedType(VariableElement parameter) {
        if (recorded == null || !(parameter.getEnclosingElement() instanceof ExecutableElement method)
                || trees.getTree(method) != null) {
            return null;
        }
        String text = recorded.sessionType(method, parameter);
        try {
            return text == null ? null : TypeModel.parse(text);
        } catch (ProtocolTextException | IllegalArgumentException e) {
            return null; // a record this processor cannot read: the text, resolved as written
        }
    }

    /**
     * Why a class file's {@code @Session} type may not resolve, for the messages of the calls that lend to it:
     * without its compilation's record, the text is read without the class's imports.
     */
    static String elsewhereHint(ExecutableElement method) {
        String owner = method.getEnclosingElement().getSimpleName().toString();
        return "compile " + owner + " to see why; known from its class file, its @Session text is read without "
                + owner + "'s imports unless its compilation recorded the resolved type: rebuild " + owner
                + " with this sj-processor, or write the types' qualified names";
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
