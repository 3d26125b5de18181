package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code ./sj} keeps its AOT cache when no {@code SJ_AOT} names one, and the JVM options it gives
 * a demo's ranks, driven in a scratch copy of the repository's root (a class path already built) with
 * fake JDKs that log how they were started. Invariants: one cache per JDK (a cache recorded by another
 * JDK is refused by the JVM without a word, so the first JDK's cache must not be taken for the
 * second's), recorded once in the checkout's {@code .sj}; the file of earlier versions removed; one
 * recording at a time (the others run without it), a lock left by a killed run taken over; the JIT's
 * thresholds raised for a demo across processes or srun tasks only.
 */
@Timeout(60)
class LauncherDefaultCacheTest {
    private static final Path SCRIPT = Path.of("..", "sj").toAbsolutePath().normalize();
    private static final String FAKE_JAVA = """
            #!/bin/sh
            echo "$*" >> "$FAKE_JAVA_LOG"
            for arg in "$@"; do
                case "$arg" in
                    -XX:AOTCacheOutput=*) echo cache > "${arg#-XX:AOTCacheOutput=}" ;;
                esac
            done
            exit 0
            """;

    @TempDir
    Path root;

    private Path state;

    @BeforeEach
    void checkoutWithABuiltClassPath() throws IOException {
        Files.copy(SCRIPT, root.resolve("sj"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(root.resolve("sj").toFile().setExecutable(true)).isTrue();
        Path jar = Files.writeString(root.resolve("app.jar"), "a jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(600)));
        state = Files.createDirectories(root.resolve(".sj"));
        Path classpath = Files.writeString(state.resolve("classpath"), jar + "\n");
        // Older than any cache recorded from now on (it would be stale otherwise); this scratch root has
        // no sources that could be newer, so no build starts.
        Files.setLastModifiedTime(classpath, FileTime.from(Instant.now().minusSeconds(300)));
    }

    private Path fakeJdk(String name, String version) throws IOException {
        Path home = root.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Path java = Files.writeString(home.resolve("bin/java"), FAKE_JAVA);
        assertThat(java.toFile().setExecutable(true)).isTrue();
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    private record Run(String err, List<String> javaCalls) {
        String command() {
            return javaCalls.get(javaCalls.size() - 1);
        }
    }

    private Run launch(Path jdk, String... args) throws Exception {
        Path log = root.resolve("java.log");
        Files.deleteIfExists(log);
        List<String> command = new ArrayList<>(List.of(root.resolve("sj").toString()));
        command.addAll(List.of(args.length == 0 ? new String[] {"--version"} : args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("JAVA_HOME", jdk.toString());
        builder.environment().put("FAKE_JAVA_LOG", log.toString());
        builder.environment().remove("SJ_AOT");
        builder.environment().remove("SJ_CLASSPATH");
        builder.environment().remove("SJ_JAVA_OPTS");
        Process process = builder.start();
        process.getOutputStream().close();
        process.getInputStream().readAllBytes();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(err).isZero();
        return new Run(err, Files.exists(log) ? Files.readAllLines(log) : List.of());
    }

    private List<String> caches() throws IOException {
        try (Stream<Path> files = Files.list(state)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".aot")).sorted().toList();
        }
    }

    @Test
    void eachJdkGetsItsOwnCacheInTheCheckoutRecordedOnce() throws Exception {
        Path first = fakeJdk("jdk-a", "25.0.1");
        Path second = fakeJdk("jdk-b", "25.0.2");

        Run recorded = launch(first);
        assertThat(recorded.err()).contains("recording an AOT cache");
        assertThat(caches()).singleElement().asString().matches("sj-jdk25-[0-9]+\\.aot");
        String firstCache = state.resolve(caches().get(0)).toString();
        assertThat(recorded.command()).contains("-XX:AOTCache=" + firstCache + " ");

        Run other = launch(second);
        assertThat(other.err()).as("another JDK records its own").contains("recording an AOT cache");
        assertThat(caches()).hasSize(2);
        assertThat(other.command()).contains("-XX:AOTCache=").doesNotContain(firstCache);

        Run again = launch(first);
        assertThat(again.err()).doesNotContain("AOT");
        assertThat(again.javaCalls()).singleElement().asString().contains("-XX:AOTCache=" + firstCache + " ");
        try (Stream<Path> left = Files.list(state)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".tmp") || n.contains(".lock"));
        }
    }

    @Test
    void theCacheFileOfEarlierVersionsIsRemoved() throws Exception {
        Files.writeString(state.resolve("sj.aot"), "an old cache");
        Files.writeString(state.resolve("sj.aot.log"), "its log");

        launch(fakeJdk("jdk-a", "25.0.1"));

        assertThat(state.resolve("sj.aot")).doesNotExist();
        assertThat(state.resolve("sj.aot.log")).doesNotExist();
        assertThat(caches()).hasSize(1);
    }

    @Test
    void whileAnotherRunRecordsTheCacheThisOneRunsWithoutIt() throws Exception {
        Path jdk = fakeJdk("jdk-a", "25.0.1");
        launch(jdk);
        String cache = state.resolve(caches().get(0)).toString();
        Files.delete(Path.of(cache));
        Files.createDirectory(Path.of(cache + ".lock"));

        Run run = launch(jdk);

        assertThat(run.javaCalls()).singleElement().asString().doesNotContain("AOT");
        assertThat(Path.of(cache)).doesNotExist();
    }

    @Test
    void aLockLeftByAKilledRunIsTakenOver() throws Exception {
        Path jdk = fakeJdk("jdk-a", "25.0.1");
        launch(jdk);
        String cache = state.resolve(caches().get(0)).toString();
        Files.delete(Path.of(cache));
        Path lock = Files.createDirectory(Path.of(cache + ".lock"));
        Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minusSeconds(20 * 60)));

        Run run = launch(jdk);

        assertThat(run.err()).contains("recording an AOT cache");
        assertThat(run.command()).contains("-XX:AOTCache=" + cache + " ");
        assertThat(lock).doesNotExist();
    }

    @Test
    void onJdk21EachJdkGetsItsOwnDynamicArchive() throws Exception {
        Run run = launch(fakeJdk("jdk-21", "21.0.5"));
        assertThat(run.javaCalls()).singleElement().asString()
                .containsPattern("-XX:SharedArchiveFile=" + state + "/sj-jdk21-[0-9]+\\.jsa ");
    }

    @Test
    void aDemoAcrossProcessesOrSrunTasksCompilesLater() throws Exception {
        Path jdk = fakeJdk("jdk-a", "25.0.1");
        launch(jdk);
        String scaling = "-XX:CompileThresholdScaling=3";

        assertThat(launch(jdk, "demo", "pi", "--deploy", "processes").command()).contains(scaling);
        assertThat(launch(jdk, "demo", "jacobi", "--size", "100", "--deploy=processes").command()).contains(scaling);
        assertThat(launch(jdk, "demo", "nbody", "--deploy", "slurm").command()).contains(scaling);
        assertThat(launch(jdk, "demo", "pi", "--deploy", "processes").command()).as("the demo's own code at the default")
                .contains("-XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling,org.sessionj.examples.*::*,0.34 ");
        assertThat(launch(jdk, "demo", "pi").command()).as("threads of one JVM").doesNotContain("CompileThreshold");
        assertThat(launch(jdk, "demo", "pi", "--deploy", "threads").command()).doesNotContain("CompileThreshold");
        assertThat(launch(jdk, "protocol", "check", "--deploy", "processes").command()).doesNotContain("CompileThreshold");
    }
}
