package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
