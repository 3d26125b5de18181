package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/** Compiles Java sources given as text blocks with the processor, and asserts on the outcome. */
final class CompilerHarness {
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile(
            "^(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+)*(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:public\\s+|final\\s+)*"
                    + "(?:class|interface|record|enum)\\s+(\\w+)", Pattern.MULTILINE);

    private CompilerHarness() {
    }

    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)", Pattern.MULTILINE);

    static JavaFileObject source(String text) {
        Matcher pkg = PACKAGE.matcher(text);
        String prefix = pkg.find() ? pkg.group(1) + "." : "";
        Matcher publicType = PUBLIC_TYPE.matcher(text);
        if (publicType.find()) {
            return JavaFileObjects.forSourceString(prefix + publicType.group(1), text);
        }
        Matcher type = TYPE.matcher(text);
        if (!type.find()) {
            throw new IllegalArgumentException("no top-level type in\n" + text);
        }
        return JavaFileObjects.forSourceString(prefix + type.group(1), text);
    }

    static Compilation compile(String... sources) {
        List<JavaFileObject> files = new ArrayList<>();
        for (String text : sources) {
            files.add(source(text));
        }
        return javac().withProcessors(new SessionProcessor()).compile(files);
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
