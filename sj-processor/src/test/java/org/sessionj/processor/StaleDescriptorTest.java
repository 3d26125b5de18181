package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.processor.StepwiseBuild.Result;

/**
 * SJ009 for a protocol descriptor older than its class (adv17 A15): an IDE's incremental compiler with
 * annotation processing off, Eclipse's compiler (where the processor checks nothing) or {@code javac
 * -proc:none} compiles an edited {@code @Protocol} again and leaves the earlier build's descriptor beside
 * it; a later javac build that compiles only a user of the protocol read the old descriptor and checked
 * the user against the old type, and the runtime then loaded that descriptor. Each test builds in three
 * steps: everything with the processor, the edited protocol without it, the user alone with it.
 */
class StaleDescriptorTest {
    @TempDir
    Path project;

    private StepwiseBuild build() {
        return new StepwiseBuild(project);
    }

    private static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Protocols {
                @Protocol("cbegin.!<int>.?(%s)") interface Put {}
            }
            """;

    private static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            public final class Client {
                static boolean run(@Session(protocol = Protocols.Put.class) SJService service) {
                    try (SJSocket s = service.request()) {
                        s.send(42);
                        return s.receive();
                    }
                }
            }
            """;

    private static void assertCompiles(Result result) {
        assertThat(result.status()).as(result.output()).isZero();
    }

    @Test
    void aProtocolCompiledAgainWithoutTheProcessorIsReadFromItsAnnotationAndReported() throws IOException {
        StepwiseBuild build = build();
        build.write("Protocols", PROTOCOLS.formatted("boolean"));
        build.write("Client", CLIENT);
        assertCompiles(build.compile("Protocols", "Client"));

        build.write("Protocols", PROTOCOLS.formatted("String"));
        assertCompiles(build.compileWithoutProcessor("Protocols"));
        Result client = build.compile("Client");
        assertThat(client.status()).as(client.output()).isNotZero();
        assertThat(client.output())
                .contains("[SJ009] the protocol descriptor of demo.Protocols.Put (on the class path) was made from an"
                        + " earlier @Protocol text of demo.Protocols.Put, but demo.Protocols.Put declares"
                        + " @Protocol(\"cbegin.!<int>.?(String)\") now")
                .contains("without sj-processor")
                // the check read the annotation, not the stale descriptor
                .contains("[SJ013]").contains("expected ?(java.lang.String)");
    }

    @Test
    void anIncludedProtocolCompiledAgainWithoutTheProcessorMakesTheIncluderStale() throws IOException {
        StepwiseBuild build = build();
        build.write("Tail", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Tail {
                    @Protocol("?(%s)") interface Reply {}
                }
                """.formatted("boolean"));
        build.write("Protocols", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Protocols {
                    @Protocol("cbegin.!<int>.@(Tail.Reply)") interface Put {}
                }
                """);
        build.write("Client", CLIENT);
        assertCompiles(build.compile("Tail", "Protocols", "Client"));

        build.write("Tail", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Tail {
                    @Protocol("?(String)") interface Reply {}
                }
                """);
        assertCompiles(build.compileWithoutProcessor("Tail"));
        Result client = build.compile("Client");
        assertThat(client.status()).as(client.output()).isNotZero();
        assertThat(client.output()).contains("[SJ009] the protocol descriptor of demo.Protocols.Put (on the class path)"
                + " was made from an earlier @Protocol text of demo.Tail.Reply, but demo.Tail.Reply declares"
                + " @Protocol(\"?(String)\") now");
    }

    @Test
    void aSetProtocolCompiledAgainWithoutTheProcessorIsReported() throws IOException {
        StepwiseBuild build = build();
        build.write("Protocols", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Protocols {
                    @Protocol("sbegin.?(int)") interface A {}
                    @Protocol("sbegin.?(String)") interface B {}
                    @Protocol("{@(A)%s}") interface Both {}
                }
                """.formatted(", @(B)"));
        build.write("Client", """
                package demo;
                import org.sessionj.api.*;
                public final class Client {
                    final SJSelector selector = SJSelector.of(Protocols.Both.class);
                }
                """);
        Result first = build.compile("Protocols", "Client");
        assertCompiles(first);

        build.write("Protocols", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Protocols {
                    @Protocol("sbegin.?(int)") interface A {}
                    @Protocol("sbegin.?(String)") interface B {}
                    @Protocol("{@(A)}") interface Both {}
                }
                """);
        assertCompiles(build.compileWithoutProcessor("Protocols"));
        Result client = build.compile("Client");
        assertThat(client.output()).contains("[SJ009] the protocol descriptor of demo.Protocols.Both");
    }

    /** False alarm: a protocol compiled again without the processor but with the same text keeps its descriptor. */
    @Test
    void aProtocolCompiledAgainUnchangedIsNotReported() throws IOException {
        StepwiseBuild build = build();
        build.write("Protocols", PROTOCOLS.formatted("boolean"));
        build.write("Client", CLIENT);
        assertCompiles(build.compile("Protocols", "Client"));

        assertCompiles(build.compileWithoutProcessor("Protocols"));
        Result client = build.compile("Client");
        assertCompiles(client);
        assertThat(client.output()).doesNotContain("SJ009");
    }

    /** The processor's hash of a {@code @Protocol} text: its length and 64-bit FNV-1a hash. */
    private static String hash(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return text.length() + "-" + Long.toHexString(hash);
    }

    /**
     * The record ends the descriptor resource as SJ-notation comment lines, one per {@code @Protocol} text
     * the descriptor was made from (the protocol's, then each included one's), and no resource of its own
     * is written: one Filer resource fewer per protocol (issue 12).
     */
    @Test
    void theRecordEndsTheDescriptorAsCommentLinesAndHasNoResourceOfItsOwn() throws IOException {
        StepwiseBuild build = build();
        build.write("Tail", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Tail {
                    @Protocol("?(boolean)") interface Reply {}
                }
                """);
        build.write("Protocols", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Protocols {
                    @Protocol("cbegin.!<int>.@(Tail.Reply)") interface Put {}
                }
                """);
        build.write("Client", CLIENT);
        assertCompiles(build.compile("Tail", "Protocols", "Client"));
        Path protocols = build.classes().resolve("META-INF/sessionj/protocols");
        assertThat(protocols.resolve("demo.Protocols$Put.sj")).content().isEqualTo("cbegin.!<int>.?(boolean)\n"
                + "// source demo.Protocols$Put " + hash("cbegin.!<int>.@(Tail.Reply)") + "\n"
                + "// source demo.Tail$Reply " + hash("?(boolean)") + "\n");
        assertThat(build.classes().resolve("META-INF/sessionj/sources")).doesNotExist();
    }

    /**
     * A descriptor written by an earlier processor has no record in it but one of its own, {@code
     * META-INF/sessionj/sources/<binary name>.txt} (in a user's jar built with it): still read, so its
     * staleness is still reported.
     */
    @Test
    void aRecordInTheEarlierSeparateResourceIsStillRead() throws IOException {
        StepwiseBuild build = build();
        build.write("Protocols", PROTOCOLS.formatted("boolean"));
        build.write("Client", CLIENT);
        assertCompiles(build.compile("Protocols", "Client"));
        // What the earlier processor wrote: the descriptor alone, and the record's lines without their prefix.
        Path classes = build.classes();
        Files.writeString(classes.resolve("META-INF/sessionj/protocols/demo.Protocols$Put.sj"), "cbegin.!<int>.?(boolean)");
        Path record = classes.resolve("META-INF/sessionj/sources/demo.Protocols$Put.txt");
        Files.createDirectories(record.getParent());
        Files.writeString(record, "demo.Protocols$Put " + hash("cbegin.!<int>.?(boolean)") + "\n");
        assertCompiles(build.compile("Client"));

        build.write("Protocols", PROTOCOLS.formatted("String"));
        assertCompiles(build.compileWithoutProcessor("Protocols"));
        Result client = build.compile("Client");
        assertThat(client.status()).as(client.output()).isNotZero();
        assertThat(client.output()).contains("[SJ009] the protocol descriptor of demo.Protocols.Put (on the class path)"
                + " was made from an earlier @Protocol text of demo.Protocols.Put");
    }
}
