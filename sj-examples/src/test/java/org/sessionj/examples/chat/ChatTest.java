package org.sessionj.examples.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.net.Opened;
import org.sessionj.examples.net.TestTls;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.TransportPreferences;

/**
 * Several chat clients in one JVM, on different transports (tcp, tls), talking through one server and
 * privately, with every client's transcript compared line by line.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ChatTest {
    private final Opened opened = new Opened();

    @BeforeAll
    static void tls() {
        TestTls.configure();
    }

    @AfterEach
    void closeAll() throws Exception {
        opened.closeAll();
    }

    private ChatServer server(int port) {
        ChatServer server = ChatServer.start(PartyRuntimes.create("tcp", true),
                ChatServerSettings.of(port, "localhost", TransportPreferences.unset()));
        opened.add(server);
        return server;
    }

    private ChatClient client(ChatServer server, String name, String transport, boolean tls, Transcript display,
            ChatClientSettings... custom) {
        ChatClientSettings settings = custom.length > 0 ? custom[0]
                : ChatClientSettings.of(name, "localhost", server.port(), "localhost");
        ChatClient client = ChatClient.start(PartyRuntimes.create(transport, tls), settings, display);
        opened.add(client);
        return client;
    }

    @Test
    void clientsOnTcpAndTlsChatGloballyAndPrivately() throws Exception {
        ChatServer server = server(0);
        Transcript alice = new Transcript();
        Transcript bob = new Transcript();
        Transcript carol = new Transcript();
        ChatClient a = client(server, "alice", "tcp", true, alice);
        alice.await("* joined the chat as alice; nobody else is here");
        ChatClient b = client(server, "bob", "tls", true, bob,
                ChatClientSettings.of("bob", "localhost", server.port(), "localhost").withPrivateTransports("tls"));
        bob.await("* joined the chat as bob; also here: alice");
        alice.await("* bob joined");
        ChatClient c = client(server, "carol", "tcp", false, carol);
        carol.await("* joined the chat as carol; also here: alice, bob");
        bob.await("* carol joined");

        a.input("hello everyone");
        for (Transcript t : List.of(alice, bob, carol)) {
            t.await("<alice> hello everyone");
        }
        b.input("/users");
        bob.await("* users: bob (you), alice, carol");

        // alice -> bob privately: alice's port accepts tcp or tls, bob only does tls: tls it is.
        a.input("/msg bob hi bob");
        bob.await("[alice] hi bob");
        b.input("/msg alice hi alice");
        alice.await("[bob] hi alice");

        // bob demands tls for the conversations he opens; carol cannot do tls: refused by negotiation.
        b.input("/msg carol psst");
        String refused = carol.awaitPrefix("! private conversation with bob refused: ");
        assertThat(refused).contains("no session transport both sides accept")
                .endsWith("— one side demands a transport (such as tls) that the other cannot use");
        String failed = bob.awaitPrefix("! private conversation with carol failed: ");
        assertThat(failed).contains("no session transport both sides accept").endsWith("(1 lines not delivered)");

        c.input("bye all");
        for (Transcript t : List.of(alice, bob, carol)) {
            t.await("<carol> bye all");
        }
        a.input("/quit");
        assertThat(a.awaitFinished(10, TimeUnit.SECONDS)).isTrue();
        bob.await("* alice left");
        bob.await("* private conversation with alice ended: alice left the chat");
        carol.await("* alice left");

        assertThat(alice.lines()).containsExactly(
                "* joined the chat as alice; nobody else is here",
                "* bob joined",
                "* carol joined",
                "<alice> hello everyone",
                "[to bob] hi bob",
                "* private conversation with bob open",
                "[bob] hi alice",
                "<carol> bye all",
                "* bye");
        assertThat(bob.lines()).containsExactly(
                "* joined the chat as bob; also here: alice",
                "* carol joined",
                "<alice> hello everyone",
                "* users: bob (you), alice, carol",
                "* private conversation with alice open",
                "[alice] hi bob",
                "[to alice] hi alice",
                "[to carol] psst",
                failed,
                "<carol> bye all",
                // two connections, so either order: the server's news and the end of the private streams
                bob.lines().get(10).equals("* alice left") ? "* alice left" : "* private conversation with alice ended: alice left the chat",
                bob.lines().get(10).equals("* alice left") ? "* private conversation with alice ended: alice left the chat" : "* alice left");
        assertThat(carol.lines()).containsExactly(
                "* joined the chat as carol; also here: alice, bob",
                "<alice> hello everyone",
                refused,
                "<carol> bye all",
                "* alice left");
    }

    /**
     * A client that leaves before it asks for its event stream (or never asks: a peer that only wants the
     * server to open ports, hostile17 H3) frees the stream port the server opened for it when its session
     * ends, not after the stream's 30 s request timeout.
     */
    @Test
    void aClientThatLeavesBeforeAskingForItsStreamFreesItsPort() throws Exception {
        ChatServer server = server(0);
        SJRuntime runtime = PartyRuntimes.create("tcp", false);
        int streamPort = leaveAtOnce(runtime.service(ClientToServer.class, "localhost", server.port()));
        // The server's serving of the session has ended (its ports freed) within 10 s: an event, not a poll.
        assertThat(server.served.tryAcquire(10, TimeUnit.SECONDS)).as("the client's session served to its end").isTrue();
        assertThatThrownBy(() -> new java.net.Socket("localhost", streamPort).close())
                .as("stream port %d still listening after its client left", streamPort)
                .isInstanceOf(java.net.ConnectException.class);
    }

    /**
     * hostile18 H8: one address held as many sessions as it liked (1,000 members that never joined filled the
     * room), and a refused client saw only a closed session. Now one address holds at most
     * {@code maxPerAddress} sessions, and a refused client is told why and shows it.
     */
    @Test
    void oneAddressHoldsAtMostItsShareAndARefusedClientIsToldWhy() throws Exception {
        ChatServer server = ChatServer.start(PartyRuntimes.create("tcp", false),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset())
                        .withLimits(1000, 2, ChatServerSettings.DEFAULT_JOIN_TIMEOUT));
        opened.add(server);
        SJRuntime runtime = PartyRuntimes.create("tcp", false);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.CompletableFuture<Integer>> squatters = new ArrayList<>();
        java.util.concurrent.CountDownLatch admitted = new java.util.concurrent.CountDownLatch(2);
        for (int k = 0; k < 2; k++) {
            org.sessionj.api.SJService svc = runtime.service(ClientToServer.class, "localhost", server.port());
            squatters.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> squat(svc, admitted, release),
                    r -> Thread.ofVirtual().start(r)));
        }
        assertThat(admitted.await(30, TimeUnit.SECONDS)).isTrue();
        try {
            Transcript alice = new Transcript();
            client(server, "alice", "tcp", false, alice);
            String refused = alice.awaitPrefix("! the server refused this client");
            assertThat(refused).contains("too many sessions from your address (2)");
        } finally {
            release.countDown();
        }
        for (java.util.concurrent.CompletableFuture<Integer> squatter : squatters) {
            assertThat(squatter.get(30, TimeUnit.SECONDS)).isPositive();
        }
    }

    /**
     * H21-2: a session that never sent its user name was neither counted against its address's share nor
     * timed out, so one address held as many sessions as it opened, past {@code maxPerAddress} (the H8 cap),
     * each a thread and a descriptor for good. Now a session counts from its accept, and one that does not
     * send its name within the join timeout is dropped and gives its share back.
     */
    @Test
    void sessionsThatNeverSendTheirNameCountAgainstTheAddressAndAreDroppedAtTheJoinTimeout() throws Exception {
        // Two nameless sessions, a 30 s join timeout: they hold the address's share, so alice is refused.
        ChatServer held = ChatServer.start(PartyRuntimes.create("tcp", false),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset())
                        .withLimits(1000, 2, ChatServerSettings.DEFAULT_JOIN_TIMEOUT));
        opened.add(held);
        SJRuntime runtime = PartyRuntimes.create("tcp", false);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.CompletableFuture<String>> nameless = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            org.sessionj.api.SJService svc = runtime.service(ClientToServer.class, "localhost", held.port());
            nameless.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> lateName(svc, release),
                    r -> Thread.ofVirtual().start(r)));
        }
        awaitHeld(held, 2);
        try {
            Transcript alice = new Transcript();
            client(held, "alice", "tcp", false, alice);
            assertThat(alice.awaitPrefix("! the server refused this client")).contains("too many sessions from your address (2)");
        } finally {
            release.countDown();
        }
        for (java.util.concurrent.CompletableFuture<String> late : nameless) {
            assertThat(late.get(30, TimeUnit.SECONDS)).isEqualTo("WELCOME");
        }

        // One nameless session, a 2 s join timeout: it is dropped, its share comes back, bob gets in.
        ChatServer dropping = ChatServer.start(PartyRuntimes.create("tcp", false),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset())
                        .withLimits(1000, 1, Duration.ofSeconds(2)));
        opened.add(dropping);
        java.util.concurrent.CountDownLatch later = new java.util.concurrent.CountDownLatch(1);
        org.sessionj.api.SJService svc = runtime.service(ClientToServer.class, "localhost", dropping.port());
        java.util.concurrent.CompletableFuture<String> stalled = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> lateName(svc, later), r -> Thread.ofVirtual().start(r));
        awaitHeld(dropping, 0);
        later.countDown();
        assertThat(stalled.get(30, TimeUnit.SECONDS)).startsWith("failed: ");
        Transcript bob = new Transcript();
        client(dropping, "bob", "tcp", false, bob);
        bob.await("* joined the chat as bob; nobody else is here");
    }

    /**
     * Waits (30 s at most) until the server counts {@code count} sessions against addresses; for 0, until
     * it has counted one and given it back (the count is looked at every 10 ms, the session held 2 s).
     */
    private static void awaitHeld(ChatServer server, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean seen = false;
        boolean counted = count != 0;
        while (!seen && System.nanoTime() < deadline) {
            int now = server.sessionsCounted();
            counted |= now > 0;
            seen = counted && now == count;
            if (!seen) {
                Thread.sleep(10); // a look at the server's count, bounded by the deadline
            }
        }
        assertThat(seen).as("%s sessions counted within 30 s", count).isTrue();
    }

    /**
     * Requests a chat session and sends its name only once {@code release} is counted down; returns
     * WELCOME (then quits), REFUSED with the reason, or "failed: " and why the session failed.
     */
    private static String lateName(@org.sessionj.api.Session(protocol = ClientToServer.class) org.sessionj.api.SJService svc,
            java.util.concurrent.CountDownLatch release) {
        String outcome = "";
        try (org.sessionj.api.SJSocket s = svc.request()) {
            await(release);
            s.send("late");
            switch (s.inbranch()) {
                case "WELCOME" -> {
                    int id = s.receiveInt();
                    org.sessionj.api.SJService stream = s.receive();
                    outcome = "WELCOME";
                    X:
                    while (true) {
                        s.outbranch("QUIT");
                        s.send(new UserQuitEvent(id, "leaving"));
                        break X;
                    }
                }
                case "REFUSED" -> {
                    String why = s.receive();
                    outcome = "REFUSED " + why;
                }
            }
        } catch (org.sessionj.api.SJIOException e) {
            outcome = "failed: " + e.getMessage();
        }
        return outcome;
    }

    /**
     * hostile18 H9: an inviter made the invited client connect to any host:port it named. Now the server
     * passes an invitation on only to where the inviter is: one naming a third host never reaches the
     * invited client (which, before, connected there at once), and the inviter is told why.
     */
    @Test
    void anInvitationToAHostThatIsNotTheInvitersIsNotPassedOn() throws Exception {
        ChatServer server = server(0);
        Transcript victim = new Transcript();
        client(server, "victim", "tcp", false, victim);
        victim.await("* joined the chat as victim; nobody else is here");
        SJRuntime runtime = PartyRuntimes.create("tcp", false);
        java.util.concurrent.CompletableFuture<List<String>> told = new java.util.concurrent.CompletableFuture<>();
        inviteElsewhere(runtime.service(ClientToServer.class, "localhost", server.port()), told);
        victim.await("<mallory> done");
        assertThat(told.get(30, TimeUnit.SECONDS)).anyMatch(l -> l.startsWith(
                "your invitation to victim was not passed on: it names 192.0.2.1, which is not the address you are connected from"));
        assertThat(victim.lines()).as("no invitation reached the victim").noneMatch(l -> l.contains("private conversation"));
    }

    /**
     * mallory: joins, invites victim to a service at 192.0.2.1 (a documentation address), says "done", quits;
     * {@code told} gets the server's notices to it, read from its event stream.
     */
    private static void inviteElsewhere(
            @org.sessionj.api.Session(protocol = ClientToServer.class) org.sessionj.api.SJService svc,
            java.util.concurrent.CompletableFuture<List<String>> told) {
        try (org.sessionj.api.SJSocket s = svc.request()) {
            s.send("mallory");
            switch (s.inbranch()) {
                case "WELCOME" -> {
                }
                case "REFUSED" -> {
                    String why = s.receive();
                    throw new AssertionError("refused: " + why);
                }
            }
            int id = s.receiveInt();
            org.sessionj.api.SJService stream = s.receive();
            Thread.ofVirtual().start(() -> notices(stream, told));
            X:
            while (true) {
                s.outbranch("JOIN");
                s.send(new UserJoinEvent(id, "mallory", true));
                s.outbranch("PRIVATE_CONVERSATION");
                s.send(new PrivateConversationEvent(id, "mallory", "victim", "t"));
                switch (s.inbranch()) {
                    case "ACCEPT" -> s.send(org.sessionj.api.SJService.create(PrivateService.class, "192.0.2.1", 6390));
                    case "REJECT" -> throw new AssertionError("the server found no victim");
                }
                s.outbranch("MESSAGE");
                s.send(new MessageEvent(id, "mallory", "done"));
                s.outbranch("QUIT");
                s.send(new UserQuitEvent(id, "leaving"));
                break X;
            }
        }
    }

    /** Reads an event stream to its end, completing {@code told} with the server's notices on it. */
    private static void notices(@org.sessionj.api.Session(protocol = EventInService.class) org.sessionj.api.SJService stream,
            java.util.concurrent.CompletableFuture<List<String>> told) {
        List<String> notices = new ArrayList<>();
        try (org.sessionj.api.SJSocket s = stream.request()) {
            X:
            while (true) {
                switch (s.inbranch()) {
                    case "JOIN" -> {
                        UserJoinEvent ignored = s.receive();
                        continue X;
                    }
                    case "MESSAGE" -> {
                        MessageEvent event = s.receive();
                        if (event.userId() == ChatRoom.SERVER_ID) {
                            notices.add(event.text());
                        }
                        continue X;
                    }
                    case "PRIVATE_CONVERSATION" -> {
                        PrivateConversationEvent ignored = s.receive();
                        s.outbranch("REJECT");
                        continue X;
                    }
                    case "QUIT" -> {
                        UserQuitEvent quit = s.receive();
                        break X;
                    }
                }
            }
            told.complete(notices);
        } catch (RuntimeException e) {
            told.completeExceptionally(e);
        }
    }

    /** Registers and holds its session, never joining, until {@code release}; returns its ID. */
    private static int squat(@org.sessionj.api.Session(protocol = ClientToServer.class) org.sessionj.api.SJService svc,
            java.util.concurrent.CountDownLatch admitted, java.util.concurrent.CountDownLatch release) {
        try (org.sessionj.api.SJSocket s = svc.request()) {
            s.send("squat");
            switch (s.inbranch()) {
                case "WELCOME" -> {
                }
                case "REFUSED" -> {
                    String why = s.receive();
                    throw new AssertionError("refused: " + why);
                }
            }
            int id = s.receiveInt();
            org.sessionj.api.SJService stream = s.receive();
            admitted.countDown();
            await(release);
            X:
            while (true) {
                s.outbranch("QUIT");
                s.send(new UserQuitEvent(id, "leaving"));
                break X;
            }
            return id;
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Joins, is told its stream's service, and quits at once without asking for the stream; returns its port. */
    private static int leaveAtOnce(@org.sessionj.api.Session(protocol = ClientToServer.class) org.sessionj.api.SJService svc) {
        try (org.sessionj.api.SJSocket s = svc.request()) {
            s.send("ghost");
            switch (s.inbranch()) {
                case "WELCOME" -> {
                }
                case "REFUSED" -> {
                    String why = s.receive();
                    throw new AssertionError("refused: " + why);
                }
            }
            int id = s.receiveInt();
            org.sessionj.api.SJService stream = s.receive();
            X:
            while (true) {
                s.outbranch("QUIT");
                s.send(new UserQuitEvent(id, "gone before asking for the stream"));
                break X;
            }
            return stream.port();
        }
    }

    @Test
    void aClientReconnectsWhenTheServerComesBack() throws Exception {
        ChatServer first = server(0);
        int port = first.port();
        Transcript dave = new Transcript();
        ChatClient d = client(first, "dave", "tcp", false, dave, ChatClientSettings.of("dave", "localhost", port, "localhost")
                .withReconnectDelays(Duration.ofMillis(100), Duration.ofMillis(400)));
        dave.await("* joined the chat as dave; nobody else is here");
        first.close();
        dave.awaitPrefix("! lost the connection to the server (the server is shutting down); retrying in 100 ms");
        d.input("anyone?");
        dave.await("! not connected to the server; not sent");
        ChatServer second = server(port);
        dave.awaitCount("* joined the chat as dave; nobody else is here", 2);
        assertThat(second.users()).containsExactly("dave");
        d.input("back again");
        dave.await("<dave> back again");
        assertThat(dave.lines().stream().filter(l -> l.startsWith("* joined")).count()).isEqualTo(2);
    }

    @Test
    void hostileNamesAndMessagesAreCleanedAndBounded() throws Exception {
        ChatServer server = server(0);
        Transcript victim = new Transcript();
        Transcript evil = new Transcript();
        ChatClient v = client(server, "victim", "tcp", false, victim);
        victim.await("* joined the chat as victim; nobody else is here");
        String name = "\u001b[31mev\u0007il\u202e" + "x".repeat(100);
        ChatClient e = client(server, "ignored", "tcp", false, evil, ChatClientSettings.of(name, "localhost", server.port(), "localhost"));
        String shown = "[31mevil" + "x".repeat(ChatText.MAX_NAME - 8);
        victim.await("* " + shown + " joined");
        e.input("\u001b]0;pwned\u0007 hi\u001b[2J" + "y".repeat(5000));
        String line = victim.awaitPrefix("<" + shown + "> ]0;pwned hi[2J");
        assertThat(line).hasSize(("<" + shown + "> ").length() + ChatText.MAX_MESSAGE + 1).endsWith("y…");
        assertThat(victim.lines()).allSatisfy(l -> assertThat(l.codePoints()).allMatch(cp -> cp >= 0x20 && cp != 0x7f));
        // a second user asking for a taken name gets another one
        Transcript twin = new Transcript();
        client(server, "victim", "tcp", false, twin);
        twin.awaitPrefix("* joined the chat as victim2; also here: ");
    }

    @Test
    void aFloodingClientIsThrottledAndDoesNotStallTheOthers() throws Exception {
        ChatServer server = server(0);
        Transcript quiet = new Transcript();
        Transcript loud = new Transcript();
        Transcript listener = new Transcript();
        ChatClient q = client(server, "quiet", "tcp", false, quiet);
        quiet.await("* joined the chat as quiet; nobody else is here");
        ChatClient flooder = client(server, "loud", "tcp", false, loud);
        loud.awaitPrefix("* joined the chat as loud");
        client(server, "listener", "tcp", false, listener);
        listener.awaitPrefix("* joined the chat as listener");
        long start = System.nanoTime();
        Thread flood = Thread.ofVirtual().start(() -> {
            for (int i = 0; i < 20_000; i++) {
                flooder.input("spam " + i);
            }
        });
        q.input("still here");
        listener.await("<quiet> still here");
        flood.join();
        loud.await("! server: flood control: you are sending too fast; messages are dropped");
        q.input("done");
        listener.await("<quiet> done");
        double seconds = (System.nanoTime() - start) / 1e9;
        long spam = listener.lines().stream().filter(l -> l.startsWith("<loud> spam")).count();
        assertThat(spam).isGreaterThanOrEqualTo(20).isLessThanOrEqualTo((long) (20 + 10 * seconds) + 1);
    }
}
