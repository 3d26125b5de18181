package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SJ006's descriptor-name check when the class named like the descriptor is not among the files given to
 * javac. The processor asks javac for a class of the descriptor's name only when one can exist (a type of
 * the compiled sources named with the suffix, or a file of that name on the source or class path), since
 * javac answers an unknown name by parsing and attributing it (issue 12, compile time); these are the
 * cases the shortcut must not miss. The files given to javac are {@code ProtocolValidationTest}'s.
 */
class DescriptorNameOnTheSourcePathTest {
    @TempDir
    Path project;

    private static final String PROTOCOL = """
            package demo;
            import org.sessionj.api.Protocol;
            @Protocol("cbegin.!<int>") public interface P {}
            """;

    private StepwiseBuild.Result compileWithSourcePath(String... names) throws IOException {
        return new StepwiseBuild(project).javac(List.of("-cp", System.getProperty("java.class.path"),
                "-sourcepath", project.resolve("src").toString()), names);
    }

    /** The clashing class waits on the source path in a file of its own name: javac would compile it when asked. */
    @Test
    void aClassNamedLikeTheDescriptorOnlyOnTheSourcePathIsReported() throws IOException {
        StepwiseBuild build = new StepwiseBuild(project);
        build.write("P", PROTOCOL);
        build.write("P$$SJProtocol", """
                package demo;
                public class P$$SJProtocol {}
                """);
        StepwiseBuild.Result result = compileWithSourcePath("P");
        assertThat(result.status()).as(result.output()).isNotZero();
        assertThat(result.output()).contains("P.java:3: error: [SJ006] the protocol descriptor class of 'P' would be "
                + "demo.P$$SJProtocol, but the program declares a class of that name");
    }

    /** The same names with no such file anywhere: the shortcut says nothing and the descriptor is written. */
    @Test
    void withoutSuchAClassTheDescriptorIsWritten() throws IOException {
        new StepwiseBuild(project).write("P", PROTOCOL);
        StepwiseBuild.Result result = compileWithSourcePath("P");
        assertThat(result.status()).as(result.output()).isZero();
        assertThat(project.resolve("classes/demo/P$$SJProtocol.class")).exists();
    }

    /**
     * A protocol and a member class named like its descriptor, both in a file javac compiles only because
     * another file uses it: no processing round lists that file, and the checker validates it at analysis.
     */
    @Test
    void aMemberNamedLikeTheDescriptorInAFileCompiledFromTheSourcePathIsReported() throws IOException {
        StepwiseBuild build = new StepwiseBuild(project);
        build.write("Protocols", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Protocols {
                    @Protocol("cbegin.!<int>") interface Ask {}
                    class Ask$$SJProtocol {}
                }
                """);
        build.write("Client", """
                package demo;
                public final class Client {
                    static Class<?> protocol() {
                        return Protocols.Ask.class;
                    }
                }
                """);
        StepwiseBuild.Result result = compileWithSourcePath("Client");
        assertThat(result.status()).as(result.output()).isNotZero();
        assertThat(result.output()).contains("Protocols.java:4: error: [SJ006] the protocol descriptor class of 'Ask' "
                + "would be demo.Protocols$Ask$$SJProtocol");
    }
}
