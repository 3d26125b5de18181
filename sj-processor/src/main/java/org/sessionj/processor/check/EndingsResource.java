package org.sessionj.processor.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic.Kind;
import org.sessionj.processor.internal.facts.CompiledFacts;
import org.sessionj.processor.internal.facts.OutputResources;

/**
 * Carries {@link LentSessions}' answers from the compilation of a class to the compilations that use
 * it from the class path or the module path (another Maven module, a library jar): which methods and constructors end
 * a socket parameter (close, delegate, spawn or register it, or lend it to one that does), and how.
 * Invariant: <em>a call to a method compiled with the processor ends the caller's session exactly
 * when it would if the method's source were compiled with the call</em>. For every class with socket
 * parameters the processor writes {@code META-INF/sessionj/ends/<binary name>.txt} to the class output,
 * one line per ended parameter: {@code <index> TAB <hands over: 0|1> TAB <name(erased parameter
 * types)> TAB <how>}; a class whose methods end none gets the header line alone, the marker that says "compiled with
 * the processor, ends nothing" (jpms report14, adv13 A1 "fail closed"). A method known only from a class
 * file is looked up there. The same file carries each {@code @Session("…")} text of the class's methods as its
 * compilation resolved it, {@code type TAB <index> TAB <name(erased parameter types)> TAB <session type>} with
 * binary names (adv22 C6): a class file keeps no imports, so {@code @Session("!<List<String>>")} with
 * {@code import java.util.List} cannot be resolved again from it. A class compiled without the processor has no file: its methods are taken not
 * to end their socket, and the compilation warns once per such class, naming it, the method asked about
 * and where the record was looked for (docs/diagnostics.md, "What is not checked"). A warning, not an
 * error: a jar built by an sj-processor older than the marker has no file for a class that ends nothing,
 * and the runtime monitor still stops a later action on a session such a method closed; {@code -Werror}
 * makes it fatal.
 */
final class EndingsResource {
    static final String DIRECTORY = "META-INF/sessionj/ends/";
    private static final String SUFFIX = ".txt";

    private final ProcessingEnvironment environment;
    private final CompiledFacts facts;
    /** Where the records are written (straight into a class output directory, else through the Filer). */
    private final OutputResources outputs;
    /** Per binary class name, the lines read from the class path by method key and index (absent: none). */
    private final Map<String, Map<String, String[]>> read = new HashMap<>();
    /** The lines of a class without a record ({@link #load}), told apart by identity from an empty record. */
    private static final Map<String, String[]> UNRECORDED = java.util.Collections.unmodifiableMap(new HashMap<>());
    private static final String HEADER = "# sj-processor: socket parameters these methods end";
    /** The classes without a record warned about in this compilation. */
    private final java.util.Set<String> warned = new java.util.HashSet<>();
    private TypeElement checking;

    EndingsResource(ProcessingEnvironment environment) {
        this.environment = environment;
        this.facts = new CompiledFacts(environment.getFiler(), environment.getElementUtils());
        this.outputs = new OutputResources(environment.getFiler());
    }

    /** One parameter a method of the class being written ends. */
    record Ending(ExecutableElement method, int index, boolean handsOver, String how) {}

    /** The session type a {@code @Session("…")} parameter of a method of the class being written resolved to. */
    record SessionText(ExecutableElement method, int index, String type) {}

    /** The first field of a {@link SessionText} line (an ending's is its parameter's index). */
    private static final String TYPE_LINE = "type";

    /**
     * Writes the endings and the resolved {@code @Session} texts of the methods of {@code type} (those
     * declared in it, not in its member classes); with none, the header alone.
     */
    void write(TypeElement type, List<Ending> endings, List<SessionText> texts) {
        String path = DIRECTORY + binaryName(type) + SUFFIX;
        // No endings: the header alone, the marker that the class was compiled with the processor (it also
        // replaces a file an earlier build of the same output left).
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (Ending ending : endings) {
            text.append(ending.index()).append('\t').append(ending.handsOver() ? 1 : 0).append('\t')
                    .append(key(ending.method())).append('\t').append(ending.how().replace('\n', ' ')).append('\n');
        }
        for (SessionText typed : texts) {
            text.append(TYPE_LINE).append('\t').append(typed.index()).append('\t').append(key(typed.method()))
                    .append('\t').append(typed.type().replace('\n', ' ')).append('\n');
        }
        try {
            outputs.write("", path, text.toString().getBytes(StandardCharsets.UTF_8), type);
        } catch (IOException | IllegalStateException e) {
            environment.getMessager().printMessage(Kind.WARNING, "sj-processor: cannot write " + path + ": "
                    + e.getMessage() + "; callers compiled against the class file take its methods not to end"
                    + " their sockets", type);
        }
    }

    /**
     * The session type of {@code method}'s {@code @Session("…")} parameter {@code parameter} as its own
     * compilation resolved it (binary names), for a method known from a class file; null when nothing was
     * recorded (a class compiled without the processor, or by one older than the record).
     */
    String sessionType(ExecutableElement method, VariableElement parameter) {
        if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
            return null;
        }
        Map<String, String[]> lines = lines(owner);
        String[] typed = lines.get(TYPE_LINE + "\t" + key(method) + "#" + method.getParameters().indexOf(parameter));
        return typed == null ? null : typed[0];
    }

    private Map<String, String[]> lines(TypeElement owner) {
        Map<String, String[]> lines = read.get(binaryName(owner));
        if (lines == null) {
            lines = load(owner, binaryName(owner));
            read.put(binaryName(owner), lines);
        }
        return lines;
    }

    /**
     * The top-level class being checked, null between checks: where a warning about a class compiled
     * without the processor goes.
     */
    void checking(TypeElement type) {
        this.checking = type;
    }

    /**
     * How {@code method}, known from a class file, ends its parameter {@code parameter} as its own
     * compilation recorded it, with element 1 "1" if it hands it over (a session thread, a selector);
     * null if it does not or nothing was recorded.
     */
    String[] read(ExecutableElement method, VariableElement parameter) {
        if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
            return null;
        }
        Map<String, String[]> lines = lines(owner);
        if (lines == UNRECORDED) {
            if (annotatedSession(parameter)) {
                warnUnrecorded(owner, method);
            }
            return null;
        }
        return lines.isEmpty() ? null : lines.get(key(method) + "#" + method.getParameters().indexOf(parameter));
    }

    /**
     * Whether {@code parameter} is declared {@code @Session}: a session is lent only to such a parameter (the
     * annotation has class retention, so a class file keeps it). A plain socket parameter is a query that
     * cannot end the session ({@code SJRuntime.transportOf(s)}).
     */
    private static boolean annotatedSession(VariableElement parameter) {
        for (javax.lang.model.element.AnnotationMirror annotation : parameter.getAnnotationMirrors()) {
            if (annotation.getAnnotationType().asElement() instanceof TypeElement type
                    && type.getQualifiedName().contentEquals("org.sessionj.api.Session")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Once per class: {@code owner}, known from a class file, has no record, so whether {@code method} ends
     * its {@code @Session} socket parameter is unknown and taken as "no". Not for SJ's own API, runtime and
     * transports, which are not compiled with the processor and whose methods the checker knows.
     */
    private void warnUnrecorded(TypeElement owner, ExecutableElement method) {
        String name = binaryName(owner);
        if (name.startsWith("org.sessionj.api.") || name.startsWith("org.sessionj.runtime.")
                || name.startsWith("org.sessionj.transport.") || !warned.add(name)) {
            return;
        }
        String message = "sj-processor: " + name + " was compiled without sj-processor (no " + DIRECTORY + name
                + SUFFIX + " in " + facts.where(owner) + "), so whether " + key(method) + " ends the session it is"
                + " lent is not known and it is taken not to (a later action on that session is then not checked"
                + " against it); compile " + name + " with sj-processor (a jar built by an older sj-processor"
                + " has no record for a class whose methods end nothing: rebuild it with this one)";
        if (checking != null) {
            environment.getMessager().printMessage(Kind.WARNING, message, checking);
        } else {
            environment.getMessager().printMessage(Kind.WARNING, message);
        }
    }

    private Map<String, String[]> load(TypeElement owner, String binaryName) {
        Map<String, String[]> lines = new HashMap<>();
        String text = facts.read(owner, DIRECTORY + binaryName + SUFFIX); // the class path or its module
        if (text == null) {
            return UNRECORDED; // compiled without the processor
        }
        for (String line : text.split("\n")) {
            String[] fields = line.split("\t", 4);
            if (line.startsWith("#") || fields.length != 4) {
                continue;
            }
            if (fields[0].equals(TYPE_LINE)) {
                lines.put(TYPE_LINE + "\t" + fields[2] + "#" + fields[1], new String[] {fields[3]});
            } else {
                lines.put(fields[2] + "#" + fields[0], new String[] {fields[3], fields[1]});
            }
        }
        return lines;
    }

    private String key(ExecutableElement method) {
        return key(environment, method);
    }

    /**
     * {@code name(erased parameter types)}: the same from a method's source and from its class file (also
     * the method's key in {@link CheckedUsersIndex}'s fingerprints).
     */
    static String key(ProcessingEnvironment environment, ExecutableElement method) {
        StringBuilder key = new StringBuilder(method.getSimpleName()).append('(');
        List<? extends VariableElement> parameters = method.getParameters();
        for (int i = 0; i < parameters.size(); i++) {
            key.append(i == 0 ? "" : ",");
            erased(environment, environment.getTypeUtils().erasure(parameters.get(i).asType()), key);
        }
        return key.append(')').toString();
    }

    /** Binary names and primitive keywords, read off the type (its text would show type annotations). */
    private static void erased(ProcessingEnvironment environment, TypeMirror type, StringBuilder out) {
        if (type instanceof ArrayType array) {
            erased(environment, array.getComponentType(), out);
            out.append("[]");
        } else if (type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element) {
            out.append(environment.getElementUtils().getBinaryName(element));
        } else {
            out.append(type.getKind().name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    private String binaryName(Element type) {
        return environment.getElementUtils().getBinaryName((TypeElement) type).toString();
    }
}
