package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Phases}: the line's shape (scripts parse it) and the process start time it reports. */
class PhasesTest {

    @Test
    void aLineGivesRankWallClockCpuAndStep() {
        assertThat(Phases.line(2, Instant.ofEpochMilli(1_795_864_815_780L), Duration.ofMillis(412), "registered"))
                .isEqualTo("sj-phase rank=2 wall=1795864815.780 cpu=412 registered");
        assertThat(Phases.line(0, Instant.ofEpochMilli(1_000_005L), Duration.ZERO, "main"))
                .isEqualTo("sj-phase rank=0 wall=1000.005 cpu=0 main");
    }

    @Test
    void onlyAnEmptyOrZeroValueLeavesItOff() {
        assertThat(Phases.on(null)).isFalse();
        assertThat(Phases.on("")).isFalse();
        assertThat(Phases.on("0")).isFalse();
        assertThat(Phases.on("1")).isTrue();
        assertThat(Phases.on("yes")).isTrue();
        assertThat(Phases.on("threads")).isTrue();
        assertThat(Phases.aroundTimed("threads")).isTrue();
        assertThat(Phases.aroundTimed("1")).as("the per-thread lines around the timed region only when asked").isFalse();
        assertThat(Phases.aroundTimed(null)).isFalse();
        assertThat(Phases.on("steps")).isTrue();
        assertThat(Phases.everyStep("steps")).isTrue();
        assertThat(Phases.aroundTimed("steps")).as("every step includes the two around the timed region").isTrue();
        assertThat(Phases.everyStep("threads")).as("threads: only around the timed region").isFalse();
        assertThat(Phases.everyStep("1")).isFalse();
        assertThat(Phases.everyStep(null)).isFalse();
    }

    /** The lines {@link Phases#print} writes for steps {@code names}, with the given per-thread choices. */
    private static List<String> printed(boolean aroundTimed, boolean everyStep, String... names) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        for (String name : names) {
            Phases.print(err, 1, name, aroundTimed, everyStep);
        }
        // The first line a JVM prints is its jvm-start: whichever test prints first gets it.
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.endsWith(" jvm-start")).toList();
    }

    @Test
    void withStepsEveryStepGetsItsPerThreadLineAfterItsOwn() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")));
        List<String> lines = printed(true, true, "main", "servers-open", "registered", "connected", "run-done", "exit");
        assertThat(lines).hasSize(12);
        String[] steps = {"main", "servers-open", "registered", "connected", "run-done"};
        for (int i = 0; i < steps.length; i++) {
            assertThat(lines.get(2 * i)).startsWith("sj-phase rank=1 wall=").endsWith(" " + steps[i]);
            assertThat(lines.get(2 * i + 1)).startsWith("sj-phase rank=1 threads@" + steps[i] + " ");
        }
        assertThat(lines.get(10)).endsWith(" exit");
        assertThat(lines.get(11)).startsWith("sj-phase rank=1 threads ");
    }

    @Test
    void withThreadsOnlyTheTimedRegionsStepsGetOneAndPlainOnlyTheExit() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")));
        String[] steps = {"main", "registered", "connected", "run-done", "exit"};
        assertThat(printed(true, false, steps)).filteredOn(line -> line.contains(" threads"))
                .extracting(line -> line.split(" ")[2])
                .containsExactly("threads@connected", "threads@run-done", "threads");
        assertThat(printed(false, false, steps)).filteredOn(line -> line.contains(" threads"))
                .extracting(line -> line.split(" ")[2])
                .containsExactly("threads");
    }

    @Test
    void theProcessStartIsInThePastAndAfterTheJdksWholeSecondFigure() {
        Instant start = Phases.startInstant().orElseThrow();
        Instant jdk = ProcessHandle.current().info().startInstant().orElseThrow();
        assertThat(start).isBefore(Instant.now());
        // The JDK's figure is the boot time in whole seconds plus the start tick: at most a second off.
        assertThat(Duration.between(jdk, start).abs()).isLessThan(Duration.ofMillis(1_100));
    }

    @Test
    void threadsOfOnePoolAddUpUnderOneKindButACompilersNumberStays() {
        assertThat(Phases.kind("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
        assertThat(Phases.kind("GC Thread#1")).isEqualTo("GC Thread");
        assertThat(Phases.kind("nioEventLoopGroup-2-1")).isEqualTo("nioEventLoopGroup");
        assertThat(Phases.kind("main")).isEqualTo("main");
        assertThat(Phases.kind("42")).isEqualTo("42");
    }

    @Test
    void theThreadsLineListsKindsLargestFirstWithoutIdleOnesAndWithoutSpaces() {
        assertThat(Phases.threadsLine(1, Map.of("main", 250L, "C2 CompilerThre", 160L, "Reference Handl", 0L,
                "GC Thread", 160L))).isEqualTo("sj-phase rank=1 threads main=250 C2_CompilerThre=160 GC_Thread=160");
    }

    @Test
    void theThreadsLinesAroundTheTimedRegionNameTheirStep() {
        assertThat(Phases.threadsLine(0, "run-done", Map.of("rank-0", 120L, "C2 CompilerThre", 40L)))
                .isEqualTo("sj-phase rank=0 threads@run-done rank-0=120 C2_CompilerThre=40");
        assertThat(Phases.threadsLine(0, null, Map.of("java", 10L))).isEqualTo("sj-phase rank=0 threads java=10");
    }

    @Test
    void thisProcessHasAMainThreadWithCpuTimeOnLinux() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")));
        // Burn a little CPU on this thread so that at least one tick is counted somewhere.
        long x = 0;
        for (long i = 0; i < 50_000_000L; i++) {
            x += i ^ (x >>> 3);
        }
        assertThat(x).isNotZero();
        assertThat(Phases.threads().orElseThrow().values().stream().mapToLong(Long::longValue).sum()).isPositive();
    }
}
