package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tokens that name a connection's halves (and a relay-mode server's registration) are its only
 * credential: whoever knows one may poll, upload to, or take over that half. They must not be guessable
 * from one another: 128 bits of {@link java.security.SecureRandom} each, 32 hex digits, never repeated;
 * and a request only ever reaches a half with a token of exactly that form.
 */
class WireTokenTest {
    @Test
    void tokensAre128RandomBitsThatNeverRepeatAndNoBitIsFixed() {
        Set<String> seen = new HashSet<>();
        int[] ones = new int[128];
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            String token = Wire.newToken();
            assertThat(token).matches("[0-9a-f]{32}");
            assertThat(Wire.isToken(token)).isTrue();
            assertThat(seen.add(token)).as("token %s repeated", token).isTrue();
            byte[] bits = HexFormat.of().parseHex(token);
            for (int b = 0; b < 128; b++) {
                ones[b] += (bits[b / 8] >> (b % 8)) & 1;
            }
        }
        // Each bit is set in about half of the tokens (a fixed or counting bit would be at 0, n or far off):
        // 20,000 draws, so ±5 standard deviations is ±354.
        for (int b = 0; b < 128; b++) {
            assertThat(ones[b]).as("tokens with bit %d set", b).isBetween(n / 2 - 354, n / 2 + 354);
        }
    }

    @Test
    void onlyTheExactFormReachesALookup() {
        assertThat(Wire.isToken("0123456789abcdef0123456789abcdef")).isTrue();
        assertThat(Wire.isToken("0123456789abcdef0123456789abcde")).as("31 digits").isFalse();
        assertThat(Wire.isToken("0123456789abcdef0123456789abcdef0")).as("33 digits").isFalse();
        assertThat(Wire.isToken("0123456789ABCDEF0123456789ABCDEF")).as("upper case").isFalse();
        assertThat(Wire.isToken("../../etc/passwd/0123456789abcdef")).isFalse();
    }
}
