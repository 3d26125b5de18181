package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** Session threads, SJ.spawn: the sockets move (SJ050), the body matches and completes them (SJ051, SJ024). */
class SpawnTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Sums {
                @Protocol("sbegin.?[?(int)]*.!<int>") interface Server {}
                @Protocol("?[?(int)]*.!<int>") interface Body {}
                @Protocol("cbegin.![!<int>]*.?(int)") interface Client {}
            }
            """;

    @Test
    void aConcurrentServerHandsEachSessionToAThreadWithAMethodReference() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Sums.Server.class) SJServerSocket server) {
                        while (true) {
                            SJSocket s = server.accept();
                            SJ.spawn(s, this::serve);
                        }
                    }
                    void runTyped() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        while (true) {
                            SJSocket s = server.accept();
                            SJ.spawn(s, Server::serveStatic);
                        }
                    }
                    void serve(@Session(protocol = Sums.Body.class) SJSocket s) {
                        int total = 0;
                        while (s.inwhile()) {
                            total += s.receiveInt();
                        }
                        s.send(total);
                    }
                    static void serveStatic(@Session("?[?(int)]*.!<int>") SJSocket s) {
                        int total = 0;
                        while (s.inwhile()) {
                            total += s.receiveInt();
                        }
                        s.send(total);
                    }
                }
                """);
    }

    @Test
    void aLambdaBodyWithASessionParameterAndTwoSessions() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Relay {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket in = server.accept();
                        SJSocket out = SJService.create(Sums.Client.class, "h", 1).request();
                        SJThread t = SJ.spawn(in, out, (@Session("?[?(int)]*.!<int>") SJSocket i,
                                @Session("![!<int>]*.?(int)") SJSocket o) -> {
                            while (o.outwhile(i.inwhile())) {
                                o.send(i.receiveInt());
                            }
                            i.send(o.receiveInt());
                        });
                        t.join();
                    }
                }
                """);
    }

    @Test
    void aSessionHalfwayThroughIsHandedOverWithWhatRemains() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Half {
                    void run() {
                        SJSocket s = SJService.create(Sums.Client.class, "h", 1).request();
                        s.outwhile(false);
                        SJ.spawn(s, (@Session("?(int)") SJSocket c) -> {
                            int sum = c.receiveInt();
                        });
                    }
                }
                """.replace("s.outwhile(false);", "while (s.outwhile(false)) { s.send(1); }"));
    }

    @Test
    void touchingTheSocketAfterSpawningIsSJ050() {
        assertRejected("SJ050", 8, msg("session 's' is used after it was spawned into a session thread on line 7",
                "the session thread owns it now"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(@Session(protocol = Sums.Server.class) SJServerSocket server) {
                        while (true) {
                            SJSocket s = server.accept();
                            SJ.spawn(s, this::serve);
                            s.send(0);
                        }
                    }
                    void serve(@Session(protocol = Sums.Body.class) SJSocket s) {
                        while (s.inwhile()) {
                            int x = s.receiveInt();
                        }
                        s.send(1);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void spawningTheSameSocketInEveryIterationIsSJ050() {
        assertRejected("SJ050", 7, msg("spawned into a session thread on line 8", "in an earlier iteration"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        for (int i = 0; i < 2; i++) {
                            SJ.spawn(s, this::serve);
                        }
                    }
                    void serve(@Session(protocol = Sums.Body.class) SJSocket s) {
                        while (s.inwhile()) {
                            int x = s.receiveInt();
                        }
                        s.send(1);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aBodyTypedForAnotherSessionIsSJ051() {
        assertRejected("SJ051", 7, msg("session 's' cannot be handed to this session thread",
                "its body's parameter 'c' is ?(int)", "but the session is at ?[?(int)]*.!<int>"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        SJ.spawn(s, (@Session("?(int)") SJSocket c) -> {
                            int x = c.receiveInt();
                        });
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aBodyThatDoesNotCompleteTheSessionIsSJ024InTheBody() {
        assertRejected("SJ024", 7, msg("session 'c' is not complete", "!<int> remains"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        SJ.spawn(s, (@Session("?[?(int)]*.!<int>") SJSocket c) -> {
                            while (c.inwhile()) { int x = c.receiveInt(); }
                        });
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aMethodWithoutASessionParameterCannotBeABody() {
        assertRejected("SJ051", 8, msg("'serve' has no @Session type on its parameter 's'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    interface Handler { void serve(SJSocket s); }
                    void run(Handler handler) {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        SJ.spawn(s, handler::serve);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aBodyThatIsNotALambdaOrMethodReferenceIsSJ051() {
        assertRejected("SJ051", 7, msg("session 's' cannot be handed", "the body must be written in the call", "found 'body'"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(SJThread.Body body) {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        SJ.spawn(s, body);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aTryWithResourcesSocketCannotBeHandedOver() {
        assertRejected("SJ051", 6, msg("a resource of the try-with-resources statement on line 5"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run(SJServerSocket server) {
                        try (SJSocket s = SJServerSocket.create(Sums.Server.class, 0).accept()) {
                            SJ.spawn(s, this::serve);
                        }
                    }
                    void serve(@Session(protocol = Sums.Body.class) SJSocket s) {
                        while (s.inwhile()) {
                            int x = s.receiveInt();
                        }
                        s.send(1);
                    }
                }
                """.replace("SJServerSocket.create(Sums.Server.class, 0).accept()", "server.accept()")
                .replace("void run(SJServerSocket server)", "void run(@Session(protocol = Sums.Server.class) SJServerSocket server)"),
                PROTOCOLS);
    }

    @Test
    void spawningInsideTheSocketsOwnIterationIsSJ051() {
        assertRejected("SJ051", 8, msg("inside its own session iteration"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        while (s.inwhile()) {
                            SJ.spawn(s, (@Session("?(int)") SJSocket c) -> { int x = c.receiveInt(); });
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void theBodyMayNotCaptureTheSpawnedSocketInsteadOfItsParameter() {
        assertRejected("SJ032", 8, msg("session 's' is captured by a lambda"), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        SJ.spawn(s, (@Session("?[?(int)]*.!<int>") SJSocket c) -> {
                            s.close();
                            while (c.inwhile()) { int x = c.receiveInt(); }
                            c.send(0);
                        });
                    }
                }
                """, PROTOCOLS);
    }
    /**
     * The thread-per-connection server a newcomer writes (adv13 A6.3): a lambda parameter without
     * {@code @Session} takes the spawned session's remaining type, and its body is checked against it.
     */
    @Test
    void aLambdaParameterWithoutSessionTakesTheSpawnedSessionsType() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        while (true) {
                            SJSocket s = server.accept();
                            SJ.spawn(s, c -> {
                                int total = 0;
                                while (c.inwhile()) {
                                    total += c.receiveInt();
                                }
                                c.send(total);
                            });
                        }
                    }
                }
                """);
    }

    @Test
    void aLambdaParameterWithoutSessionIsCheckedAgainstTheSpawnedSessionsType() {
        assertRejected("SJ024", 7, msg("session 'c' is not complete", "!<int>"), PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void run() {
                        SJServerSocket server = SJServerSocket.create(Sums.Server.class, 0);
                        SJSocket s = server.accept();
                        SJ.spawn(s, c -> {
                            while (c.inwhile()) {
                                c.receiveInt();
                            }
                        });
                    }
                }
                """);
    }
}
