package org.sessionj.processor.check;

import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import org.sessionj.processor.internal.facts.CompiledFacts;
import org.sessionj.processor.internal.flow.VarState;
import org.sessionj.processor.internal.model.TypeModel;
import org.sessionj.types.SessionType;

/**
 * The facts other classes' checks read from a class's {@code final} service, server-socket and
 * typed-selector fields ({@link DeclarationFacts}), as text for {@link CheckedUsersIndex}'s fingerprint
 * (SJ009). Invariant: <em>the text is the same whether the class is compiled now or known from its class
 * file</em>: a field's initializer is not in the class file, so its compilation records the text under
 * {@code META-INF/sessionj/fields/<binary name>.txt} in the class output, and a later compilation reads it
 * from the class path (a class compiled without the processor, or with no such fields, has none: empty).
 */
final class FieldFacts {
    static final String DIRECTORY = "META-INF/sessionj/fields/";
    private static final String DIRECTORY_NAME = "fields";
    private static final String SUFFIX = ".txt";
    /** The fact of a record component's accessor that returns the component as constructed ({@link RecordEndpoints}). */
    static final String ACCESSOR_KEEPS = "accessor keeps its constructor argument";
    private static final String HEADER = "# sj-processor: what other classes' checks read from these final fields";

    private final ProcessingEnvironment environment;
    private final CompiledFacts compiled;
    private final Trees trees;
    private final SessionApi api;
    private final DeclarationFacts facts;
    /** The output's {@code META-INF/sessionj} directory, or null when the output is not a directory. */
    private final Path sessionj;
    /** Whether the output holds the fields directory (null: not looked yet). */
    private Boolean fieldsDirectory;

    FieldFacts(ProcessingEnvironment environment, Trees trees, SessionApi api, DeclarationFacts facts, Path sessionj) {
        this.environment = environment;
        this.compiled = new CompiledFacts(environment.getFiler(), environment.getElementUtils());
        this.trees = trees;
        this.api = api;
        this.facts = facts;
        this.sessionj = sessionj;
    }

    /**
     * The facts of {@code type}'s {@code final} service, server-socket and typed-selector fields, one line
     * each ({@code name TAB fact}): from {@link DeclarationFacts} when the type is compiled now, else as
     * its compilation recorded them under {@link #DIRECTORY} (empty when it recorded none).
     */
    String of(TypeElement type) {
        if (trees.getTree(type) == null) {
            return recorded(type);
        }
        StringBuilder text = new StringBuilder();
        for (Element member : type.getEnclosedElements()) {
            if (member instanceof VariableElement field && member.getKind() == ElementKind.FIELD
                    && field.getModifiers().contains(Modifier.FINAL)) {
                String fact = null;
                if (api.isSelector(field.asType())) {
                    Map<String, SessionType> members = facts.selectorField(field);
                    if (members != null) {
                        StringBuilder printed = new StringBuilder("selector");
                        for (Map.Entry<String, SessionType> entry : new TreeMap<>(members).entrySet()) {
                            printed.append(' ').append(entry.getKey()).append('=').append(print(entry.getValue()));
                        }
                        fact = printed.toString();
                    }
                } else if (api.isService(field.asType()) || api.isServerSocket(field.asType())) {
                    VarState state = facts.endpointField(field);
                    fact = state instanceof VarState.Endpoint endpoint
                            ? "endpoint " + print(endpoint.protocol()) : state == null ? null : "unknown";
                }
                if (fact != null) {
                    text.append('\n').append(field.getSimpleName()).append('\t').append(fact);
                }
            }
        }
        if (type.getKind() == ElementKind.RECORD) {
            for (RecordComponentElement component : ElementFilter.recordComponentsIn(type.getEnclosedElements())) {
                if ((api.isService(component.asType()) || api.isServerSocket(component.asType()))
                        && RecordEndpoints.keeps(trees, environment.getTypeUtils(), type, component)) {
                    text.append('\n').append(component.getSimpleName()).append("()\t").append(ACCESSOR_KEEPS)
                            .append(declaredSession(type, component));
                }
            }
        }
        return text.toString();
    }

    /**
     * The {@code @Session} of a record component's canonical constructor parameter as a fact's tail ({@code " as
     * protocol=lib.Lib$C1"}, {@code " as type=!<int>"}), or empty: a user checked its sessions against it, so a
     * change must change the fact (adv16 A10: {@code -Dsessionj.checkUsers} missed a component whose protocol
     * changed in a rebuilt library).
     */
    private String declaredSession(TypeElement record, RecordComponentElement component) {
        VariableElement parameter = ImplementationContracts.canonicalParameter(record, component);
        if (parameter == null) {
            return "";
        }
        for (javax.lang.model.element.AnnotationMirror annotation : parameter.getAnnotationMirrors()) {
            if (!annotation.getAnnotationType().asElement().equals(api.sessionAnnotation())) {
                continue;
            }
            StringBuilder tail = new StringBuilder();
            for (Map.Entry<? extends javax.lang.model.element.ExecutableElement,
                    ? extends javax.lang.model.element.AnnotationValue> entry : annotation.getElementValues().entrySet()) {
                Object value = entry.getValue().getValue();
                String text = value instanceof javax.lang.model.type.DeclaredType declared
                        && declared.asElement() instanceof TypeElement protocol
                        ? environment.getElementUtils().getBinaryName(protocol).toString() : String.valueOf(value);
                tail.append(tail.length() == 0 ? " as " : " ").append(entry.getKey().getSimpleName()).append('=')
                        .append(text);
            }
            return tail.toString();
        }
        return "";
    }

    /** A type as text; a fact may hold none (a protocol that did not resolve). */
    private static String print(SessionType type) {
        return type == null ? "none" : TypeModel.print(type);
    }

    /**
     * Records the field facts of {@code type} (a top-level class compiled now) and of its member types for
     * compilations that read them from the class path, under {@link #DIRECTORY}: {@code withFields} are the
     * types that declare final endpoint or selector fields; another's record from an earlier build of the
     * same output is deleted (its fingerprint read from the class path would otherwise hold stale facts).
     */
    void record(TypeElement type, Set<Element> withFields) {
        Path directory = sessionj.resolve(DIRECTORY_NAME);
        // A type with such fields gets a record even when it holds no fact (the header alone): its absence
        // then says the class was compiled without the processor (SJ010's message, jpms report14).
        String text = withFields.contains(type) ? of(type) : null;
        Path file = directory.resolve(environment.getElementUtils().getBinaryName(type) + SUFFIX);
        try {
            if (text != null) {
                Files.createDirectories(directory);
                Files.writeString(file, HEADER + text + "\n", StandardCharsets.UTF_8);
                fieldsDirectory = Boolean.TRUE;
            } else if (fieldsDirectory == null ? (fieldsDirectory = Files.isDirectory(directory)) : fieldsDirectory) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            environment.getMessager().printMessage(javax.tools.Diagnostic.Kind.WARNING, "sj-processor: cannot write "
                    + file + ": " + e.getMessage());
        }
        for (Element member : type.getEnclosedElements()) {
            if (member instanceof TypeElement nested) {
                record(nested, withFields);
            }
        }
    }

    private String recorded(TypeElement type) {
        String recorded = recorded(environment, compiled, type);
        return recorded == null ? "" : recorded;
    }

    /**
     * What the compilation of {@code type}, known from its class file, recorded: "" when nothing, null when
     * there is no record at all (a class with final endpoint fields compiled without the processor, or a
     * class without such fields).
     */
    static String recorded(ProcessingEnvironment environment, CompiledFacts compiled, TypeElement type) {
        String text = compiled.read(type, DIRECTORY + environment.getElementUtils().getBinaryName(type) + SUFFIX);
        if (text == null) {
            return null;
        }
        return text.startsWith(HEADER) ? text.substring(HEADER.length()).stripTrailing() : "";
    }

    /**
     * In {@link #byName}'s map of a class without a record, the key that says so (no member has this name):
     * {@link #unrecorded}.
     */
    private static final String NO_RECORD = "#no record";

    /** Whether {@link #byName}'s {@code facts} are of a class without a record ({@link #recorded} null). */
    static boolean unrecorded(Map<String, String> facts) {
        return facts.containsKey(NO_RECORD);
    }

    /**
     * The facts of {@link #recorded} text by member name ({@code SVC}, or {@code svc()} for a record's
     * accessor); for null (no record), a map that {@link #unrecorded} tells.
     */
    static Map<String, String> byName(String recorded) {
        if (recorded == null) {
            return Map.of(NO_RECORD, "");
        }
        Map<String, String> facts = new java.util.HashMap<>();
        for (String line : recorded.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                facts.put(line.substring(0, tab), line.substring(tab + 1));
            }
        }
        return facts;
    }
}
