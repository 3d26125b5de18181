package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.examples.deploy.RankProgram;
import org.sessionj.examples.jacobi.JacobiProgram;
import org.sessionj.examples.jacobi.Variant;
import org.sessionj.examples.nbody.NBodyProgram;
import org.sessionj.examples.pi.PiProgram;

/** The arguments rank 0 gives a child rank ({@link RankMain#args}) and how the child reads them back. */
class RankMainTest {

    @Test
    void everyDemoProgramSurvivesTheTripThroughItsArguments() {
        List<RankProgram<?>> programs = List.of(new PiProgram(3, 1234),
                new JacobiProgram(2, 40, 70, Variant.ORDINARY, false), new JacobiProgram(4, 40, 70, Variant.NOALIAS, true),
                new NBodyProgram(2, 300, 20, Variant.NOALIAS, -2009L), new NBodyProgram(3, 30, 0, Variant.ORDINARY, 7L));
        for (RankProgram<?> program : programs) {
            List<String> args = RankMain.args(1, "-", Duration.ofSeconds(42), "10.0.0.2", program);
            RankMain.Child child = RankMain.parse(args);
            assertThat(child.program()).as(String.join(" ", args)).isEqualTo(program);
            assertThat(child.rank()).isEqualTo(1);
            assertThat(child.host()).isEqualTo("10.0.0.2");
            assertThat(child.timeout()).isEqualTo(Duration.ofSeconds(42));
        }
    }

    @Test
    void aGivenRendezvousAddressIsParsedAtOnce() {
        RankMain.Child child = RankMain.parse(List.of("2", "127.0.0.1:4242", "60", "127.0.0.1", "pi", "2", "10"));
        assertThat(child.address().get().port()).isEqualTo(4242);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "1 - 60 127.0.0.1 | expected RANK RENDEZVOUS TIMEOUT HOST PROGRAM… but found [1, -, 60, 127.0.0.1]",
            "one - 60 127.0.0.1 pi 2 10 | expected a number for RANK but found 'one'",
            "3 - 60 127.0.0.1 pi 2 10 | expected RANK between 1 and 2 but found 3",
            "0 - 60 127.0.0.1 pi 2 10 | expected RANK between 1 and 2 but found 0",
            "1 - 0 127.0.0.1 pi 2 10 | expected TIMEOUT of at least 1 second but found 0",
            "1 nowhere 60 127.0.0.1 pi 2 10 | expected RENDEZVOUS as HOST:PORT but found 'nowhere'",
            "1 - 60 127.0.0.1 mandelbrot 2 | expected a program pi, jacobi or nbody but found 'mandelbrot'",
            "1 - 60 127.0.0.1 pi 2 | expected pi WORKERS POINTS but found pi 2",
            "1 - 60 127.0.0.1 pi 2 0 | expected at least 1 point per worker but found 0",
            "1 - 60 127.0.0.1 jacobi 2 40 70 aliased multicast | expected noalias or ordinary but found 'aliased'",
            "1 - 60 127.0.0.1 jacobi 2 40 70 noalias ring | expected pipeline or multicast but found 'ring'",
            "1 - 60 127.0.0.1 nbody 2 300 20 x noalias | expected a number for SEED but found 'x'"})
    void badArgumentsAreRefusedSayingWhatWasExpected(String args, String message) {
        assertThatThrownBy(() -> RankMain.parse(List.of(args.split(" "))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
