package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the repository's {@code ./sj} script end to end: JDK discovery, dispatch, exit codes and
 * output. The class path comes from this test run ({@code SJ_CLASSPATH}), so no nested build happens.
 */
@Timeout(60)
class LauncherScriptTest {

    private static final Path SCRIPT = Path.of("..", "sj").toAbsolutePath().normalize();

    record Result(int status, String out, String err) {
    }

    static Result launch(String javaHome, String... args) throws IOException, InterruptedException {
        return launchWith(javaHome, null, args);
    }

    /** As {@link #launch}, with {@code SJ_JAVA_OPTS} set to {@code javaOpts} unless it is null. */
    static Result launchWith(String javaHome, String javaOpts, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(concat(SCRIPT.toString(), args));
        if (javaOpts != null) {
            builder.environment().put("SJ_JAVA_OPTS", javaOpts);
        }
        builder.environment().put("SJ_CLASSPATH", System.getProperty("java.class.path"));
        if (javaHome == null) {
            builder.environment().remove("JAVA_HOME");
        } else {
            builder.environment().put("JAVA_HOME", javaHome);
        }
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), out, err);
    }

    private static List<String> concat(String first, String... rest) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), java.util.Arrays.stream(rest)).toList();
    }

    @Test
    void dualOfAProtocol() throws Exception {
        Result result = launch(System.getProperty("java.home"), "protocol", "dual", "cbegin.!<int>.?(String)");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).isEqualTo("sbegin.?(int).!<String>\n");
    }

    @Test
    void fsmOutputReachesStdout() throws Exception {
        Result result = launch(System.getProperty("java.home"), "protocol", "fsm", "cbegin.![!<int>]*");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("digraph").contains("!<int>");
    }

    @Test
    void errorsExitWithOne() throws Exception {
        Result result = launch(System.getProperty("java.home"), "protocol", "check", "cbegin.?(int");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).contains("line 1, column 13");
    }

    @Test
    void usageErrorsExitWithTwo() throws Exception {
        Result result = launch(System.getProperty("java.home"), "protocol");
        assertThat(result.status()).isEqualTo(2);
    }

    @Test
    void anOldJavaHomeIsSkippedForANewerInstalledJdk(@TempDir Path fakeHome) throws Exception {
        Files.createDirectories(fakeHome.resolve("bin"));
        Path fakeJava = Files.writeString(fakeHome.resolve("bin/java"), "#!/bin/sh\necho old-java-used >&2\nexit 3\n");
        assertThat(fakeJava.toFile().setExecutable(true)).isTrue();
        Files.writeString(fakeHome.resolve("release"), "JAVA_VERSION=\"17.0.2\"\n");
        Result result = launch(fakeHome.toString(), "protocol", "print", "sbegin");
        // This machine has a JDK 21+ (the one running this test) in a standard place or not; either way
        // the JDK 17 in JAVA_HOME must never run.
        assertThat(result.err()).doesNotContain("old-java-used");
    }

    /** On JDK 25+ the JVM exits without waiting 300 ms for the runtime's threads blocked in native code. */
    @Test
    void aJdk25JvmExitsWithoutWaitingForThreadsInNativeCode() throws Exception {
        Result result = launchWith(System.getProperty("java.home"), "-XX:+PrintCommandLineFlags", "--version");
        assertThat(result.status()).as(result.err()).isZero();
        if (Runtime.version().feature() >= 25) {
            assertThat(result.out()).contains("-XX:UserThreadWaitAttemptsAtExit=0");
        } else {
            assertThat(result.out()).doesNotContain("UserThreadWaitAttemptsAtExit");
        }
    }

    /**
     * Netty's JFR buffer events are off in every JVM {@code ./sj} starts (loading them initialised JFR
     * in each rank's first session), and a user's {@code SJ_JAVA_OPTS} can turn them back on.
     */
    @Test
    void nettysJfrEventsAreOffUnlessTheUserTurnsThemOn() throws Exception {
        Result off = launchWith(System.getProperty("java.home"), "-XshowSettings:properties", "--version");
        assertThat(off.status()).as(off.err()).isZero();
        assertThat(off.err()).contains("io.netty.jfr.enabled = false");
        Result on = launchWith(System.getProperty("java.home"), "-Dio.netty.jfr.enabled=true -XshowSettings:properties",
                "--version");
        assertThat(on.status()).as(on.err()).isZero();
        assertThat(on.err()).contains("io.netty.jfr.enabled = true").doesNotContain("io.netty.jfr.enabled = false");
    }
}
