package org.sessionj.runtime.testing.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.internal.session.SessionSocket;

/**
 * A typed selector whose arms hand their sessions back part way through — the event-driven server of
 * the original SJ benchmarks, one member per point at which the server waits for input — and a peer
 * that vanishes while its session is registered; shared by every transport's selector test.
 */
public final class SelectorRounds {
    private SelectorRounds() {
    }

    /** The client: rounds of a request and its answer, then quit. */
    @Protocol("cbegin.rec X[!{REC: !<String>.?(Integer).#X, QUIT: }]")
    public interface Client {
    }

    /** The server's session after its begin: the member at which it waits for the client's choice. */
    @Protocol("rec X[?{REC: ?(String).!<Integer>.#X, QUIT: }]")
    public interface Rounds {
    }

    /** The member at which the server waits for a request (after REC). */
    @Protocol("?(String).!<Integer>.@(Rounds)")
    public interface Request {
    }

    /** The server protocol: its type after the begin is Rounds' (but not Rounds' state object). */
    @Protocol("sbegin.@(Rounds)")
    public interface Server {
    }

    /**
     * {@code clients} clients of {@code rounds} rounds each, served by one thread through a selector of
     * {Rounds, Request}: every arm hands its session back at the next member until the client quits.
     */
    public static void handBacks(SJRuntime runtime, String transport, int clients, int rounds) throws Exception {
        try (SJServerSocket server = runtime.serverSocket(Server.class, 0);
             SJSelector selector = runtime.openSelector(Rounds.class, Request.class)) {
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                String name = "c" + c;
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try (SJSocket s = runtime.service(Client.class, "localhost", server.port()).request()) {
                        int sum = 0;
                        for (int r = 0; r < rounds; r++) {
                            s.outbranch("REC");
                            s.send(name + "-" + r);
                            sum += s.<Integer>receive();
                        }
                        s.outbranch("QUIT");
                        return sum;
                    }
                }, r -> Thread.ofVirtual().start(r)));
            }
            for (int c = 0; c < clients; c++) {
                SJSocket s = server.accept(Duration.ofSeconds(20));
                assertThat(SJRuntime.transportOf(s)).isEqualTo(transport);
                selector.register(s); // found by its remaining type: Server's start state is not Rounds'
            }
            Map<String, Integer> served = new HashMap<>();
            int open = clients;
            while (open > 0) {
                SJSocket s = selector.select(Duration.ofSeconds(20));
                switch (selector.typecase(s)) {
                    case "Rounds" -> {
                        switch (s.inbranch()) {
                            case "REC" -> selector.register(s); // at ?(String).!<Integer>.@(Rounds): Request
                            case "QUIT" -> {
                                s.close();
                                open--;
                            }
                            default -> throw new AssertionError("no such label");
                        }
                    }
                    case "Request" -> {
                        String request = s.receive();
                        served.merge(request.substring(0, request.indexOf('-')), 1, Integer::sum);
                        s.send(request.length());
                        selector.register(s); // at @(Rounds) again
                    }
                    default -> throw new AssertionError("no such member");
                }
            }
            int expected = 0;
            for (int r = 0; r < rounds; r++) {
                expected += ("c0-" + r).length();
            }
            for (int c = 0; c < clients; c++) {
                assertThat(answers.get(c).get(20, TimeUnit.SECONDS)).isEqualTo(expected);
                assertThat(served).containsEntry("c" + c, rounds);
            }
        }
    }

    /**
     * A peer whose connection goes away (no goodbye) while its session is registered: select yields
     * the session, whose next action fails — the selector neither hangs nor spins — and another
     * registered session is still served.
     */
    public static void vanishingPeer(SJRuntime runtime) throws Exception {
        try (SJServerSocket server = runtime.serverSocket(Server.class, 0);
             SJSelector selector = runtime.openSelector(Rounds.class, Request.class)) {
            CountDownLatch registered = new CountDownLatch(1);
            CompletableFuture<Void> vanishing = CompletableFuture.runAsync(() -> {
                SJSocket s = runtime.service(Client.class, "localhost", server.port()).request();
                try {
                    registered.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                ((SessionSocket) s).connection().close();
            }, r -> Thread.ofVirtual().start(r));
            SJSocket doomed = server.accept(Duration.ofSeconds(20));
            selector.register(doomed);
            CompletableFuture<Void> healthy = CompletableFuture.runAsync(() -> {
                try (SJSocket s = runtime.service(Client.class, "localhost", server.port()).request()) {
                    s.outbranch("QUIT");
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSocket other = server.accept(Duration.ofSeconds(20));
            registered.countDown();
            vanishing.get(20, TimeUnit.SECONDS);
            healthy.get(20, TimeUnit.SECONDS);
            selector.register(other);
            int failed = 0;
            int quit = 0;
            for (int k = 0; k < 2; k++) {
                SJSocket s = selector.select(Duration.ofSeconds(20));
                assertThat(selector.typecase(s)).isEqualTo("Rounds");
                if (s == doomed) {
                    assertThatThrownBy(s::inbranch).isInstanceOf(SJIOException.class);
                    failed++;
                } else {
                    assertThat(s.inbranch()).isEqualTo("QUIT");
                    s.close();
                    quit++;
                }
            }
            assertThat(failed).as("the vanished peer's session, yielded failing").isEqualTo(1);
            assertThat(quit).as("the other session, served").isEqualTo(1);
        }
    }
}
