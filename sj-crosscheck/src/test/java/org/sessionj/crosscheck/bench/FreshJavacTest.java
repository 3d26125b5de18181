package org.sessionj.crosscheck.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's own measurement compiles in a fresh javac process that really runs the processor from
 * {@code -processorpath}, and times that process.
 */
class FreshJavacTest {
    private final FreshJavac javac = new FreshJavac(System.getProperty("java.class.path"), null);

    /** A protocol syntax error is valid Java: only a compilation that runs sj-processor rejects it (SJ001). */
    @Test
    void theFreshProcessRunsTheProcessorAndIsTimed(@TempDir Path dir) throws Exception {
        Path source = Files.writeString(dir.resolve("Square.java"),
                "import org.sessionj.api.*;\n@Protocol(\"cbegin.!<int>.?(int\")\ninterface Square {}\n");
        FreshJavac.Sample none = javac.compile(List.of(source), Files.createDirectories(dir.resolve("none")),
                Javac.Setup.PROC_NONE, dir);
        assertThat(none.processCpu()).as("the child's CPU time").isPositive();
        assertThat(none.wall()).isPositive();
        assertThatThrownBy(() -> javac.compile(List.of(source), Files.createDirectories(dir.resolve("sj")),
                Javac.Setup.SJ, dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("javac + sj-processor in a fresh process exited with 1").hasMessageContaining("SJ001");
        assertThat(dir).isDirectoryNotContaining("glob:**.args").isDirectoryNotContaining("glob:**.log");
    }

    /** With the split asked for, javac runs through ThreadCpuJavac, which says which threads spent the CPU. */
    @Test
    void theSplitByThreadAddsUpToAtMostTheProcessCpu(@TempDir Path dir) throws Exception {
        FreshJavac split = new FreshJavac(System.getProperty("java.class.path"), null);
        split.splitThreads(true);
        Path source = Files.writeString(dir.resolve("Plain.java"), "class Plain { int twice(int x) { return 2 * x; } }\n");
        FreshJavac.Sample sample = split.compile(List.of(source), Files.createDirectories(dir.resolve("out")),
                Javac.Setup.PROC_NONE, dir);
        assertThat(dir.resolve("out/Plain.class")).exists();
        FreshJavac.Threads threads = sample.threads();
        assertThat(threads).isNotNull();
        assertThat(threads.compiling()).as("javac's own thread").isPositive();
        long sum = threads.compiling() + threads.jit() + threads.gc() + threads.other();
        // /proc's clock ticks are 10 ms: each of the five kinds may round up by one tick.
        assertThat(sum).isLessThanOrEqualTo(sample.processCpu() / 1_000_000 + 50);
        assertThat(javac.compile(List.of(source), Files.createDirectories(dir.resolve("plain")), Javac.Setup.PROC_NONE,
                dir).threads()).as("the javac launcher, no split").isNull();
    }

    @Test
    void theKindOfAThreadIsReadOffItsName() {
        assertThat(ThreadCpuJavac.kind("C2 CompilerThre", "main")).isEqualTo("c2");
        assertThat(ThreadCpuJavac.kind("C1 CompilerThre", "main")).isEqualTo("c1");
        assertThat(ThreadCpuJavac.kind("GC Thread#0", "main")).isEqualTo("gc");
        assertThat(ThreadCpuJavac.kind("G1 Refine#0", "main")).isEqualTo("gc");
        assertThat(ThreadCpuJavac.kind("java", "main")).isEqualTo("compiling");
        assertThat(ThreadCpuJavac.kind("main", "main")).isEqualTo("compiling");
        assertThat(ThreadCpuJavac.kind("VM Thread", "main")).isEqualTo("other");
    }

    @Test
    void withoutABaselineBuildTheBaselineConfigurationIsRefused(@TempDir Path dir) {
        assertThat(javac.hasBaseline()).isFalse();
        assertThatThrownBy(() -> javac.compile(List.of(), dir, Javac.Setup.SJ_BASELINE, dir))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("--baseline");
    }

    /** An A/B in fresh processes: the baseline build's processor runs from its own classes (here this build's). */
    @Test
    void theBaselineBuildRunsInAFreshProcess(@TempDir Path dir) throws Exception {
        FreshJavac withBaseline = new FreshJavac(System.getProperty("java.class.path"),
                Path.of(org.sessionj.processor.SessionProcessor.class.getProtectionDomain().getCodeSource()
                        .getLocation().toURI()).toString());
        assertThat(withBaseline.hasBaseline()).isTrue();
        Path source = Files.writeString(dir.resolve("Square.java"),
                "import org.sessionj.api.*;\n@Protocol(\"cbegin.!<int>.?(int\")\ninterface Square {}\n");
        assertThatThrownBy(() -> withBaseline.compile(List.of(source), Files.createDirectories(dir.resolve("base")),
                Javac.Setup.SJ_BASELINE, dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("(baseline) in a fresh process exited with 1").hasMessageContaining("SJ001");
    }
}
