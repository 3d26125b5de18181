package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.transport.http.internal.Endpoint;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.ListenProof;
import org.sessionj.transport.http.internal.RelayAcceptor;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.ListenKeys;
import org.sessionj.transport.http.relay.RelayLimits;

/**
 * hostile18 H3: a relay started with a listen key registers only servers that prove it. Before, names
 * were first come, first served: an impostor registered a server's name first, received its requesters,
 * and the real server failed with 409. Now the squatter without the key is refused (401, with a message
 * naming the setting) and the real server gets the name and its requesters; a registration seen on the
 * way and sent again, a proof under another key, and a proof moved to other names are refused and counted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpRelayListenKeyTest {
    private static final HttpSettings SETTINGS = new HttpSettings(2_000, 64 << 10, 256 << 10, 256 << 10, 15_000, true,
            16 << 20);
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final long REGISTER_NANOS = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;
    private HttpRelay relay;
    private Endpoint endpoint;

    @BeforeEach
    void start() throws IOException {
        Path file = dir.resolve("relay.keys");
        Files.writeString(file, "# the servers' key\n" + new String(KEY, StandardCharsets.UTF_8) + "\n");
        relay = HttpRelay.start(new InetSocketAddress("127.0.0.1", 0), null, SETTINGS, RelayLimits.defaults(),
                ListenKeys.fromFile(file));
        endpoint = new Endpoint("127.0.0.1", relay.port(), null, SETTINGS);
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    private static String register(String id, int port, String name, String extra) {
        return Wire.LISTEN + "?id=" + id + "&port=" + port + "&name=" + name + "&register=1" + extra;
    }

    @Test
    void aSquatterWithoutTheKeyIsRefusedAndTheRealServerGetsTheNameAndItsRequesters() throws Exception {
        assertThatThrownBy(() -> RelayAcceptor.listen("http", endpoint, 4000, List.of("victimhost.example"),
                REGISTER_NANOS, null))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("401 Unauthorized: this relay registers only servers that prove its listen key"
                        + " (sessionj.http.relayKeyFile on the server, ./sj relay --listen-key)")
                .hasMessageEndingWith("this server has no key (sessionj.http.relayKeyFile)");
        byte[] wrong = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RelayAcceptor.listen("http", endpoint, 4000, List.of("victimhost.example"),
                REGISTER_NANOS, wrong))
                .isInstanceOf(IOException.class).hasMessageContaining("the proof matches no listen key of this relay");
        assertThat(relay.stats().listeners()).isZero();
        assertThat(relay.refusedRegistrations()).as("the wrong key's proofs").isPositive();

        try (RelayAcceptor real = RelayAcceptor.listen("http", endpoint, 4000, List.of("victimhost.example"),
                REGISTER_NANOS, KEY); RawHttp requester = new RawHttp(relay.port(), 10_000)) {
            assertThat(relay.stats().listeners()).isEqualTo(1);
            RawHttp.Response connect = requester.exchange("POST", Wire.CONNECT + "?target=victimhost.example:4000");
            assertThat(connect.status()).as("requesters need no key").isEqualTo(200);
            Connection served = real.accept(TimeUnit.SECONDS.toNanos(20));
            assertThat(served).as("the real server takes its requester").isNotNull();
            served.close();
        }
    }

    /**
     * hostile18 H8 through a relay: a relay that holds the server's key vouches, under it, for the address each
     * requester's connection came from, and the server's end names it (before, null: every requester came from
     * the relay, so a server could not bound what one source holds through a relay).
     */
    @Test
    void theServersEndNamesTheAddressEachRequesterCameFromAsTheKeyedRelayVouches() throws Exception {
        try (RelayAcceptor server = RelayAcceptor.listen("http", endpoint, 4000, List.of("vouched.example"),
                REGISTER_NANOS, KEY);
                RawHttp two = new RawHttp(InetAddress.getByName("127.0.0.2"), relay.port(), 10_000);
                RawHttp three = new RawHttp(InetAddress.getByName("127.0.0.3"), relay.port(), 10_000)) {
            assertThat(two.exchange("POST", Wire.CONNECT + "?target=vouched.example:4000").status()).isEqualTo(200);
            Connection first = server.accept(TimeUnit.SECONDS.toNanos(20));
            assertThat(three.exchange("POST", Wire.CONNECT + "?target=vouched.example:4000").status()).isEqualTo(200);
            Connection second = server.accept(TimeUnit.SECONDS.toNanos(20));
            assertThat(first.peerAddress()).isEqualTo(InetAddress.getByName("127.0.0.2"));
            assertThat(second.peerAddress()).isEqualTo(InetAddress.getByName("127.0.0.3"));
            first.close();
            second.close();
        }
    }

    @Test
    void aReplayedRegistrationAProofUnderAnotherKeyAndAProofMovedToOtherNamesAreRefused() throws IOException {
        try (RawHttp server = new RawHttp(relay.port(), 10_000);
                RawHttp attacker = new RawHttp(InetAddress.getByName("127.0.0.2"), relay.port(), 10_000)) {
            String id = Wire.newToken();
            RawHttp.Response challenge = server.exchange("POST", register(id, 4000, "victim", ""));
            assertThat(challenge.status()).isEqualTo(401);
            String nonce = challenge.headers().get(Wire.NONCE);
            assertThat(nonce).matches("[0-9a-f]{64}");
            String proven = "&nonce=" + nonce + "&proof=" + ListenProof.proof(KEY, nonce, id, 4000, List.of("victim"));
            assertThat(server.exchange("POST", register(id, 4000, "victim", proven)).status()).isEqualTo(200);
            assertThat(server.exchange("POST", Wire.LISTEN + "?id=" + id + "&port=4000&close=1").status())
                    .as("the real server stops (a restart)").isLessThan(300);

            RawHttp.Response replay = attacker.exchange("POST", register(id, 4000, "victim", proven));
            assertThat(replay.status()).isEqualTo(401);
            assertThat(replay.body()).endsWith("the nonce was used already: a registration is proven once (a replay?)");

            String fresh = attacker.exchange("POST", register(id, 4000, "victim", "")).headers()
                    .get(Wire.NONCE);
            String moved = "&nonce=" + fresh + "&proof=" + ListenProof.proof(KEY, fresh, id, 4000, List.of("victim"));
            assertThat(attacker.exchange("POST", register(id, 4000, "other", moved)).body())
                    .as("a proof for other names").contains("the proof matches no listen key");
            byte[] wrong = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
            String guessed = "&nonce=" + fresh + "&proof=" + ListenProof.proof(wrong, fresh, id, 4000, List.of("victim"));
            assertThat(attacker.exchange("POST", register(id, 4000, "victim", guessed)).body())
                    .contains("the proof matches no listen key");
            assertThat(attacker.exchange("POST", register(id, 4000, "victim", "&nonce=00&proof=00")).body())
                    .contains("the nonce is not one this relay issued");
            assertThat(relay.refusedRegistrations()).isEqualTo(4);
            assertThat(relay.stats().listeners()).isZero();

            RawHttp.Response poll = attacker.exchange("POST", Wire.LISTEN + "?id=" + Wire.newToken()
                    + "&port=4000&name=victim");
            assertThat(poll.status()).as("a poll of an unknown server does not register it here").isEqualTo(404);
            assertThat(relay.stats().listeners()).isZero();
        }
    }

    @Test
    void aNonceIsGoodForAMinuteAndKeysAreRotatedInTheFile() throws IOException {
        Path file = dir.resolve("rotating.keys");
        String first = "1111111111111111";
        String second = "2222222222222222222222";
        Files.writeString(file, first + "\n");
        long[] now = {1_000_000};
        ListenKeys keys = ListenKeys.fromFile(file, () -> now[0]);
        String id = Wire.newToken();
        List<String> names = List.of("a");

        String stale = keys.nonce();
        now[0] += ListenKeys.NONCE_MILLIS + 1;
        assertThat(keys.check(stale, proof(first, stale, id), id, 1, names)).startsWith("the nonce is older than 60 s");

        String nonce = keys.nonce();
        assertThat(keys.check(nonce, proof(first, nonce, id), id, 1, names)).isNull();
        Files.writeString(file, first + "\n" + second + "\n");
        nonce = keys.nonce();
        assertThat(keys.check(nonce, proof(second, nonce, id), id, 1, names)).as("the new key, added").isNull();
        Files.writeString(file, "# rotated\n" + second + "\n");
        nonce = keys.nonce();
        assertThat(keys.check(nonce, proof(first, nonce, id), id, 1, names)).as("the old key, removed")
                .startsWith("the proof matches no listen key");
        Files.writeString(file, "short\n");
        nonce = keys.nonce();
        assertThat(keys.check(nonce, proof(second, nonce, id), id, 1, names))
                .as("a file that lost its keys keeps the ones read before").isNull();
    }

    private static String proof(String key, String nonce, String id) {
        return ListenProof.proof(key.getBytes(StandardCharsets.UTF_8), nonce, id, 1, List.of("a"));
    }
}
