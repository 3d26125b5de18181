package org.sessionj.examples.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** The rendezvous address a child rank reads from its standard input (the whole runs: ProcessesDemoTest). */
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
}
