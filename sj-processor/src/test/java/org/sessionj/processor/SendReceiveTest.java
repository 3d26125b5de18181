package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** Session initiation, send/receive with message types, and completion. */
class SendReceiveTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Protocols {
                @Protocol("cbegin.!<int>.?(String)") interface Echo {}
                @Protocol("^(Echo)") interface EchoServer {}
                @Protocol("cbegin.!<java.util.List<String>>.!<String>.?(Integer).!<double[]>.?(Object)") interface Typed {}
            }
            """;

    private static String client(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    void run(String host, int port) {
                        SJService c = SJService.create(Protocols.Echo.class, host, port);
                        try (SJSocket s = c.request()) {
                %s
                        }
                    }
                }
                """.formatted(body);
    }

    @Test
    void clientAndServerFollowingTheirTypesCompileCleanly() {
        assertAccepted(PROTOCOLS, client("""
                            s.send(42);
                            String reply = s.receive();
                            System.out.println(reply);
                """), """
                package demo;
                import org.sessionj.api.*;
                class Server {
                    void serve() {
                        try (SJServerSocket ss = SJServerSocket.create(Protocols.EchoServer.class, 0);
                             SJSocket s = ss.accept()) {
                            int n = s.receiveInt();
                            s.send("echo " + n);
                        }
                    }
                }
                """);
    }

    @Test
    void messageTypesUseSubtypingForSendsAndAssignmentForReceives() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import java.util.ArrayList;
                import org.sessionj.api.*;
                class Typed {
                    void run(SJService unused) {
                        SJService c = SJService.create(Protocols.Typed.class, "h", 1);
                        try (SJSocket s = c.request()) {
                            s.send(new ArrayList<String>());
                            s.send((Object) null);
                            Number n = s.receive();
                            s.send(new double[] {n.doubleValue()});
                            Object o = (Object) s.receive();
                            System.out.println(o);
                        }
                    }
                }
                """);
    }

    @Test
    void swappedSendAndReceiveIsRejected() {
        assertRejected("SJ012", 7, msg("session 's': expected !<int> but the program receives ?(java.lang.String)"),
                client("""
                            String reply = s.receive();
                            s.send(42);
                """), PROTOCOLS);
    }

    @Test
    void wrongSentTypeIsRejected() {
        assertRejected("SJ013", 7,
                msg("session 's': expected !<int> but the program sends !<java.lang.String>"), client("""
                            s.send("42");
                            String reply = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void primitiveOverloadMustMatchExactly() {
        assertRejected("SJ013", 7, msg("expected !<int> but the program sends !<long>"), client("""
                            s.send(42L);
                            String reply = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void wrongReceiveTargetIsRejected() {
        assertRejected("SJ013", 8,
                msg("session 's': expected ?(java.lang.String) but the program receives ?(java.lang.Integer)"), client("""
                            s.send(42);
                            Integer reply = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void wrongPrimitiveReceiveIsRejected() {
        assertRejected("SJ013", 8, msg("expected ?(java.lang.String) but the program receives ?(int)"), client("""
                            s.send(42);
                            int reply = s.receiveInt();
                """), PROTOCOLS);
    }

    @Test
    void missingReceiveLeavesTheSessionIncomplete() {
        assertRejected("SJ024", 6, msg("session 's' is not complete at the end of its try-with-resources block: "
                + "?(java.lang.String) remains"), client("""
                            s.send(42);
                """), PROTOCOLS);
    }

    @Test
    void extraActionAfterTheEndIsRejected() {
        assertRejected("SJ012", 9, msg("expected end (the session is complete) but the program sends !<int>"),
                client("""
                            s.send(42);
                            String reply = s.receive();
                            s.send(1);
                """), PROTOCOLS);
    }

    @Test
    void onlyTheFirstErrorOnASocketIsReported() {
        assertRejected("SJ012", 7, msg("expected !<int>"), client("""
                            s.receiveDouble();
                            s.receiveDouble();
                            s.send("x");
                """), PROTOCOLS);
    }

    @Test
    void requestOnAnAcceptingProtocolIsRejected() {
        assertRejected("SJ011", 5, msg("protocol EchoServer begins with sbegin", "accept()", "not request()"), """
                package demo;
                import org.sessionj.api.*;
                class Wrong {
                    void run() {
                        try (SJSocket s = SJService.create(Protocols.EchoServer.class, "h", 1).request()) {
                            s.send(1);
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void sessionFromAServiceOfUnknownProtocolIsRejected() {
        assertRejected("SJ010", 5, msg("session 's'", "SJService.create(P.class, host, port)"), """
                package demo;
                import org.sessionj.api.*;
                class Unknown {
                    void run(SJService c) {
                        try (SJSocket s = c.request()) {
                            s.send(1);
                        }
                    }
                }
                """);
    }

    @Test
    void closingAnIncompleteSessionIsRejected() {
        assertRejected("SJ024", 8, msg("session 's' is not complete when it is closed: ?(java.lang.String) remains"),
                client("""
                            s.send(1);
                            s.close();
                """), PROTOCOLS);
    }

    @Test
    void useAfterCloseIsRejected() {
        assertRejected("SJ025", 10, msg("session 's' is used after it was closed on line 9"), client("""
                            s.send(1);
                            String r = s.receive();
                            s.close();
                            s.protocol();
                """), PROTOCOLS);
    }

    @Test
    void aLocalSocketOutsideTryMustCompleteInItsScope() {
        assertRejected("SJ024", 6, msg("session 's' is not complete at the end of its scope: ?(java.lang.String)"), """
                package demo;
                import org.sessionj.api.*;
                class Plain {
                    void run() {
                        SJService c = SJService.create(Protocols.Echo.class, "h", 1);
                        SJSocket s = c.request();
                        s.send(1);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void returnInTheMiddleOfASessionIsRejected() {
        assertRejected("SJ024", 8, msg("session 's' is not complete at this return: ?(java.lang.String) remains"),
                client("""
                            s.send(1);
                            if (port > 0) return;
                            String r = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void javacErrorsInSessionCodeAreNotRepeatedAsSessionErrors() {
        var compilation = CompilerHarness.compile(client("""
                            s.send(undefinedVariable);
                            Missing reply = s.receive();
                """), PROTOCOLS);
        org.assertj.core.api.Assertions.assertThat(compilation.errors()).isNotEmpty()
                .noneMatch(error -> error.getMessage(java.util.Locale.ROOT).contains("[SJ"));
    }
}
