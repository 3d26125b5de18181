package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Protocols compiled earlier (on the class path): read from their descriptor, else from the annotation. */
class ClassPathProtocolTest {
    @TempDir
    Path library;

    private void compileLibrary(String source) throws IOException {
        Path file = library.resolve("src/demo/Remote.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(null, null, null, "-proc:none", "-d", library.resolve("classes").toString(),
                "-cp", System.getProperty("java.class.path"), file.toString());
        assertThat(status).isZero();
    }

    private Compilation compileClient(String client) {
        List<File> classPath = new ArrayList<>();
        classPath.add(library.resolve("classes").toFile());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            classPath.add(new File(entry));
        }
        return javac().withProcessors(new SessionProcessor()).withClasspath(classPath)
                .compile(CompilerHarness.source(client));
    }

    private static final String CLIENT = """
            package app;
            import org.sessionj.api.*;
            import demo.Remote;
            class Client {
                void run() {
                    try (SJSocket s = SJService.create(Remote.class, "h", 1).request()) {
                        s.send(42);
                    }
                }
            }
            """;

    @Test
    void theGeneratedDescriptorIsTheTruth() throws IOException {
        compileLibrary("""
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<int>")
                public interface Remote {}
                """);
        Path descriptor = library.resolve("classes/META-INF/sessionj/protocols/demo.Remote.sj");
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "cbegin.!<java.lang.String>", StandardCharsets.UTF_8);
        Compilation compilation = compileClient(CLIENT);
        assertThat(compilation).failed();
        assertThat(compilation.errors()).hasSize(1);
        assertThat(compilation.errors().get(0).getMessage(Locale.ROOT))
                .isEqualTo("[SJ013] session 's': expected !<java.lang.String> but the program sends !<int>");
    }

    @Test
    void withoutADescriptorTheAnnotationIsResolvedFromTheClassFile() throws IOException {
        compileLibrary("""
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<int>.?(String)")
                public interface Remote {}
                """);
        Compilation compilation = compileClient(CLIENT);
        assertThat(compilation).failed();
        assertThat(compilation.errors()).hasSize(1);
        assertThat(compilation.errors().get(0).getMessage(Locale.ROOT))
                .isEqualTo("[SJ024] session 's' is not complete at the end of its try-with-resources block: "
                        + "?(java.lang.String) remains");
    }

    private static final String SET_LIBRARY = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Remote {
                @Protocol("sbegin.?(int)") interface A {}
                @Protocol("sbegin.?(String)") interface B {}
                @Protocol("{@(A)}") interface Set {}
            }
            """;

    private static String selectingClient(String member, String receive) {
        return """
                package app;
                import org.sessionj.api.*;
                import demo.Remote;
                class Client {
                    private final SJSelector selector = SJSelector.of(Remote.Set.class);
                    void run() {
                        SJSocket s = selector.select();
                        switch (selector.typecase(s)) {
                            case "%s" -> {
                                %s
                                s.close();
                            }
                        }
                    }
                }
                """.formatted(member, receive);
    }

    @Test
    void aSetProtocolWithoutADescriptorIsResolvedFromTheClassFile() throws IOException {
        compileLibrary(SET_LIBRARY);
        Compilation compilation = compileClient(selectingClient("A", "int x = s.receive();"));
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void aSetProtocolsDescriptorIsTheTruth() throws IOException {
        compileLibrary(SET_LIBRARY);
        Path descriptor = library.resolve("classes/META-INF/sessionj/protocols/demo.Remote$Set.sj");
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "{@(demo.Remote$B)}", StandardCharsets.UTF_8);
        assertThat(compileClient(selectingClient("B", "String x = s.receive();"))).succeededWithoutWarnings();
        Compilation asAnnotated = compileClient(selectingClient("A", "int x = s.receive();"));
        assertThat(asAnnotated).failed();
        assertThat(asAnnotated.errors().get(0).getMessage(Locale.ROOT)).contains("label 'A' is not one of the labels B");
    }
}
