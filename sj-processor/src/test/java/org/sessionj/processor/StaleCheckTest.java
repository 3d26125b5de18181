package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.processor.StepwiseBuild.Result;

/**
 * SJ009: a build that compiles only the changed files (maven-compiler-plugin with
 * {@code useIncrementalCompilation=false}, {@code javac} on one file) must not leave a class checked
 * against an earlier version of a protocol or of a {@code @Session} method in the output directory.
 * Each test compiles with javac into a real output directory, as a build tool does, changes one file and
 * compiles that file alone against the earlier output.
 */
class StaleCheckTest {
    @TempDir
    Path project;

    private Path write(String name, String text) throws IOException {
        return new StepwiseBuild(project).write(name, text);
    }

    private Result compile(String... names) throws IOException {
        return new StepwiseBuild(project).compile(names);
    }

    private Path classFile(String name) {
        return new StepwiseBuild(project).classFile(name);
    }

    private static final String PROTOCOL = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Protocols {
                @Protocol("cbegin.!<%s>") interface Put {}
            }
            """;

    private static final String HELPER = """
            package demo;
            import org.sessionj.api.*;
            public final class Helper {
                public static void put(@Session("!<%s>") SJSocket s, int value) {
                    s.send(value);
                }
            }
            """;

    private static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            public final class Client {
                static void run(@Session(protocol = Protocols.Put.class) SJService service) {
                    try (SJSocket s = service.request()) {
                        s.send(42);
                    }
                }
            }
            """;

    private static final String HELPER_USER = """
            package demo;
            import org.sessionj.api.*;
            public final class HelperUser {
                static void run(@Session("cbegin.!<int>") SJService service) {
                    try (SJSocket s = service.request()) {
                        Helper.put(s, 7);
                    }
                }
            }
            """;

    @Test
    void aChangedProtocolCompiledAloneFailsAndTheStaleUserIsCheckedOnTheNextBuild() throws IOException {
        write("Protocols", PROTOCOL.formatted("int"));
        write("Client", CLIENT);
        assertThat(compile("Protocols", "Client").status()).isZero();
        assertThat(project.resolve("classes/META-INF/sessionj/users/demo.Protocols$Put.txt"))
                .content().contains("demo.Client ");

        write("Protocols", PROTOCOL.formatted("String"));
        Result alone = compile("Protocols");
        assertThat(alone.status()).as(alone.output()).isNotZero();
        assertThat(alone.output()).contains("[SJ009] demo.Client was checked against an earlier version of the "
                + "session declarations of demo.Protocols.Put and is not part of this compilation");
        assertThat(classFile("Client")).as("removed, so that the next build compiles it").doesNotExist();

        // What the build tool does next: Client's class is missing and Protocols' is older than its source
        // (the failed compilation wrote none), so both are compiled, and Client is checked.
        Result next = compile("Protocols", "Client");
        assertThat(next.status()).as(next.output()).isNotZero();
        assertThat(next.output()).contains("[SJ013]").contains("!<java.lang.String>").doesNotContain("SJ009");
    }

    @Test
    void aProtocolFileRecompiledWithoutAChangeToItsTypesPasses() throws IOException {
        write("Protocols", PROTOCOL.formatted("int"));
        write("Client", CLIENT);
        assertThat(compile("Protocols", "Client").status()).isZero();
        write("Protocols", "// a comment, nothing else\n" + PROTOCOL.formatted("int"));
        Result alone = compile("Protocols");
        assertThat(alone.status()).as(alone.output()).isZero();
        assertThat(classFile("Client")).exists();
    }

    @Test
    void compilingTheUserWithTheChangedProtocolChecksItDirectly() throws IOException {
        write("Protocols", PROTOCOL.formatted("int"));
        write("Client", CLIENT);
        assertThat(compile("Protocols", "Client").status()).isZero();
        write("Protocols", PROTOCOL.formatted("String"));
        Result both = compile("Protocols", "Client");
        assertThat(both.output()).contains("[SJ013]").doesNotContain("SJ009");
    }

    @Test
    void aChangedSessionMethodCompiledAloneFailsForItsCallers() throws IOException {
        write("Helper", HELPER.formatted("int"));
        write("HelperUser", HELPER_USER);
        assertThat(compile("Helper", "HelperUser").status()).isZero();

        write("Helper", HELPER.formatted("String").replace("s.send(value);", "s.send(String.valueOf(value));"));
        Result alone = compile("Helper");
        assertThat(alone.status()).as(alone.output()).isNotZero();
        assertThat(alone.output()).contains("[SJ009] demo.HelperUser was checked against an earlier version of "
                + "the session declarations of demo.Helper");
        assertThat(classFile("HelperUser")).doesNotExist();
        assertThat(compile("Helper", "HelperUser").output()).contains("[SJ035]").doesNotContain("SJ009");
    }

    /**
     * A protocol that another includes ({@code @(Q)}): the users of the includer were checked against Q's
     * version, and so was the includer's descriptor (its expansion) — both are stale when Q changes (adv12 A7).
     */
    @Test
    void aChangedIncludedProtocolCompiledAloneFailsForTheIncluderAndItsUsers() throws IOException {
        write("Inner", """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("!<%s>") public interface Inner {}
                """.formatted("int"));
        write("Outer", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Outer {
                    @Protocol("cbegin.@(Inner)") interface Put {}
                    @Protocol("^(Put)") interface Take {}
                }
                """);
        write("Client", CLIENT.replace("Protocols.Put", "Outer.Put"));
        assertThat(compile("Inner", "Outer", "Client").status()).isZero();
        assertThat(project.resolve("classes/META-INF/sessionj/users/demo.Inner.txt"))
                .content().contains("demo.Client ").contains("demo.Outer ");

        write("Inner", Files.readString(project.resolve("src/demo/Inner.java")).replace("!<int>", "!<String>"));
        Result alone = compile("Inner");
        assertThat(alone.status()).as(alone.output()).isNotZero();
        assertThat(alone.output()).contains("[SJ009] demo.Client was checked against an earlier version of the "
                + "session declarations of demo.Inner").contains("[SJ009] demo.Outer was checked against");
        assertThat(classFile("Client")).doesNotExist();
        assertThat(classFile("Outer$Put$$SJProtocol")).as("the stale expansion").doesNotExist();

        Result next = compile("Inner", "Outer", "Client");
        assertThat(next.output()).contains("[SJ013]").contains("!<java.lang.String>").doesNotContain("SJ009");
    }

    @Test
    void aUserThatNoLongerReadsTheProtocolLeavesItsIndex() throws IOException {
        write("Protocols", PROTOCOL.formatted("int"));
        write("Client", CLIENT);
        assertThat(compile("Protocols", "Client").status()).isZero();
        write("Client", "package demo;\npublic final class Client {}\n");
        assertThat(compile("Client").status()).isZero();
        assertThat(project.resolve("classes/META-INF/sessionj/users/demo.Protocols$Put.txt")).doesNotExist();
        write("Protocols", PROTOCOL.formatted("String"));
        Result alone = compile("Protocols");
        assertThat(alone.status()).as(alone.output()).isZero();
    }

    /**
     * adv14 A6: only classes whose facts a later build may change get an index. A plain {@code main} that
     * prints and starts a thread reads the JDK's {@code System}, {@code PrintStream}, {@code Thread} and
     * {@code Integer} and the API's {@code SJServerSocket}, whose fingerprints hold nothing: no
     * {@code users/java.lang.System.txt} (it went into every jar and clashed in shaded ones). A class of
     * this output without facts keeps its index, since a later build of it may add some
     * (StaleFactsTest.aParameterThatBecomesNoAliasMakesItsCallersStale).
     */
    @Test
    void aPlainMainThatPrintsAndStartsAThreadIndexesNoJdkOrApiClass() throws IOException {
        write("Protocols", """
                package demo;
                import org.sessionj.api.Protocol;
                public interface Protocols {
                    @Protocol("cbegin.!<int>") interface Put {}
                    @Protocol("^(Put)") interface Take {}
                }
                """);
        write("Main", """
                package demo;
                import org.sessionj.api.*;
                public final class Main {
                    public static void main(String[] args) throws Exception {
                        SJServerSocket server = SJServerSocket.create(Protocols.Take.class, Integer.getInteger("port", 0));
                        Thread thread = new Thread(() -> System.out.println("port " + server.port()));
                        thread.start();
                        thread.join();
                        try (SJSocket s = server.accept()) {
                            System.out.println(Integer.toString(s.<Integer>receive()));
                        }
                    }
                }
                """);
        Result build = compile("Protocols", "Main");
        assertThat(build.status()).as(build.output()).isZero();
        try (java.util.stream.Stream<Path> files = Files.list(project.resolve("classes/META-INF/sessionj/users"))) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .as("Take, and Put that it includes").containsExactlyInAnyOrder("demo.Protocols$Take.txt", "demo.Protocols$Put.txt");
        }
    }
}
