package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** hostile H8: peer text quoted in a log line or a message has its control characters escaped. */
class PeerTextTest {
    @Test
    void plainTextIsTheSameString() {
        String plain = "cbegin.!<int>.?(java.lang.String) — ünïcode é";
        assertThat(PeerText.escaped(plain)).isSameAs(plain);
        assertThat(PeerText.escaped(null)).isNull();
    }

    @Test
    void newlinesAndControlsAreEscaped() {
        assertThat(PeerText.escaped("a\nNov 29 INFO: forged\r\tb")).isEqualTo("a\\nNov 29 INFO: forged\\r\\tb");
        assertThat(PeerText.escaped("nul\u0000 esc\u001b[31m del\u007f c1\u0085")).isEqualTo(
                "nul\\u0000 esc\\u001B[31m del\\u007F c1\\u0085");
        assertThat(PeerText.escaped("ls\u2028ps\u2029 rlo\u202E lri\u2066")).isEqualTo(
                "ls\\u2028ps\\u2029 rlo\\u202E lri\\u2066");
    }

    @Test
    void aBackslashIsDoubledSoThatNoEscapeCanBeForged() {
        assertThat(PeerText.escaped("\\n is not a newline\n")).isEqualTo("\\\\n is not a newline\\n");
    }
}
