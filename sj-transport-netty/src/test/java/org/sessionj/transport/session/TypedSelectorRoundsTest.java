package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.testing.selector.SelectorRounds;

/**
 * The typed selector of {@link SelectorRounds} — arms that hand their sessions back part way through,
 * a peer that vanishes while registered — over the in-JVM transport, tcp and ipc; and fairness with
 * hand-backs, in-JVM.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TypedSelectorRoundsTest {

    /** Fairness: a client that streams notes without waiting for answers, so its input is always there. */
    @Protocol("cbegin.rec X[!{REC: !<String>.#X, QUIT: }]")
    public interface Notes {
    }

    @Protocol("rec X[?{REC: ?(String).#X, QUIT: }]")
    public interface Tick {
    }

    @Protocol("?(String).@(Tick)")
    public interface Note {
    }

    @Protocol("sbegin.@(Tick)")
    public interface NotesServer {
    }

    private static SJRuntime runtime(String transport) {
        // ipc sessions are set up over tcp and moved (docs/ipc-transport.md).
        return SJRuntime.create(SJRuntimeConfig.builder()
                .transports(transport.equals("ipc") ? new String[] {"ipc", "tcp"} : new String[] {transport}).build());
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp", "ipc"})
    void armsHandTheirSessionsBackAtAMembersTypeUntilTheClientsQuit(String transport) throws Exception {
        SelectorRounds.handBacks(runtime(transport), transport, 4, 25);
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"shm", "tcp", "ipc"})
    void aSessionWhosePeerVanishesWhileRegisteredIsYieldedFailing(String transport) throws Exception {
        SelectorRounds.vanishingPeer(runtime(transport));
    }

    /**
     * Fairness with hand-backs: sessions that always have input are served in turn — one handed back
     * goes behind the others that are ready. In-JVM, where a flushed frame is in the peer's queue before
     * the send returns, so which sessions are ready at each select is known.
     */
    @Test
    void sessionsHandedBackWithInputWaitBehindTheOthersThatAreReady() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").batchBytes(1).build());
        int clients = 3;
        int rounds = 12;
        try (SJServerSocket server = runtime.serverSocket(NotesServer.class, 0);
             SJSelector selector = runtime.openSelector(Tick.class, Note.class)) {
            List<CompletableFuture<SJSocket>> requests = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                requests.add(CompletableFuture.supplyAsync(
                        () -> runtime.service(Notes.class, "localhost", server.port()).request(),
                        r -> Thread.ofVirtual().start(r)));
            }
            List<SJSocket> accepted = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                accepted.add(server.accept(Duration.ofSeconds(20)));
            }
            List<SJSocket> requesters = new ArrayList<>();
            for (CompletableFuture<SJSocket> request : requests) {
                requesters.add(request.get(20, TimeUnit.SECONDS));
            }
            // The whole conversation up front (a batch bound of one byte sends each frame at once): every
            // session has input until it quits.
            for (int c = 0; c < clients; c++) {
                SJSocket s = requesters.get(c);
                for (int r = 0; r < rounds; r++) {
                    s.outbranch("REC");
                    s.send("c" + c);
                }
                s.outbranch("QUIT");
            }
            accepted.forEach(selector::register);
            List<String> order = new ArrayList<>();
            int open = clients;
            while (open > 0) {
                SJSocket s = selector.select(Duration.ofSeconds(20));
                switch (selector.typecase(s)) {
                    case "Tick" -> {
                        if (s.inbranch().equals("REC")) {
                            selector.register(s);
                        } else {
                            s.close();
                            open--;
                        }
                    }
                    case "Note" -> {
                        String name = s.receive();
                        order.add(name);
                        selector.register(s);
                    }
                    default -> throw new AssertionError("no such member");
                }
            }
            for (SJSocket s : requesters) {
                s.close();
            }
            assertThat(order).hasSize(clients * rounds);
            // Every window of `clients` consecutive requests holds each client once: served in turn.
            for (int i = 0; i + clients <= order.size(); i += clients) {
                assertThat(order.subList(i, i + clients)).as("requests %d..%d of %s", i, i + clients, order)
                        .doesNotHaveDuplicates();
            }
        }
    }
}
