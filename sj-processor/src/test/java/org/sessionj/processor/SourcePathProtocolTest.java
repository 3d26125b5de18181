package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        StepwiseBuild build = new StepwiseBuild(project);
        build.write("Protocols", PROTOCOLS.formatted(replyType));
        build.write("Client", CLIENT);
        StepwiseBuild.Result result = build.javac(List.of("-cp", System.getProperty("java.class.path"),
                "-sourcepath", project.resolve("src").toString()), "Client");
        return result.status() + "\n" + result.output();
    }

    @Test
    void aValidProtocolOnlyOnTheSourcePathGetsItsDescriptor() throws IOException {
        String result = compileClientOnly("String");
        assertThat(result).startsWith("0\n");
        Path classes = project.resolve("classes");
        assertThat(CompilerHarness.descriptorOf(Files.readString(classes.resolve(
                "META-INF/sessionj/protocols/demo.Protocols$Ask.sj")))).isEqualToIgnoringWhitespace(
                "cbegin.!<int>.?(java.lang.String)");
        assertThat(classes.resolve("demo/Protocols$Ask$$SJProtocol.class")).exists();
    }

    @Test
    void anInvalidProtocolOnlyOnTheSourcePathIsReportedAtItsAnnotation() throws IOException {
        String result = compileClientOnly("Strin");
        assertThat(result).doesNotStartWith("0\n");
        assertThat(result).containsPattern("Protocols\\.java:4: error: \\[SJ002\\] unknown Java type 'Strin'");
    }
}
