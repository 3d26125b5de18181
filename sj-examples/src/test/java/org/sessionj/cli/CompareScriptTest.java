package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The argument handling of {@code scripts/compare.sh} (the benchmark against MPJ Express and Open MPI):
 * only what it does before it needs root, installs anything or runs a job, so these run anywhere.
 */
@Timeout(60)
class CompareScriptTest {

    private static final Path SCRIPT = Path.of("..", "scripts", "compare.sh").toAbsolutePath().normalize();

    record Result(int status, String out, String err) {
    }

    private static Result compare(String... args) throws IOException, InterruptedException {
        return compare(Map.of(), args);
    }

    private static Result compare(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), out, err);
    }

    @Test
    void realtimeIsAnOptionAndTheOtherArgumentsAreStillChecked() throws Exception {
        // A bad --only after it: the script reaches its check of --only, so --realtime was taken as an option.
        Result result = compare("--realtime", "--only", "bogus", "processes");
        assertThat(result.status()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains("--only expects algorithms among pi, jacobi, nbody but found 'bogus'")
                .doesNotContain("unknown argument");
    }

    @Test
    void anUnknownArgumentNamesTheRealtimeOptionAmongTheExpectedOnes() throws Exception {
        Result result = compare("--real-time");
        assertThat(result.status()).isEqualTo(2);
        assertThat(result.err()).contains("unknown argument '--real-time'").contains("--realtime");
    }

    @Test
    void aBadTimeSliceIsRefusedBeforeAnythingIsInstalledOrChanged() throws Exception {
        // Past the root check and chrt's: only where this test runs as root on a kernel that allows SCHED_RR.
        assumeTrue(runs("id", "-u").strip().equals("0"), "not root");
        assumeTrue(new ProcessBuilder("chrt", "--rr", "1", "true").start().waitFor() == 0, "no SCHED_RR here");
        Result result = compare(Map.of("COMPARE_RR_SLICE_MS", "4ms"), "--realtime", "processes");
        assertThat(result.status()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains("COMPARE_RR_SLICE_MS expects a positive number of ms but found '4ms'");
    }

    private static String runs(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }

    @Test
    void helpSaysWhatRealtimeDoesAndEndsWithTheHeader() throws Exception {
        Result result = compare("--help");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).contains("[--realtime]").contains("SCHED_RR at priority 1").contains("COMPARE_RR_SLICE_MS")
                .contains("as \"n/a\" with the reason on stderr") // the header's last line: help shows all of it
                .doesNotContain("set -euo pipefail");
    }
}
