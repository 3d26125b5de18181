package org.sessionj.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.samples.StagedRepository.ROOT;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.samples.StagedRepository.Build;

/**
 * A user project with {@code module-info.java} (adv13 A4), built by real Maven (this repository's wrapper)
 * with the README's snippet and the artifacts staged from this build's classes into a private local
 * repository, as {@link KvMavenSampleTest} does (never ~/.m2). The application module requires only
 * {@code org.sessionj.api} and compiles with every lint warning an error (so no {@code requires-automatic});
 * a protocol mistake fails the build with the checker's diagnostic; the built module runs a session on the
 * module path ({@code java --module-path … -m}) over the in-JVM transport and over tcp, the runtime and
 * the transports found through the module graph ({@code uses}/{@code provides}); without the {@code opens}
 * line its message record cannot be read, and the error names that line.
 */
class JpmsMavenSampleTest {
    /** The SJ modules the application runs with (sj-all is a jar without classes). */
    private static final List<String> RUNTIME = List.of("sj-api", "sj-runtime", "sj-transport-shm",
            "sj-transport-netty", "sj-transport-http");
    private static final String OPENS = "    opens com.example.jpms;\n";

    @TempDir
    static Path work;
    static StagedRepository staged;

    @BeforeAll
    static void stageTheArtifacts() throws IOException {
        staged = StagedRepository.stage(work.resolve("repository"));
    }

    private static final String MAIN = """
            package com.example.jpms;

            import org.sessionj.api.*;

            /** A server and a client in one JVM, one session: a record out, a string back. */
            public final class Main {
                /** A message in this module's own package. */
                public record Point(int x, int y) {}

                @Protocol("cbegin.!<Point>.?(String)") public interface Ask {}
                @Protocol("^(Ask)") public interface Answer {}

                public static void main(String[] args) throws Exception {
                    try (SJServerSocket server = SJServerSocket.create(Answer.class, 0)) {
                        Thread serving = Thread.ofVirtual().start(() -> serve(server));
                        System.out.println("client: " + ask(SJService.create(Ask.class, "localhost", server.port())));
                        serving.join();
                    }
                }

                static String ask(@Session(protocol = Ask.class) SJService service) {
                    try (SJSocket s = service.request()) {
                        s.send(new Point(1, 2));
                        String reply = s.receive();
                        return reply;
                    }
                }

                static void serve(@Session(protocol = Answer.class) SJServerSocket server) {
                    try (SJSocket s = server.accept()) {
                        Point p = s.receive();
                        s.send("got " + p);
                    }
                }
            }
            """;

    private static Path project(String name, String opens, String main) throws IOException {
        Path project = work.resolve(name);
        String release = "<release>21</release>";
        String pom = Files.readString(ROOT.resolve("samples/kv-maven/pom.xml"))
                .replace("<artifactId>kv</artifactId>", "<artifactId>jpms</artifactId>")
                .replace(release, release + "<compilerArgs><arg>-Xlint:all</arg><arg>-Werror</arg></compilerArgs>");
        write(project.resolve("pom.xml"), pom);
        write(project.resolve("src/main/java/module-info.java"), """
                module com.example.jpms {
                    requires org.sessionj.api;
                %s}
                """.formatted(opens));
        write(project.resolve("src/main/java/com/example/jpms/Main.java"), main);
        return project;
    }

    @Test
    @Timeout(900)
    void aModularApplicationBuildsWithoutWarningsAndRunsOnTheModulePathOverShmAndTcp() throws Exception {
        Path project = project("jpms", OPENS, MAIN);
        Build build = staged.maven(project, "package");
        assertThat(build.status()).as("mvn package of a project with module-info.java:\n%s", build.output()).isZero();
        assertThat(project.resolve("target/classes/META-INF/sessionj/protocols/com.example.jpms.Main$Ask.sj"))
                .as("the processor ran").exists();
        for (String transport : List.of("shm", "tcp")) {
            Run run = runOnTheModulePath(project, transport);
            assertThat(run.status()).as("over %s:\n%s", transport, run.output()).isZero();
            assertThat(run.output()).contains("client: got Point[x=1, y=2]").doesNotContain("has no descriptor")
                    .doesNotContain("compiled without sj-processor");
            assertThat(run.output()).containsPattern(transport.equals("tcp") ? "run over tcp" : "client: got");
        }
    }

    @Test
    @Timeout(900)
    void aProtocolMistakeInAModularApplicationFailsTheBuild() throws Exception {
        Path project = project("jpms-mistake", OPENS, MAIN.replace("s.send(\"got \" + p);", "s.send(p.x());"));
        Build build = staged.maven(project, "compile");
        assertThat(build.status()).as("a protocol mistake must fail the build:\n%s", build.output()).isNotZero();
        assertThat(build.output()).containsPattern("Main\\.java:\\[\\d+,\\d+\\] \\[SJ\\d{3}\\]").contains("!<int>");
    }

    @Test
    @Timeout(900)
    void aMessageClassInAPackageTheModuleDoesNotOpenIsNamedWithTheLineToAdd() throws Exception {
        Path project = project("jpms-closed", "", MAIN);
        Build build = staged.maven(project, "package");
        assertThat(build.status()).as("mvn package:\n%s", build.output()).isZero();
        Run run = runOnTheModulePath(project, "shm");
        assertThat(run.status()).isNotZero();
        assertThat(run.output()).contains("message type com.example.jpms.Main$Point")
                .contains("does not open package com.example.jpms to org.sessionj.runtime and "
                        + "com.fasterxml.jackson.databind")
                .contains("add 'opens com.example.jpms;' to the module-info.java of com.example.jpms");
    }

    private record Run(int status, String output) {
    }

    /**
     * {@code java --module-path target/classes:<SJ's jars>:<their libraries> -m com.example.jpms/…}: nothing on
     * the class path, no {@code --add-modules}.
     */
    private static Run runOnTheModulePath(Path project, String transport) throws IOException, InterruptedException {
        List<String> path = new ArrayList<>();
        path.add(project.resolve("target/classes").toString());
        for (String module : RUNTIME) {
            path.add(staged.jar(module).toString());
        }
        // Their libraries, as the build resolved them (Netty, Jackson, JCTools: named modules all).
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (name.endsWith(".jar") && (name.startsWith("netty-") || name.startsWith("jackson-")
                    || name.startsWith("jctools-"))) {
                path.add(entry);
            }
        }
        Path log = project.resolve("run-" + transport + ".log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=io.netty.common", "-Dsessionj.transports=" + transport,
                "--module-path", path.stream().collect(Collectors.joining(File.pathSeparator)),
                "-m", "com.example.jpms/com.example.jpms.Main");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the application did not finish within 60 s:\n" + Files.readString(log));
        }
        return new Run(process.exitValue(), Files.readString(log));
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
