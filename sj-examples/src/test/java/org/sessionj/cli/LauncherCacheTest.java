package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class cache of {@code ./sj} (docs/benchmarks.md "Cold start"), driven with a fake JDK that logs
 * how it was started: on JDK 25 an AOT cache recorded once by a training run and then used by every
 * start, re-recorded never while it is there, not at all for a class path with a directory on it or
 * when turned off, and a failed training run reported once and not retried; on JDK 21 a dynamic CDS
 * archive.
 */
@Timeout(60)
class LauncherCacheTest {
    private static final Path SCRIPT = Path.of("..", "sj").toAbsolutePath().normalize();
    private static final String FAKE_JAVA = """
            #!/bin/sh
            echo "$*" >> "$FAKE_JAVA_LOG"
            for arg in "$@"; do
                case "$arg" in
                    -XX:AOTCacheOutput=*)
                        [ -n "$FAKE_TRAINING_FAILS" ] && { echo "training failed" >&2; exit 1; }
                        echo cache > "${arg#-XX:AOTCacheOutput=}" ;;
                esac
            done
            exit 0
            """;

    @TempDir
    Path dir;

    private Path fakeJdk(String version) throws IOException {
        Path home = dir.resolve("jdk-" + version);
        Files.createDirectories(home.resolve("bin"));
        Path java = Files.writeString(home.resolve("bin/java"), FAKE_JAVA);
        assertThat(java.toFile().setExecutable(true)).isTrue();
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    private record Run(int status, String err, List<String> javaCalls) {
    }

    private Run launch(Path jdk, String classPath, Map<String, String> env) throws Exception {
        Path log = dir.resolve("java.log");
        Files.deleteIfExists(log);
        ProcessBuilder builder = new ProcessBuilder(SCRIPT.toString(), "protocol", "check", "cbegin");
        builder.environment().put("JAVA_HOME", jdk.toString());
        builder.environment().put("SJ_CLASSPATH", classPath);
        builder.environment().put("FAKE_JAVA_LOG", log.toString());
        builder.environment().remove("SJ_AOT");
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        process.getInputStream().readAllBytes();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<String> calls = Files.exists(log) ? Files.readAllLines(log) : new ArrayList<>();
        return new Run(process.exitValue(), err, calls);
    }

    /** Two jars, written once per test (a jar newer than the cache would make it recorded again). */
    private String jarClassPath() throws IOException {
        Path app = dir.resolve("app.jar");
        Path lib = dir.resolve("lib.jar");
        if (!Files.exists(app)) {
            Files.writeString(app, "a jar");
            Files.writeString(lib, "another");
            // Older than anything the script writes from now on, whatever the file system's clock resolution.
            java.nio.file.attribute.FileTime past = java.nio.file.attribute.FileTime.fromMillis(
                    System.currentTimeMillis() - 60_000);
            Files.setLastModifiedTime(app, past);
            Files.setLastModifiedTime(lib, past);
        }
        return app + ":" + lib;
    }

    @Test
    void onJdk25TheAotCacheIsRecordedOnceAndEveryStartUsesIt() throws Exception {
        Path jdk = fakeJdk("25.0.1");
        String cache = dir.resolve("sj.aot").toString();

        Run first = launch(jdk, jarClassPath(), Map.of("SJ_AOT", cache));
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.err()).contains("recording an AOT cache");
        assertThat(first.javaCalls()).hasSize(2);
        assertThat(first.javaCalls().get(0)).contains("-XX:AOTCacheOutput=" + cache + ".")
                .endsWith("org.sessionj.cli.AotTraining");
        assertThat(first.javaCalls().get(1)).contains("-Xlog:aot*=off,cds*=off -XX:AOTCache=" + cache + " ")
                .endsWith("org.sessionj.cli.SjCommand protocol check cbegin");
        assertThat(Path.of(cache)).exists();
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file left")
                    .noneMatch(name -> name.contains(".tmp"));
        }

        Run second = launch(jdk, jarClassPath(), Map.of("SJ_AOT", cache));
        assertThat(second.err()).doesNotContain("AOT");
        assertThat(second.javaCalls()).singleElement().asString().contains("-XX:AOTCache=" + cache + " ");
    }

    @Test
    void aJarRewrittenAfterTheCacheWasRecordedMakesItRecordedAgain() throws Exception {
        Path jdk = fakeJdk("25.0.1");
        String cache = dir.resolve("sj.aot").toString();
        String classPath = jarClassPath();
        launch(jdk, classPath, Map.of("SJ_AOT", cache));
        Files.setLastModifiedTime(dir.resolve("lib.jar"), java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(Path.of(cache)).toMillis() + 10_000));

        Run again = launch(jdk, classPath, Map.of("SJ_AOT", cache));

        assertThat(again.err()).contains("recording an AOT cache");
        assertThat(again.javaCalls()).hasSize(2);
        assertThat(again.javaCalls().get(0)).contains("-XX:AOTCacheOutput=");
    }

    @Test
    void aFailedTrainingRunIsReportedTheCommandStillRunsAndItIsNotRetried() throws Exception {
        Path jdk = fakeJdk("25.0.1");
        String cache = dir.resolve("sj.aot").toString();
        Map<String, String> env = Map.of("SJ_AOT", cache, "FAKE_TRAINING_FAILS", "1");

        Run first = launch(jdk, jarClassPath(), env);
        assertThat(first.status()).isZero();
        assertThat(first.err()).contains("could not record the AOT cache (log: " + cache + ".log); running without it");
        assertThat(Files.readString(Path.of(cache + ".log"))).contains("training failed");
        assertThat(first.javaCalls()).hasSize(2);
        assertThat(first.javaCalls().get(1)).doesNotContain("AOTCache").endsWith("SjCommand protocol check cbegin");
        assertThat(Path.of(cache)).doesNotExist();

        Run second = launch(jdk, jarClassPath(), env);
        assertThat(second.err()).doesNotContain("AOT");
        assertThat(second.javaCalls()).singleElement().asString().doesNotContain("AOT");
    }

    @Test
    void aClassPathWithADirectoryGetsNoCache() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classes.resolve("A.class"), "not empty");

        Run run = launch(fakeJdk("25.0.1"), jarClassPath() + ":" + classes, Map.of("SJ_AOT", dir.resolve("sj.aot").toString()));

        assertThat(run.javaCalls()).singleElement().asString().doesNotContain("AOT").doesNotContain("SharedArchive");
        assertThat(dir.resolve("sj.aot")).doesNotExist();
    }

    @Test
    void withoutSjAotAGivenClassPathGetsNoCache() throws Exception {
        Run run = launch(fakeJdk("25.0.1"), jarClassPath(), Map.of());
        assertThat(run.javaCalls()).singleElement().asString().doesNotContain("AOT");
        Run off = launch(fakeJdk("25.0.1"), jarClassPath(), Map.of("SJ_AOT", "0"));
        assertThat(off.javaCalls()).singleElement().asString().doesNotContain("AOT");
    }

    @Test
    void onJdk21TheJvmKeepsADynamicCdsArchive() throws Exception {
        String archive = dir.resolve("sj.jsa").toString();
        Run run = launch(fakeJdk("21.0.5"), jarClassPath(), Map.of("SJ_AOT", archive));
        assertThat(run.javaCalls()).singleElement().asString()
                .contains("-Xlog:cds*=off -XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=" + archive + " ")
                .doesNotContain("AOTCache");
    }
}
