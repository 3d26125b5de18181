package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * adv15 A25: a class output the checker analysed classes into carries {@code META-INF/sessionj/checked},
 * which sj-runtime looks for at the code source of a class that creates a service or server socket (a class
 * compiled without sj-processor, against protocols that were, is then reported at run time). A
 * {@code -proc:only} run, which checks nothing, writes none. Real javac runs into a directory, as Maven's.
 */
class CheckedMarkerTest {
    private static final String CLIENT = """
            package app;
            import org.sessionj.api.*;
            public class Client {
                @Protocol("cbegin.!<int>") public interface Remote {}
                static void run() {
                    try (SJSocket s = SJService.create(Remote.class, "h", 1).request()) {
                        s.send(42);
                    }
                }
            }
            """;

    @TempDir
    Path dir;

    private static final String PLAIN = """
            package app;
            public class Plain {
                static int twice(int n) { return 2 * n; }
            }
            """;

    private int compile(String... extraOptions) throws IOException {
        Path source = dir.resolve("src/app/Client.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, CLIENT);
        Files.writeString(dir.resolve("src/app/Plain.java"), PLAIN);
        List<String> arguments = new ArrayList<>(List.of("-d", dir.resolve("classes").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-processor", SessionProcessor.class.getName()));
        arguments.addAll(List.of(extraOptions));
        arguments.add(source.toString());
        arguments.add(dir.resolve("src/app/Plain.java").toString());
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        return compiler.run(null, null, null, arguments.toArray(String[]::new));
    }

    @Test
    void aCheckedOutputIsMarked() throws IOException {
        assertThat(compile()).isZero();
        assertThat(dir.resolve("classes/app/Client.class")).isRegularFile();
        assertThat(dir.resolve("classes/META-INF/sessionj/checked")).isRegularFile().content()
                .contains("sj-processor");
    }

    /**
     * adv17 A6: each class checked for sessions has a record of its own, so that a class another compiler
     * writes into the same output (or an unchecked module merged into the same jar) is told apart; a class
     * that touches no session needs none (the runtime asks only about classes that start sessions).
     */
    @Test
    void eachClassCheckedForSessionsHasARecord() throws IOException {
        assertThat(compile()).isZero();
        assertThat(dir.resolve("classes/META-INF/sessionj/checked")).content()
                .contains("# per-class records: META-INF/sessionj/checked-classes/");
        assertThat(dir.resolve("classes/META-INF/sessionj/checked-classes/app.Client")).isRegularFile();
        assertThat(dir.resolve("classes/META-INF/sessionj/checked-classes/app.Plain")).doesNotExist();
    }

    @Test
    void aProcessingOnlyRunLeavesNoMark() throws IOException {
        assertThat(compile("-proc:only")).isZero();
        assertThat(dir.resolve("classes/META-INF/sessionj/protocols/app.Client$Remote.sj")).isRegularFile();
        assertThat(dir.resolve("classes/META-INF/sessionj/checked")).doesNotExist();
    }
}
