package org.sessionj.processor.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic.Kind;
import org.sessionj.processor.internal.facts.CompiledFacts;
import org.sessionj.processor.internal.facts.OutputResources;

/**
 * Carries {@link UncheckedExits}' facts across a compilation boundary (adv20 A9): which methods an unchecked
 * exception may leave while a plain local session of theirs (or of a method they call) is live and incomplete,
 * and which exceptions. Invariant: <em>a call of a method compiled earlier with the processor meets the method's
 * unchecked exits exactly as it would if the method's source were compiled with the call</em> — another Maven
 * module's {@code try { Booker.book(x); } catch (DateTimeParseException e) { … }} is SJ024 as it is in one module.
 *
 * <p>At the end of each compilation the processor writes {@code META-INF/sessionj/exits/<binary name>.txt} for each
 * top-level class it checked for sessions or one of whose methods has an exit (a method that only calls one:
 * adv20 A10), with the lines of the class and its member classes; a class checked and without exits gets the
 * header line alone, which says "compiled with the processor, no exits". The format (docs/diagnostics.md, "Files
 * the processor writes"): the header {@value #HEADER}, then one line per method, tab-separated: the declaring class's
 * binary name, {@code name(erased parameter types)} ({@link EndingsResource#key}), whether the JDK's undeclared
 * failures leave it (1/0: taken by a catch that names one), the exception types that leave it (canonical names,
 * comma-separated; none: the JDK's failures only), the session's variable, the method it is in, what remains of
 * its type, what throws, and the way out since. Private methods and those of local and anonymous classes are not
 * written (no other compilation calls them). A class analysed now with neither gets its earlier file removed.
 *
 * <p>Read lazily: the first call of a method of a class known only from a class file reads that top-level class's
 * file once (the class path or its module, {@link CompiledFacts}); no file is probed for the JDK or SJ's own
 * classes. A class without the file was compiled without the processor — its code was never checked, and its
 * methods are taken to let no exit out (the runtime warns when such code runs a session) — or by an earlier
 * sj-processor that checked it: that one has a record under {@code META-INF/sessionj/checked-classes/}, and the
 * compilation warns once per such class (rebuild it; {@code -Werror} makes it fatal), as {@link EndingsResource} does.
 */
final class ExitsResource {
    static final String DIRECTORY = "META-INF/sessionj/exits/";
    private static final String SUFFIX = ".txt";
    /** The first line: the format's version, which a reader checks ({@link #load}). */
    static final String HEADER = "# sj-processor exits 1: unchecked exceptions that may leave these methods with a"
            + " plain local session live";
    private static final String VERSION = "# sj-processor exits 1:";

    private final ProcessingEnvironment environment;
    private final CompiledFacts facts;
    private final OutputResources outputs;
    /** Per top-level binary name read from the class path: its lines by "declaring class TAB key" (absent: none). */
    private final Map<String, Map<String, String[]>> read = new HashMap<>();
    /** The classes warned about (an earlier processor's record, no exits file). */
    private final Set<String> warned = new HashSet<>();
    private TypeElement checking;

    ExitsResource(ProcessingEnvironment environment) {
        this.environment = environment;
        this.facts = new CompiledFacts(environment.getFiler(), environment.getElementUtils());
        this.outputs = new OutputResources(environment.getFiler());
    }

    /** The top-level class being checked (where a warning goes), null between checks. */
    void checking(TypeElement type) {
        this.checking = type;
    }

    /**
     * Writes the file of each of {@code classes} (top-level classes analysed in this compilation, by binary name)
     * that was checked for sessions ({@code checked}) or has a method in {@code exits}; removes it for the others.
     */
    void write(Map<String, TypeElement> classes, Set<String> checked, Map<ExecutableElement, UncheckedExits.Exit> exits) {
        Map<String, StringBuilder> texts = new HashMap<>();
        for (Map.Entry<ExecutableElement, UncheckedExits.Exit> entry : exits.entrySet()) {
            ExecutableElement method = entry.getKey();
            TypeElement top = topLevel(method);
            if (top == null || method.getModifiers().contains(javax.lang.model.element.Modifier.PRIVATE)) {
                continue;
            }
            String name = binaryName(top);
            if (!classes.containsKey(name)) {
                continue; // a method of a class file (overridden by this compilation's): its own compilation records it
            }
            StringBuilder text = texts.get(name);
            if (text == null) {
                text = new StringBuilder(HEADER).append('\n');
                texts.put(name, text);
            }
            line(text, method, entry.getValue());
        }
        for (Map.Entry<String, TypeElement> entry : classes.entrySet()) {
            String path = DIRECTORY + entry.getKey() + SUFFIX;
            StringBuilder text = texts.get(entry.getKey());
            try {
                if (text != null || checked.contains(entry.getKey())) {
                    String bytes = text != null ? text.toString() : HEADER + "\n";
                    outputs.write("", path, bytes.getBytes(StandardCharsets.UTF_8), entry.getValue());
                } else {
                    outputs.delete(path); // a class with exits before, and none now (incremental builds)
                }
            } catch (IOException | IllegalStateException e) {
                environment.getMessager().printMessage(Kind.WARNING, "sj-processor: cannot write " + path + ": "
                        + e.getMessage() + "; callers compiled against the class file do not see its methods' unchecked"
                        + " exits (SJ024)", entry.getValue());
            }
        }
    }

    private void line(StringBuilder text, ExecutableElement method, UncheckedExits.Exit exit) {
        StringBuilder thrown = new StringBuilder();
        for (TypeMirror type : exit.thrown()) {
            thrown.append(thrown.length() == 0 ? "" : ",").append(canonicalName(type));
        }
        text.append(binaryName((TypeElement) method.getEnclosingElement())).append('\t')
                .append(EndingsResource.key(environment, method)).append('\t').append(exit.jdkFailures() ? 1 : 0)
                .append('\t').append(thrown).append('\t').append(field(exit.session())).append('\t')
                .append(field(exit.owner())).append('\t').append(field(exit.remains())).append('\t')
                .append(field(exit.what())).append('\t').append(field(exit.through())).append('\n');
    }

    /** A type's canonical name ({@link javax.lang.model.util.Elements#getTypeElement} finds it); else RuntimeException. */
    private static String canonicalName(TypeMirror type) {
        return type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
                && element.getNestingKind() != NestingKind.LOCAL && element.getNestingKind() != NestingKind.ANONYMOUS
                ? element.getQualifiedName().toString() : "java.lang.RuntimeException";
    }

    private static String field(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * The exit {@code method}, a method of a class known only from a class file, may let out, as its compilation
     * recorded it; null if none is recorded (or the class is SJ's own or the JDK's).
     */
    UncheckedExits.Exit read(ExecutableElement method) {
        TypeElement top = topLevel(method);
        if (top == null || !(method.getEnclosingElement() instanceof TypeElement owner)) {
            return null;
        }
        String name = binaryName(top);
        if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("org.sessionj.api.") || name.startsWith("org.sessionj.runtime.")
                || name.startsWith("org.sessionj.transport.")) {
            return null;
        }
        Map<String, String[]> lines = read.get(name);
        if (lines == null) {
            lines = load(top, name);
            read.put(name, lines);
        }
        String[] fields = lines.get(binaryName(owner) + "\t" + EndingsResource.key(environment, method));
        if (fields == null) {
            return null;
        }
        List<TypeMirror> thrown = new ArrayList<>();
        if (!fields[3].isEmpty()) {
            for (String type : fields[3].split(",")) {
                TypeElement element = environment.getElementUtils().getTypeElement(type);
                thrown.add((element != null ? element
                        : environment.getElementUtils().getTypeElement("java.lang.RuntimeException")).asType());
            }
        }
        return new UncheckedExits.Exit(fields[4], fields[5], fields[6], fields[7], fields[8] + " (as the compilation of "
                + binaryName(owner) + " recorded in " + DIRECTORY + name + SUFFIX + ")", thrown, "1".equals(fields[2]));
    }

    private Map<String, String[]> load(TypeElement top, String name) {
        Map<String, String[]> lines = new HashMap<>();
        String text = facts.read(top, DIRECTORY + name + SUFFIX);
        if (text == null || !text.startsWith(VERSION)) {
            if (facts.read(top, CheckedMarker.RECORDS + name) != null) {
                warnUnrecorded(top, name, text == null ? "no " + DIRECTORY + name + SUFFIX
                        : DIRECTORY + name + SUFFIX + " of another format");
            }
            return lines;
        }
        for (String line : text.split("\n")) {
            String[] fields = line.split("\t", -1);
            if (!line.startsWith("#") && fields.length == 9) {
                lines.put(fields[0] + "\t" + fields[1], fields);
            }
        }
        return lines;
    }

    /** Once per class: checked by an sj-processor that recorded no exits, so its methods' are not known. */
    private void warnUnrecorded(TypeElement top, String name, String what) {
        if (!warned.add(name)) {
            return;
        }
        String message = "sj-processor: " + name + " was compiled by an earlier sj-processor (" + what + " in "
                + facts.where(top) + "), so which of its methods an unchecked exception may leave with a session live"
                + " is not known and none is taken to (SJ024 is not checked at the calls of them); rebuild " + name
                + " with this sj-processor";
        if (checking != null) {
            environment.getMessager().printMessage(Kind.WARNING, message, checking);
        } else {
            environment.getMessager().printMessage(Kind.WARNING, message);
        }
    }

    /** The top-level class {@code element} is a member of (through member classes only); null in a local class. */
    static TypeElement topLevel(Element element) {
        Element at = element instanceof TypeElement ? element : element.getEnclosingElement();
        while (at instanceof TypeElement type) {
            if (type.getNestingKind() == NestingKind.TOP_LEVEL) {
                return type;
            }
            if (type.getNestingKind() != NestingKind.MEMBER) {
                return null;
            }
            at = type.getEnclosingElement();
        }
        return null;
    }

    private String binaryName(TypeElement type) {
        return environment.getElementUtils().getBinaryName(type).toString();
    }
}
