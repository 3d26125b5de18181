package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A protocol javac finds only on the source path ({@code javac -sourcepath src Client.java}): javac
 * compiles its file implicitly, and annotation processing never sees it. The checker then validates it
 * at its annotation and writes its descriptor, as it does for the files given to javac; otherwise its
 * problems surfaced only as SJ010 in its users, and the runtime found no descriptor.
 */
class SourcePathProtocolTest {
    @TempDir
    Path project;

    private static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Protocols {
                @Protocol("cbegin.!<int>.?(%s)") interface Ask {}
            }
            """;

    private static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            public final class Client {
                static String run(@Session(protocol = Protocols.Ask.class) SJService service) {
                    try (SJSocket s = service.request()) {
                        s.send(42);
                        return s.receive();
                    }
                }
            }
            """;

    private String compileClientOnly(String replyType) throws IOException {
        Path sources = project.resolve("src/demo");
        Files.createDirectories(sources);
        Files.writeString(sources.resolve("Protocols.java"), PROTOCOLS.formatted(replyType));
        Files.writeString(sources.resolve("Client.java"), CLIENT);
        Path classes = Files.createDirectories(project.resolve("classes"));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int status = compiler.run(null, err, err, List.of("-proc:full", "-processor", SessionProcessor.class.getName(),
                    "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                    "-sourcepath", project.resolve("src").toString(),
                    sources.resolve("Client.java").toString()).toArray(String[]::new));
            return status + "\n" + output.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void aValidProtocolOnlyOnTheSourcePathGetsItsDescriptor() throws IOException {
        String result = compileClientOnly("String");
        assertThat(result).startsWith("0\n");
        Path classes = project.resolve("classes");
        assertThat(classes.resolve("META-INF/sessionj/protocols/demo.Protocols$Ask.sj")).content()
                .isEqualToIgnoringWhitespace("cbegin.!<int>.?(java.lang.String)");
        assertThat(classes.resolve("demo/Protocols$Ask$$SJProtocol.class")).exists();
    }

    @Test
    void anInvalidProtocolOnlyOnTheSourcePathIsReportedAtItsAnnotation() throws IOException {
        String result = compileClientOnly("Strin");
        assertThat(result).doesNotStartWith("0\n");
        assertThat(result).containsPattern("Protocols\\.java:4: error: \\[SJ002\\] unknown Java type 'Strin'");
    }
}
