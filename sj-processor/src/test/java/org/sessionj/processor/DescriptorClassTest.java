package org.sessionj.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.sessionj.api.spi.ProtocolDescriptors;
import org.sessionj.processor.internal.protocol.DescriptorClass;

/**
 * Every protocol's descriptor is also generated as a class ({@code P$$SJProtocol}) that hands the same
 * text to {@link ProtocolDescriptors}, which the runtime reads instead of the resource (issue 15, cold
 * start). The generated source compiles without warnings under the harness's {@code -Xlint:all}, in the
 * protocol's package, for nested protocols too, and carries any text exactly.
 */
class DescriptorClassTest {

    @Test
    void everyProtocolGetsADescriptorClassDefiningTheResourcesText() throws Exception {
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
        for (String protocol : List.of("demo.Outer$Stream", "demo.Outer$Streams", "Unpackaged")) {
            assertThat(compilation).generatedSourceFile(protocol + ProtocolDescriptors.CLASS_SUFFIX);
            assertThat(defined(compilation, protocol + ProtocolDescriptors.CLASS_SUFFIX))
                    .as("the class of %s", protocol).contains(resource(compilation, protocol));
        }
        assertThat(resource(compilation, "demo.Outer$Stream")).isEqualTo("!<java.lang.String>.?(int)");
    }

    @Test
    void anyTextSurvivesTheSourceExactlyAcrossConstantsOfAtMost65535Bytes() throws Exception {
        String awkward = "q\"b\\c\\u0041\nd\r\t\0\1\37\177é€\uD83D\uDE00\uD800" + "€".repeat(40_000) + "end";
        String source = DescriptorClass.source("demo.Weird", awkward);
        Compilation compilation = javac().withOptions("-Xlint:all", "-Werror")
                .compile(JavaFileObjects.forSourceString("demo.Weird$$SJProtocol", source));
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(defined(compilation, "demo.Weird$$SJProtocol")).contains(awkward);
    }

    @Test
    void anEmptyTextIsOneEmptyPart() throws Exception {
        Compilation compilation = javac().compile(JavaFileObjects.forSourceString("Empty$$SJProtocol",
                DescriptorClass.source("Empty", "")));
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(defined(compilation, "Empty$$SJProtocol")).contains("");
    }

    private static String resource(Compilation compilation, String binaryName) throws IOException {
        return compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
                "META-INF/sessionj/protocols/" + binaryName + ".sj").orElseThrow().getCharContent(true).toString();
    }

    /** Loads the compiled class {@code name} (initialised) from the compilation's output; what it defined. */
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
        ClassLoader loader = new ClassLoader(DescriptorClassTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String className) throws ClassNotFoundException {
                byte[] b = classes.get(className);
                if (b == null) {
                    throw new ClassNotFoundException(className);
                }
                return defineClass(className, b, 0, b.length);
            }
        };
        return ProtocolDescriptors.defined(Class.forName(name, true, loader));
    }
}
