package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles Java sources given as text blocks with the processor, and asserts on the outcome. */
final class CompilerHarness {
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile(
            "^(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+)*(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:public\\s+|final\\s+)*"
                    + "(?:class|interface|record|enum)\\s+(\\w+)", Pattern.MULTILINE);

    /** Opens files on disk as javac's own file manager does, so that javac sees them on its source path too. */
    private static final StandardJavaFileManager FILES =
            ToolProvider.getSystemJavaCompiler().getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);

    private static final Path SOURCE_TREES = Path.of("target", "compile-tests");

    private CompilerHarness() {
    }

    private static final Pattern FILE_NAME = Pattern.compile("\\A\\s*// file: (\\w+)\\.java\\s*$", Pattern.MULTILINE);
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)", Pattern.MULTILINE);

    static JavaFileObject source(String text) {
        return JavaFileObjects.forSourceString(typeName(text), text);
    }

    /**
     * The qualified name the file is named after: a leading {@code // file: Name.java} comment names it
     * (javac allows a file to declare only non-public types that are named otherwise), else its public
     * type, else its first top-level type.
     */
    private static String typeName(String text) {
        Matcher pkg = PACKAGE.matcher(text);
        String prefix = pkg.find() ? pkg.group(1) + "." : "";
        Matcher file = FILE_NAME.matcher(text);
        if (file.find()) {
            return prefix + file.group(1);
        }
        Matcher publicType = PUBLIC_TYPE.matcher(text);
        if (publicType.find()) {
            return prefix + publicType.group(1);
        }
        Matcher type = TYPE.matcher(text);
        if (!type.find()) {
            throw new IllegalArgumentException("no top-level type in\n" + text);
        }
        return prefix + type.group(1);
    }

    /**
     * Compiles the sources the way Maven does: each is written to a source tree on disk (its package's
     * directory, named after its public or first type) and javac gets that tree as {@code -sourcepath}
     * too. Extra javac {@code options} may be given with {@link #compileWith}.
     */
    static Compilation compile(String... sources) {
        return compileWith(List.of(), sources);
    }

    /** {@link #compile} with extra javac options. */
    static Compilation compileWith(List<String> options, String... sources) {
        Path root;
        try {
            // Under target/ and kept: javac reads a file again when a diagnostic's line is asked for.
            Files.createDirectories(SOURCE_TREES);
            root = Files.createTempDirectory(SOURCE_TREES, "unit");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<JavaFileObject> files = new ArrayList<>();
        for (String text : sources) {
            files.add(onDisk(root, text));
        }
        List<String> all = new ArrayList<>(List.of("-sourcepath", root.toString()));
        all.addAll(options);
        return javac().withProcessors(new SessionProcessor()).withOptions(all).compile(files);
    }

    private static JavaFileObject onDisk(Path root, String text) {
        Path file = root.resolve(typeName(text).replace('.', '/') + ".java");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
            return FILES.getJavaFileObjects(file).iterator().next();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts the sources compile with no error, warning or note at all. */
    static Compilation assertAccepted(String... sources) {
        Compilation compilation = compile(sources);
        assertThat(compilation.diagnostics()).as("diagnostics").isEmpty();
        assertThat(compilation).succeededWithoutWarnings();
        return compilation;
    }

    /**
     * Asserts the sources fail with exactly one error, with the given code, on the given line (of the
     * first source), whose message contains every fragment.
     */
    static Diagnostic<? extends JavaFileObject> assertRejected(String code, long line, String[] fragments,
            String... sources) {
        Compilation compilation = compile(sources);
        List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>(compilation.errors());
        assertThat(errors).as("errors of\n" + describe(compilation)).hasSize(1);
        Diagnostic<? extends JavaFileObject> error = errors.get(0);
        String message = error.getMessage(Locale.ROOT);
        assertThat(message).as("message").startsWith("[" + code + "]");
        if (line > 0) {
            assertThat(error.getLineNumber()).as("line of " + message).isEqualTo(line);
        }
        for (String fragment : fragments) {
            assertThat(message).contains(fragment);
        }
        return error;
    }

    /**
     * {@link #assertAccepted} for the sources given to javac in every order. javac analyses, lowers and
     * generates one top-level class after another, so a check that reads another class's declaration
     * must find the same answer whether that class was compiled before or after (Maven passes files in
     * directory order).
     */
    static void assertAcceptedInEveryOrder(String... sources) {
        for (String[] order : orders(sources)) {
            assertAccepted(order);
        }
    }

    /** {@link #assertRejected} for the sources given to javac in every order (see {@link #assertAcceptedInEveryOrder}). */
    static void assertRejectedInEveryOrder(String code, long line, String[] fragments, String... sources) {
        for (String[] order : orders(sources)) {
            assertRejected(code, line, fragments, order);
        }
    }

    private static List<String[]> orders(String[] sources) {
        List<String[]> orders = new ArrayList<>();
        permute(new ArrayList<>(List.of(sources)), 0, orders);
        return orders;
    }

    private static void permute(List<String> sources, int from, List<String[]> orders) {
        if (from == sources.size()) {
            orders.add(sources.toArray(new String[0]));
            return;
        }
        for (int i = from; i < sources.size(); i++) {
            java.util.Collections.swap(sources, from, i);
            permute(sources, from + 1, orders);
            java.util.Collections.swap(sources, from, i);
        }
    }

    /**
     * The descriptor in the text of a {@code .sj} resource the processor wrote: what precedes its record,
     * the {@code // source} lines that say which {@code @Protocol} texts it was made from (SJ009).
     */
    static String descriptorOf(String resource) {
        int record = resource.indexOf("\n// source ");
        return record < 0 ? resource : resource.substring(0, record);
    }

    static String[] msg(String... fragments) {
        return fragments;
    }

    static String describe(Compilation compilation) {
        StringBuilder out = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> d : compilation.diagnostics()) {
            out.append(d.getKind()).append(" line ").append(d.getLineNumber()).append(": ")
                    .append(d.getMessage(Locale.ROOT)).append('\n');
        }
        return out.toString();
    }
}
