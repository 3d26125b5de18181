package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A direct http server's connection limit follows the process's descriptor limit (hostile H4): at a fixed 32,768,
 * a slowloris under {@code ulimit -n 4096} used up the descriptors first, and the server's accepts then failed.
 */
class DirectConnectionLimitTest {
    private static String limits(String soft, String hard) {
        return "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max processes             63704                63704                processes \n"
                + "Max open files            " + soft + "                " + hard + "                files     \n"
                + "Max locked memory         8388608              8388608              bytes     \n";
    }

    @Test
    void theLimitIsHalfTheSoftDescriptorLimitBetween64And32768() {
        assertThat(DirectAcceptor.connectionLimit(limits("4096", "4096"))).isEqualTo(2048);
        assertThat(DirectAcceptor.connectionLimit(limits("1024", "524288"))).isEqualTo(512);
        assertThat(DirectAcceptor.connectionLimit(limits("100", "100"))).isEqualTo(64);
        assertThat(DirectAcceptor.connectionLimit(limits("1048576", "1048576"))).isEqualTo(32_768);
        assertThat(DirectAcceptor.connectionLimit(limits("unlimited", "unlimited"))).isEqualTo(32_768);
        assertThat(DirectAcceptor.connectionLimit("no such line\n")).isEqualTo(32_768);
    }

    @Test
    void thisProcessHasALimitWithinTheBounds() {
        assertThat(DirectAcceptor.connectionLimit()).isBetween(64, 32_768);
    }
}
