package org.sessionj.examples.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.examples.net.Opened;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.RelayProcess;
import org.sessionj.examples.net.TestTls;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.transport.http.relay.HttpRelay;

/**
 * Clients on http and https in one chat with clients on tcp and tls: directly to the server's HTTP port,
 * and through a relay (WebSocket and long polling), every client's transcript compared line by line.
 * An http client's sessions with the server (its own and its event stream) take only http: it could not
 * get through otherwise. Its private conversations run between the clients' runtimes, so a client that
 * demands tls for the conversations it opens is refused, by negotiation, by an http client without tls.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ChatHttpTest {
    private static final List<String> PROPERTIES = List.of("sessionj.http.relay", "sessionj.http.websocket");
    private final Opened opened = new Opened();

    @BeforeAll
    static void tls() {
        TestTls.configure();
    }

    @AfterEach
    void closeAll() throws Exception {
        try {
            opened.closeAll();
        } finally {
            PROPERTIES.forEach(System::clearProperty);
        }
    }

    /** A client on {@code transport} ({@code tcp}, {@code tls}, {@code http}, {@code https}) to {@code port}. */
    private ChatClient client(String name, String transport, boolean tls, int port, Transcript display,
            boolean privateTls) {
        ChatClientSettings settings = ChatClientSettings.of(name, "localhost", port, "localhost")
                .withServerTransports(PartyRuntimes.towards(transport));
        if (privateTls) {
            settings = settings.withPrivateTransports("tls");
        }
        return opened.add(ChatClient.start(PartyRuntimes.forParty(transport, tls), settings, display));
    }

    @Test
    void clientsOnTcpTlsHttpAndHttpsChatInOneRoomAndPrivately() throws Exception {
        ChatServer server = opened.add(ChatServer.start(PartyRuntimes.create("tcp", true),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset()).withHttpPort(0)));
        assertThat(server.httpPort()).isPositive().isNotEqualTo(server.port());
        Transcript alice = new Transcript();
        Transcript bob = new Transcript();
        Transcript carol = new Transcript();
        Transcript dave = new Transcript();
        ChatClient a = client("alice", "tcp", true, server.port(), alice, false);
        alice.await("* joined the chat as alice; nobody else is here");
        ChatClient b = client("bob", "tls", true, server.port(), bob, true);
        bob.await("* joined the chat as bob; also here: alice");
        ChatClient c = client("carol", "http", false, server.httpPort(), carol, false);
        carol.await("* joined the chat as carol; also here: alice, bob");
        ChatClient d = client("dave", "https", true, server.httpPort(), dave, false);
        dave.await("* joined the chat as dave; also here: alice, bob, carol");
        for (Transcript t : List.of(alice, bob, carol)) {
            t.await("* dave joined");
        }
        assertThat(server.users()).containsExactly("alice", "bob", "carol", "dave");

        c.input("hello from http");
        for (Transcript t : List.of(alice, bob, carol, dave)) {
            t.await("<carol> hello from http");
        }
        d.input("hello from https");
        for (Transcript t : List.of(alice, bob, carol, dave)) {
            t.await("<dave> hello from https");
        }

        // carol (http to the server) opens a private conversation with alice (tcp): client to client
        c.input("/msg alice psst");
        alice.await("[carol] psst");
        carol.await("* private conversation with alice open");
        a.input("/msg carol hi carol");
        carol.await("[alice] hi carol");

        // bob demands tls for the conversations he opens; carol's runtime has no tls: refused by negotiation
        b.input("/msg carol secret");
        String refused = carol.awaitPrefix("! private conversation with bob refused: ");
        assertThat(refused).contains("no session transport both sides accept")
                .endsWith("— one side demands a transport (such as tls) that the other cannot use");
        String failed = bob.awaitPrefix("! private conversation with carol failed: ");
        assertThat(failed).contains("no session transport both sides accept").endsWith("(1 lines not delivered)");

        // dave (https to the server) can do tls: his conversation with bob runs
        d.input("/msg bob over tls?");
        bob.await("[dave] over tls?");
        dave.await("* private conversation with bob open");
        b.input("/msg dave yes");
        dave.await("[bob] yes");

        b.input("bye");
        for (Transcript t : List.of(alice, bob, carol, dave)) {
            t.await("<bob> bye");
        }
        assertThat(alice.lines()).containsExactly(
                "* joined the chat as alice; nobody else is here",
                "* bob joined",
                "* carol joined",
                "* dave joined",
                "<carol> hello from http",
                "<dave> hello from https",
                "* private conversation with carol open",
                "[carol] psst",
                "[to carol] hi carol",
                "<bob> bye");
        assertThat(bob.lines()).containsExactly(
                "* joined the chat as bob; also here: alice",
                "* carol joined",
                "* dave joined",
                "<carol> hello from http",
                "<dave> hello from https",
                "[to carol] secret",
                failed,
                "* private conversation with dave open",
                "[dave] over tls?",
                "[to dave] yes",
                "<bob> bye");
        assertThat(carol.lines()).containsExactly(
                "* joined the chat as carol; also here: alice, bob",
                "* dave joined",
                "<carol> hello from http",
                "<dave> hello from https",
                "[to alice] psst",
                "* private conversation with alice open",
                "[alice] hi carol",
                refused,
                "<bob> bye");
        assertThat(dave.lines()).containsExactly(
                "* joined the chat as dave; also here: alice, bob, carol",
                "<carol> hello from http",
                "<dave> hello from https",
                "[to bob] over tls?",
                "* private conversation with bob open",
                "[bob] yes",
                "<bob> bye");
    }

    /**
     * {@code ./sj relay --tls} as its own process: the server registers over https, a client whose
     * sessions with the server may only take https reaches it through the relay, and chats (also
     * privately: that conversation runs directly between the clients).
     */
    @Test
    void aClientThroughAnHttpsRelayProcessChatsWithATcpClient() throws Exception {
        var tls = TestTls.configure();
        RelayProcess relay = opened.add(RelayProcess.start("--tls", "--cert", tls.resolve("cert.pem").toString(),
                "--key", tls.resolve("key.pem").toString()));
        PartyRuntimes.useRelay(relay.url());
        assertThat(PartyRuntimes.relayTransport()).isEqualTo("https");
        ChatServer server = opened.add(ChatServer.start(PartyRuntimes.create("tcp", true),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset())));
        Transcript alice = new Transcript();
        Transcript erin = new Transcript();
        ChatClient a = client("alice", "tcp", true, server.port(), alice, false);
        alice.await("* joined the chat as alice; nobody else is here");
        ChatClient e = client("erin", "https", true, server.port(), erin, false);
        erin.await("* joined the chat as erin; also here: alice");
        alice.await("* erin joined");
        e.input("hi over https through the relay");
        for (Transcript t : List.of(alice, erin)) {
            t.await("<erin> hi over https through the relay");
        }
        e.input("/msg alice direct?");
        alice.await("[erin] direct?");
        erin.await("* private conversation with alice open");
        a.input("/msg erin yes");
        erin.await("[alice] yes");
        e.input("/quit");
        assertThat(e.awaitFinished(20, TimeUnit.SECONDS)).isTrue();
        assertThat(erin.lines()).containsExactly(
                "* joined the chat as erin; also here: alice",
                "<erin> hi over https through the relay",
                "[to alice] direct?",
                "* private conversation with alice open",
                "[alice] yes",
                "* bye");
    }

    @Test
    void anHttpsRelayRefusesPlainHttpClientsWithAReason() {
        PartyRuntimes.useRelay("https://localhost:1");
        assertThat(PartyRuntimes.relayMismatch("http")).isEqualTo("the relay speaks https: use --transport https (or tcp/tls)");
        assertThat(PartyRuntimes.relayMismatch("https")).isNull(); // TLS trust is configured for every test here
        assertThat(PartyRuntimes.towards("https")).isEqualTo(TransportPreferences.of(List.of("https"), List.of("https")));
        PartyRuntimes.useRelay("http://localhost:1");
        assertThat(PartyRuntimes.relayMismatch("http")).isNull();
        assertThat(PartyRuntimes.towards("https")).isEqualTo(TransportPreferences.of(List.of("http"), List.of("https")));
    }

    @ParameterizedTest(name = "websocket={0}")
    @ValueSource(booleans = {true, false})
    void aClientThroughTheRelayChatsWithATcpClient(boolean websocket) throws Exception {
        HttpRelay relay = opened.add(HttpRelay.start(0));
        PartyRuntimes.useRelay("localhost:" + relay.port());
        System.setProperty("sessionj.http.websocket", Boolean.toString(websocket));
        ChatServer server = opened.add(ChatServer.start(PartyRuntimes.create("tcp", false),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset())));
        Transcript alice = new Transcript();
        Transcript erin = new Transcript();
        ChatClient a = client("alice", "tcp", false, server.port(), alice, false);
        alice.await("* joined the chat as alice; nobody else is here");
        assertThat(relay.stats().sessions()).as("alice reaches the server over tcp").isZero();
        ChatClient e = client("erin", "http", false, server.port(), erin, false);
        erin.await("* joined the chat as erin; also here: alice");
        alice.await("* erin joined");
        assertThat(relay.stats().sessions()).as("erin's session and event stream through the relay, two halves each").isEqualTo(4);

        e.input("hi from behind the firewall");
        for (Transcript t : List.of(alice, erin)) {
            t.await("<erin> hi from behind the firewall");
        }
        a.input("hi erin");
        for (Transcript t : List.of(alice, erin)) {
            t.await("<alice> hi erin");
        }
        e.input("/msg alice direct?");
        alice.await("[erin] direct?");
        erin.await("* private conversation with alice open");
        a.input("/msg erin yes");
        erin.await("[alice] yes");
        e.input("/quit");
        assertThat(e.awaitFinished(20, TimeUnit.SECONDS)).isTrue();
        alice.await("* erin left");
        alice.await("* private conversation with erin ended: erin left the chat");
        assertThat(erin.lines()).containsExactly(
                "* joined the chat as erin; also here: alice",
                "<erin> hi from behind the firewall",
                "<alice> hi erin",
                "[to alice] direct?",
                "* private conversation with alice open",
                "[alice] yes",
                "* bye");
        assertThat(alice.lines()).startsWith(
                "* joined the chat as alice; nobody else is here",
                "* erin joined",
                "<erin> hi from behind the firewall",
                "<alice> hi erin",
                "* private conversation with erin open",
                "[erin] direct?",
                "[to erin] yes");
        assertThat(alice.lines().subList(7, alice.lines().size()))
                .containsExactlyInAnyOrder("* erin left", "* private conversation with erin ended: erin left the chat");
    }
}
