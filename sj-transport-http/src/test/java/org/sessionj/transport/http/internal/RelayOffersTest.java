package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A server believes the address a relay names for a requester (hostile18 H8 through a relay) only under its
 * own listen key: a {@code from} line whose MAC is under another key, or made for another connection, or
 * that names a host instead of an IP literal, gives no address; lines it does not know are skipped, so an
 * old relay's answer (tokens only) still gives its connections.
 */
class RelayOffersTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);

    private static String from(byte[] key, String token, String address) {
        return Wire.FROM_LINE + address + " " + ListenProof.from(key, token, address);
    }

    @Test
    void aFromLineUnderTheServersKeyNamesTheRequestersAddressAndNothingElseDoes() throws Exception {
        String a = Wire.newToken();
        String b = Wire.newToken();
        String c = Wire.newToken();
        String d = Wire.newToken();
        String e = Wire.newToken();
        String answer = a + "\n" + from(KEY, a, "192.0.2.7") + "\n"
                + b + "\n" + from(OTHER, b, "192.0.2.8") + "\n"
                + c + "\n" + from(KEY, a, "192.0.2.9") + "\n"
                + d + "\n" + from(KEY, d, "localhost") + "\n"
                + e + "\n" + from(KEY, e, "2001:db8::1") + "\n";
        List<RelayAcceptor.Offer> offers = RelayAcceptor.offers(answer, KEY);
        assertThat(offers).extracting(RelayAcceptor.Offer::token).containsExactly(a, b, c, d, e);
        assertThat(offers.get(0).from()).isEqualTo(InetAddress.getByName("192.0.2.7"));
        assertThat(offers.get(1).from()).as("under another key").isNull();
        assertThat(offers.get(2).from()).as("a MAC made for another connection").isNull();
        assertThat(offers.get(3).from()).as("a name, not an IP literal").isNull();
        assertThat(offers.get(4).from()).isEqualTo(InetAddress.getByName("2001:db8::1"));

        assertThat(RelayAcceptor.offers(answer, null)).as("a server without a key believes no address")
                .extracting(RelayAcceptor.Offer::from).containsOnlyNulls();
    }

    @Test
    void anOldRelaysAnswerGivesItsConnectionsAndStrayLinesAreSkipped() {
        String a = Wire.newToken();
        String b = Wire.newToken();
        List<RelayAcceptor.Offer> offers = RelayAcceptor.offers(from(KEY, a, "192.0.2.7") + "\n" + a + "\n" + b,
                KEY);
        assertThat(offers).extracting(RelayAcceptor.Offer::token).containsExactly(a, b);
        assertThat(offers).extracting(RelayAcceptor.Offer::from).containsOnlyNulls();
    }
}
