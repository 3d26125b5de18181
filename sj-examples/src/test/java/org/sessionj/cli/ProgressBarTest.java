package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

    @Test
    void shortRunsDrawNothing() {
        StringWriter err = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, "jacobi");
        for (int i = 1; i <= 100; i++) {
            bar.update(i, 100);
        }
        bar.finish();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void onATerminalTheBarIsRedrawnInPlaceAndEndsItsLine() {
        StringWriter err = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, "nbody", 0);
        bar.update(1, 4);
        bar.update(4, 4);
        bar.finish();
        assertThat(err.toString()).startsWith("\rnbody [########......................]  25% 1/4")
                .contains("\rnbody [##############################] 100% 4/4").endsWith(System.lineSeparator());
    }

    @Test
    void elsewhereEachQuarterIsOnePlainLine() {
        StringWriter err = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(err), false, "jacobi", 0);
        for (int i = 1; i <= 8; i++) {
            bar.update(i, 8);
        }
        bar.finish();
        assertThat(err.toString()).doesNotContain("\r").isEqualTo(String.join(System.lineSeparator(),
                "jacobi: 25% (2/8)", "jacobi: 50% (4/8)", "jacobi: 75% (6/8)", "jacobi: 100% (8/8)", ""));
    }
}
