package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * The messages of a newcomer's first mistakes name the fix where it is made (adv14 A6): SJ011 at an
 * accept (or request) says that the server socket (or service) takes the dual protocol, created where the
 * socket is; SJ013 on a primitive Java would widen says to write the promised type; SJ051 on a spawn
 * body held in a variable names the session and says to write the lambda in the call, with no second
 * diagnostic (SJ010 at the lambda's parameter) after it or after an SJ025 for a spawn after close.
 */
class FixHintsTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.?(double)") interface Client {}
                @Protocol("^(Client)") interface Server {}
                @Protocol("cbegin.!<double>") interface Measure {}
                @Protocol("cbegin.!<long>") interface Count {}
                @Protocol("cbegin.!<int>.?(String)") interface Ask {}
            }
            """;

    /** The body starts on line 5. */
    private static String code(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    void run(@Session(protocol = P.Ask.class) SJService svc) {
                %s    }
                }
                """.formatted(body);
    }

    @Test
    void serverCreatedWithTheClientsProtocolIsToldToTakeTheDual() {
        assertRejected("SJ011", 6, msg("protocol Client begins with cbegin", "not accept()",
                "a server socket takes the dual of the other side's protocol: fix it where the server socket is created",
                "@Protocol(\"^(Client)\") interface ClientServer {}", "SJServerSocket.create(ClientServer.class, port)"),
                PROTOCOLS, code("""
                        SJServerSocket ss = SJServerSocket.create(P.Client.class, 4000);
                        try (SJSocket s = ss.accept()) {
                            s.receiveInt();
                            s.send(1.0);
                        }
                """));
    }

    @Test
    void clientCreatedWithTheServersProtocolIsToldToTakeTheDual() {
        assertRejected("SJ011", 5, msg("protocol Server begins with sbegin", "not request()",
                "a service takes the dual of the other side's protocol", "@Protocol(\"^(Server)\") interface ServerClient {}",
                "SJService.create(ServerClient.class, host, port)"), PROTOCOLS, code("""
                        try (SJSocket s = SJService.create(P.Server.class, "localhost", 4000).request()) {
                            s.send(1);
                        }
                """));
    }

    @Test
    void intLiteralForADoubleIsToldToWriteTheDouble() {
        assertRejected("SJ013", 6, msg("expected !<double> but the program sends !<int>",
                "(an int travels as its box, not as a double: write 3.0)"), PROTOCOLS, code("""
                        try (SJSocket w = SJService.create(P.Measure.class, "localhost", 4000).request()) {
                            w.send(3);
                        }
                """));
    }

    @Test
    void intVariableForALongIsToldToCastIt() {
        assertRejected("SJ013", 7, msg("expected !<long> but the program sends !<int>",
                "(an int travels as its box, not as a long: write (long) n)"), PROTOCOLS, code("""
                        try (SJSocket w = SJService.create(P.Count.class, "localhost", 4000).request()) {
                            int n = 7;
                            w.send(n);
                        }
                """));
    }

    /** The body in a variable: SJ051 names 's' and says to write the lambda in the call; no SJ010 at 'x'. */
    @Test
    void spawnBodyInAVariable() {
        assertRejected("SJ051", 7, msg("session 's' cannot be handed to this session thread",
                "the body must be written in the call", "found 'body', a variable: write its lambda in the call"),
                PROTOCOLS, code("""
                        SJSocket s = svc.request();
                        SJThread.Body body = x -> { x.send("wrong"); x.close(); };
                        SJ.spawn(s, body);
                """));
    }

    /** A spawn after close is SJ025 alone: the lambda's parameter is not reported as untyped (SJ010). */
    @Test
    void spawnAfterCloseReportsOnlyTheUseAfterClose() {
        assertRejected("SJ025", 9, msg("session 's' is used after it was closed on line 8"), PROTOCOLS, code("""
                        SJSocket s = svc.request();
                        s.send(1);
                        String r = s.receive();
                        s.close();
                        SJ.spawn(s, x -> { x.close(); });
                """));
    }
}
