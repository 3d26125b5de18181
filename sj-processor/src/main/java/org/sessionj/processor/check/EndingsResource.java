package org.sessionj.processor.check;

import java.io.IOException;
import java.io.OutputStream;
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
import javax.tools.FileObject;
import javax.tools.StandardLocation;
import org.sessionj.processor.internal.facts.CompiledFacts;

/**
 * Carries {@link LentSessions}' answers from the compilation of a class to the compilations that use
 * it from the class path or the module path (another Maven module, a library jar): which methods and constructors end
 * a socket parameter (close, delegate, spawn or register it, or lend it to one that does), and how.
 * Invariant: <em>a call to a method compiled with the processor ends the caller's session exactly
 * when it would if the method's source were compiled with the call</em>. For every class with such
 * methods the processor writes {@code META-INF/sessionj/ends/<binary name>.txt} to the class output,
 * one line per ended parameter: {@code <index> TAB <hands over: 0|1> TAB <name(erased parameter
 * types)> TAB <how>}; a class whose methods end none has no file (a stale one from an earlier build
 * of the same output is deleted). A method known only from a class file is looked up there; a class
 * compiled without the processor has no file, and its methods are taken not to end their socket
 * (docs/diagnostics.md, "What is not checked").
 */
final class EndingsResource {
    static final String DIRECTORY = "META-INF/sessionj/ends/";
    private static final String SUFFIX = ".txt";

    private final ProcessingEnvironment environment;
    private final CompiledFacts facts;
    /** Per binary class name, the lines read from the class path by method key and index (absent: none). */
    private final Map<String, Map<String, String[]>> read = new HashMap<>();

    EndingsResource(ProcessingEnvironment environment) {
        this.environment = environment;
        this.facts = new CompiledFacts(environment.getFiler(), environment.getElementUtils());
    }

    /** One parameter a method of the class being written ends. */
    record Ending(ExecutableElement method, int index, boolean handsOver, String how) {}

    /**
     * Writes the endings of the methods of {@code type} (those declared in it, not in its member
     * classes), or deletes the file an earlier build left when there are none.
     */
    void write(TypeElement type, List<Ending> endings) {
        String path = DIRECTORY + binaryName(type) + SUFFIX;
        if (endings.isEmpty()) {
            // The Filer's files cannot be deleted through it: only a file in a class output directory can
            // be stale (an in-memory output starts empty).
            try {
                java.net.URI uri = environment.getFiler().getResource(StandardLocation.CLASS_OUTPUT, "", path).toUri();
                if ("file".equals(uri.getScheme())) {
                    java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(uri));
                }
            } catch (IOException | IllegalArgumentException | IllegalStateException | UnsupportedOperationException e) {
                // nothing there, or an output that cannot hold one
            }
            return;
        }
        StringBuilder text = new StringBuilder("# sj-processor: socket parameters these methods end\n");
        for (Ending ending : endings) {
            text.append(ending.index()).append('\t').append(ending.handsOver() ? 1 : 0).append('\t')
                    .append(key(ending.method())).append('\t').append(ending.how().replace('\n', ' ')).append('\n');
        }
        try {
            FileObject file = environment.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", path, type);
            try (OutputStream out = file.openOutputStream()) {
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | IllegalStateException e) {
            environment.getMessager().printMessage(Kind.WARNING, "sj-processor: cannot write " + path + ": "
                    + e.getMessage() + "; callers compiled against the class file take its methods not to end"
                    + " their sockets", type);
        }
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
        Map<String, String[]> lines = read.get(binaryName(owner));
        if (lines == null) {
            lines = load(owner, binaryName(owner));
            read.put(binaryName(owner), lines);
        }
        return lines.isEmpty() ? null : lines.get(key(method) + "#" + method.getParameters().indexOf(parameter));
    }

    private Map<String, String[]> load(TypeElement owner, String binaryName) {
        Map<String, String[]> lines = new HashMap<>();
        String text = facts.read(owner, DIRECTORY + binaryName + SUFFIX); // the class path or its module
        if (text == null) {
            return Map.of(); // compiled without the processor, or ends nothing
        }
        for (String line : text.split("\n")) {
            String[] fields = line.split("\t", 4);
            if (!line.startsWith("#") && fields.length == 4) {
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
