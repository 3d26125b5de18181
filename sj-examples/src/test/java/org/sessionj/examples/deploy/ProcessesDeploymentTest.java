package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rendezvous address a child rank reads from its standard input, and the JVM options a child gets
 * (the whole runs: ProcessesDemoTest).
 */
class ProcessesDeploymentTest {

    private static BufferedReader input(String text) {
        return new BufferedReader(new StringReader(text));
    }

    @Test
    void aChildReadsTheAddressRankZeroWrote() {
        assertThat(ProcessesDeployment.readAddress(input("127.0.0.1:4711\n"))).isEqualTo(new HostPort("127.0.0.1", 4711));
        assertThat(ProcessesDeployment.readAddress(input(" 127.0.0.1:80 \r\nmore"))).isEqualTo(new HostPort("127.0.0.1", 80));
    }

    @Test
    void inputThatEndsFirstSaysRankZeroIsGone() {
        assertThatThrownBy(() -> ProcessesDeployment.readAddress(input(""))).isInstanceOf(DeploymentException.class)
                .hasMessage("expected the rendezvous address (HOST:PORT) on standard input but it ended first: rank 0 is gone");
    }

    @Test
    void somethingElseThanAnAddressIsNamed() {
        assertThatThrownBy(() -> ProcessesDeployment.readAddress(input("hello\n"))).isInstanceOf(DeploymentException.class)
                .hasMessage("expected the rendezvous address on standard input as HOST:PORT but found 'hello'");
    }

    @Test
    void aChildDoesNotWriteTheAotCacheRankZeroTrains() {
        List<String> parent = List.of("-Xmx1g", "-XX:AOTCacheOutput=/tmp/sj.aot", "-XX:AOTMode=record",
                "-XX:AOTConfiguration=/tmp/sj.aotconf", "-XX:ArchiveClassesAtExit=/tmp/sj.jsa",
                "-Dsessionj.ipc.spins=0", "--enable-native-access=ALL-UNNAMED");
        assertThat(ProcessesDeployment.childJvmOptions(parent))
                .containsExactly("-Xmx1g", "-Dsessionj.ipc.spins=0", "--enable-native-access=ALL-UNNAMED");
    }

    @Test
    void aChildStartsFromTheCacheRankZeroReads() {
        List<String> parent = List.of("-XX:AOTCache=/tmp/sj.aot", "-XX:SharedArchiveFile=/tmp/sj.jsa", "-Xshare:auto");
        assertThat(ProcessesDeployment.childJvmOptions(parent)).isEqualTo(parent);
    }

    @Test
    void aChildOnJdk25ExitsWithoutWaitingForItsThreadsInNativeCode() {
        assertThat(ProcessesDeployment.childCommand("java", List.of("-Xmx1g"), 25, "cp.jar", "Main", List.of("1")))
                .containsExactly("java", "-Xmx1g", "--enable-native-access=ALL-UNNAMED",
                        "--sun-misc-unsafe-memory-access=allow", "-XX:UserThreadWaitAttemptsAtExit=0", "-cp", "cp.jar",
                        "Main", "1");
    }

    @Test
    void anOlderJdkGetsOnlyTheOptionsItKnows() {
        assertThat(ProcessesDeployment.childCommand("java", List.of(), 21, "cp.jar", "Main", List.of()))
                .containsExactly("java", "-cp", "cp.jar", "Main");
        assertThat(ProcessesDeployment.childCommand("java", List.of(), 23, "cp.jar", "Main", List.of()))
                .doesNotContain("-XX:UserThreadWaitAttemptsAtExit=0").contains("--sun-misc-unsafe-memory-access=allow");
    }

    @Test
    void theParentsOwnChoiceIsKeptNotRepeated() {
        List<String> parent = List.of("-XX:UserThreadWaitAttemptsAtExit=30", "--enable-native-access=ALL-UNNAMED");
        assertThat(ProcessesDeployment.childCommand("java", parent, 25, "cp.jar", "Main", List.of()))
                .containsOnlyOnce("--enable-native-access=ALL-UNNAMED").contains("-XX:UserThreadWaitAttemptsAtExit=30")
                .doesNotContain("-XX:UserThreadWaitAttemptsAtExit=0");
    }

    /** Counts down {@code all} and waits for the others to have counted down too: true only if they run at the same time. */
    private static boolean together(CountDownLatch all) {
        all.countDown();
        try {
            return all.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    @Timeout(30)
    void theChildrenStartAtOnceWhileRankZeroOpensItsRendezvous() {
        CountDownLatch all = new CountDownLatch(3);
        List<Supplier<Boolean>> starts = List.of(() -> together(all), () -> together(all));
        ProcessesDeployment.Alongside<Boolean, Boolean> done = ProcessesDeployment.startAlongside(starts, () -> together(all));
        assertThat(done.failure()).isNull();
        assertThat(done.value()).as("the work done meanwhile met both starts").isTrue();
        assertThat(done.started()).as("each start met the other and the work done meanwhile").containsExactly(true, true);
    }

    @Test
    @Timeout(30)
    void aStartThatFailsIsReportedAndTheOthersAreStillThereToBeStopped() {
        IllegalStateException cannot = new IllegalStateException("cannot start rank 1 (java): No such file");
        List<Supplier<String>> starts = List.of(() -> {
            throw cannot;
        }, () -> "rank 2");
        ProcessesDeployment.Alongside<String, String> done = ProcessesDeployment.startAlongside(starts, () -> "rendezvous");
        assertThat(done.failure()).isSameAs(cannot);
        assertThat(done.started()).containsExactly("rank 2");
        assertThat(done.value()).as("open, so that the caller closes it").isEqualTo("rendezvous");
    }

    @Test
    @Timeout(30)
    void aRendezvousThatCannotOpenFailsTheRunAndEveryStartedChildIsReturned() {
        IllegalStateException cannot = new IllegalStateException("cannot listen");
        ProcessesDeployment.Alongside<String, String> done = ProcessesDeployment.startAlongside(
                List.<Supplier<String>>of(() -> "rank 1", () -> "rank 2"), () -> {
                    throw cannot;
                });
        assertThat(done.failure()).isSameAs(cannot);
        assertThat(done.value()).isNull();
        assertThat(done.started()).containsExactly("rank 1", "rank 2");
    }

    @Test
    @Timeout(30)
    void anErrorInAStartIsWrappedNamingIt() {
        ProcessesDeployment.Alongside<String, String> done = ProcessesDeployment.startAlongside(
                List.<Supplier<String>>of(() -> {
                    throw new OutOfMemoryError("unable to create native thread");
                }), () -> "rendezvous");
        assertThat(done.failure()).isInstanceOf(DeploymentException.class)
                .hasMessage("cannot start a rank: java.lang.OutOfMemoryError: unable to create native thread");
        assertThat(done.started()).isEmpty();
    }
}
