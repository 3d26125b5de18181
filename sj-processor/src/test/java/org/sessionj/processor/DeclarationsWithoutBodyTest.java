package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @Session} types on methods without a body (an interface's, abstract, native): their callers
 * and implementations are checked against them, so an invalid one must be reported at its declaration
 * (SJ007), and a call to one compiled elsewhere must not silently stop tracking the caller's socket.
 */
class DeclarationsWithoutBodyTest {
    private static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.?(String)") interface C {}
            }
            """;

    @Test
    void anInterfaceMethodsInvalidSessionTypeIsReportedAtItsDeclaration() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 's'", "SJ001"), """
                package demo;
                import org.sessionj.api.*;
                interface Step {
                    void run(@Session("!<int") SJSocket s);
                }
                """, PROTOCOLS);
    }

    @Test
    void anAbstractMethodsUnknownMessageTypeIsReportedAtItsDeclaration() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 's'", "unknown Java type 'Nope'"), """
                package demo;
                import org.sessionj.api.*;
                abstract class Step {
                    abstract void run(@Session("!<Nope>") SJSocket s);
                }
                """, PROTOCOLS);
    }

    @Test
    void aTypeVariableMessageTypeOnAnInterfaceMethodIsReportedAsOnAConcreteOne() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 's'"), """
                package demo;
                import org.sessionj.api.*;
                interface Handler<T> {
                    void handle(@Session("!<T>") SJSocket s, T value);
                }
                """, PROTOCOLS);
    }

    @Test
    void aNativeMethodsInvalidSessionTypeIsReported() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 's'"), """
                package demo;
                import org.sessionj.api.*;
                class Step {
                    static native void run(@Session("?(") SJSocket s);
                }
                """, PROTOCOLS);
    }

    @TempDir
    Path library;

    @Test
    void aCallToAnInvalidSessionMethodCompiledElsewhereIsReportedAtTheCall() throws IOException {
        Path file = library.resolve("src/lib/Step.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                package lib;
                import org.sessionj.api.*;
                public interface Step {
                    void run(@Session("!<int") SJSocket t);
                }
                """);
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-proc:none", "-d",
                library.resolve("classes").toString(), "-cp", System.getProperty("java.class.path"), file.toString());
        assertThat(status).isZero();
        List<File> classPath = new ArrayList<>();
        classPath.add(library.resolve("classes").toFile());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            classPath.add(new File(entry));
        }
        Compilation compilation = Compiler.javac().withProcessors(new SessionProcessor()).withClasspath(classPath)
                .compile(CompilerHarness.source(PROTOCOLS), CompilerHarness.source("""
                        package demo;
                        import org.sessionj.api.*;
                        class User {
                            void m(lib.Step step) {
                                try (SJSocket s = SJService.create(P.C.class, "h", 1).request()) {
                                    step.run(s);
                                    s.send(5);
                                }
                            }
                        }
                        """));
        assertThat(compilation.errors()).hasSize(1);
        assertThat(compilation.errors().get(0).getMessage(Locale.ROOT)).isEqualTo("[SJ010] session 's': its protocol "
                + "is not known at compile time; it is lent to 'run', whose @Session type of parameter 1 is invalid "
                + "(compile Step to see why; known from its class file, its @Session text is read without Step's imports"
                + " unless its compilation recorded the resolved type: rebuild Step with this sj-processor, or write the"
                + " types' qualified names)");
        assertThat(compilation.errors().get(0).getLineNumber()).isEqualTo(6);
    }
}
