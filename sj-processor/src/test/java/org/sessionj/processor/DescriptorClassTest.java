package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.sessionj.processor.CompilerHarness.assertAccepted;

import com.google.testing.compile.Compilation;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.DiagnosticListener;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.sessionj.api.spi.ProtocolDescriptors;

/**
 * Every protocol's descriptor is also written as a class file ({@code P$$SJProtocol}) that hands the same
 * text to {@link ProtocolDescriptors}, which the runtime reads instead of the resource (issue 15, cold
 * start). The processor writes the bytes itself (no generated source, so no further javac round); these
 * tests load them with the JVM's verifier on, for nested, unpackaged and tricky-text protocols.
 */
class DescriptorClassTest {

    @Test
    void everyProtocolGetsADescriptorClassDefiningTheResourcesTextAndNoSource() throws Exception {
        Compilation compilation = assertAccepted("""
                package demo;
                import org.sessionj.api.Protocol;
                public class Outer {
                    @Protocol("!<String>.?(int)")
                    public interface Stream {}
                    @Protocol("{@(Stream)}")
                    interface Streams {}
                }
                """, """
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<int>")
                interface Unpackaged {}
                """);
        assertThat(compilation.generatedSourceFiles()).as("generated sources: javac would compile them in another round")
                .isEmpty();
        for (String protocol : List.of("demo.Outer$Stream", "demo.Outer$Streams", "Unpackaged")) {
            assertThat(defined(compilation, protocol + ProtocolDescriptors.CLASS_SUFFIX))
                    .as("the class of %s", protocol).contains(resource(compilation, protocol));
        }
        assertThat(resource(compilation, "demo.Outer$Stream")).isEqualTo("!<java.lang.String>.?(int)");
    }

    /**
     * The class file is written as a resource of the class output: javac neither compiles it nor enters
     * it, so it costs no processing round. A processor that counts rounds sees the one round and the
     * final one, as with no descriptor at all (a generated source or {@code Filer.createClassFile} would
     * add a round, in which javac enters every compilation unit again).
     */
    @Test
    void theDescriptorClassesCostJavacNoFurtherRound() {
        RoundCounter rounds = new RoundCounter();
        Compilation compilation = javac().withProcessors(rounds, new SessionProcessor()).compile(
                CompilerHarness.source("""
                        package demo;
                        import org.sessionj.api.Protocol;
                        @Protocol("cbegin.!<int>") interface Counted {}
                        """));
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "demo/Counted$$SJProtocol.class"))
                .isPresent();
        assertThat(rounds.rounds).isEqualTo(2);
    }

    /**
     * An incremental build as Maven runs it: the class output on the class path, a {@code -sourcepath},
     * {@code -Xlint:all -Werror}, the same output directory twice, the protocols changed in between. The
     * second build writes the class again (no "type already exists", no "duplicate class") with the new
     * text; {@code --release 21} changes nothing in it (the class is Java 21's either way).
     */
    @Test
    void anIncrementalBuildWithTheOutputOnTheClassPathRewritesTheClass() throws Exception {
        Path root = Files.createTempDirectory("descriptor-incremental");
        Path src = root.resolve("src");
        Path out = root.resolve("classes");
        Path generated = root.resolve("generated");
        Files.createDirectories(src.resolve("demo"));
        Files.createDirectories(out);
        Files.createDirectories(generated);
        Path protocols = src.resolve("demo/Protocols.java");
        Path client = src.resolve("demo/Client.java");
        Files.writeString(client, """
                package demo;
                class Client {
                    String name() { return "client"; }
                }
                """);
        for (String message : List.of("int", "String")) {
            Files.writeString(protocols, """
                    package demo;
                    import org.sessionj.api.Protocol;
                    record Point(int x, int y) {}
                    @Protocol("cbegin.!<Point>.?(%s)") interface Echo {}
                    @Protocol("sbegin.?(Point).!<%s>") interface EchoServer {}
                    """.formatted(message, message));
            List<String> diagnostics = compileOnDisk(List.of(protocols, client), "-d", out.toString(), "-s",
                    generated.toString(), "-cp", out + File.pathSeparator + apiJar(), "-sourcepath", src.toString(),
                    "--release", "21", "-Xlint:all", "-Werror");
            assertThat(diagnostics).as("build with ?(%s)", message).isEmpty();
            String expected = "cbegin.!<demo.Point>.?(" + (message.equals("int") ? "int" : "java.lang.String") + ")";
            byte[] bytes = Files.readAllBytes(out.resolve("demo/Echo$$SJProtocol.class"));
            assertThat(bytes[6] << 8 | bytes[7]).as("major version").isEqualTo(65);
            assertThat(ProtocolDescriptors.defined(Class.forName("demo.Echo$$SJProtocol", true,
                    new java.net.URLClassLoader(new java.net.URL[] {out.toUri().toURL()},
                            DescriptorClassTest.class.getClassLoader())))).contains(expected);
        }
        try (var files = Files.list(generated)) {
            assertThat(files).as("generated sources").isEmpty();
        }
    }

    /** Compiles {@code files} on disk with javac's own file manager and the processor; every diagnostic, as text. */
    private static List<String> compileOnDisk(List<Path> files, String... options) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> diagnostics = new ArrayList<>();
        DiagnosticListener<JavaFileObject> listener = d -> diagnostics.add(d.getKind() + ": " + d.getMessage(null));
        try (StandardJavaFileManager manager = javac.getStandardFileManager(listener, null, StandardCharsets.UTF_8)) {
            JavaCompiler.CompilationTask task = javac.getTask(null, manager, listener, List.of(options), null,
                    manager.getJavaFileObjectsFromPaths(files));
            task.setProcessors(List.of(new SessionProcessor()));
            boolean ok = task.call();
            if (!ok && diagnostics.isEmpty()) {
                diagnostics.add("failed without a diagnostic");
            }
        }
        return diagnostics;
    }

    /** Where sj-api's classes are (a directory or jar). */
    private static String apiJar() throws Exception {
        return Path.of(ProtocolDescriptors.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /**
     * Claims nothing and counts the processing rounds javac runs, the final one included (given first:
     * javac calls a {@code *} processor only for annotations no processor before it claimed, until it
     * has been called once).
     */
    @SupportedAnnotationTypes("*")
    private static final class RoundCounter extends AbstractProcessor {
        int rounds;

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return SourceVersion.latestSupported();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            rounds++;
            return false;
        }
    }

    private static String resource(Compilation compilation, String binaryName) throws IOException {
        return CompilerHarness.descriptorOf(compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
                "META-INF/sessionj/protocols/" + binaryName + ".sj").orElseThrow().getCharContent(true).toString());
    }

    /** Loads the compiled class {@code name} (initialised, verified) from the compilation's output; what it defined. */
    private static Optional<String> defined(Compilation compilation, String name) throws Exception {
        Map<String, byte[]> classes = new HashMap<>();
        for (JavaFileObject file : compilation.generatedFiles()) {
            if (file.getKind() == JavaFileObject.Kind.CLASS) {
                String path = file.toUri().getPath();
                String binary = path.substring(path.indexOf("/CLASS_OUTPUT/") + "/CLASS_OUTPUT/".length(),
                        path.length() - ".class".length()).replace('/', '.');
                try (InputStream in = file.openInputStream()) {
                    classes.put(binary, in.readAllBytes());
                }
            }
        }
        assertThat(classes).containsKey(name);
        return ProtocolDescriptors.defined(Class.forName(name, true, loader(classes)));
    }

    /** A loader defining {@code classes} (verified: not the boot loader), the rest from the test's. */
    private static ClassLoader loader(Map<String, byte[]> classes) {
        return new ClassLoader(DescriptorClassTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String className) throws ClassNotFoundException {
                byte[] b = classes.get(className);
                if (b == null) {
                    throw new ClassNotFoundException(className);
                }
                return defineClass(className, b, 0, b.length);
            }
        };
    }
}
