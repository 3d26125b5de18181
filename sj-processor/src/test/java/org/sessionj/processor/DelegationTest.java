package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** Delegation (sending and receiving sessions), service passing, and session methods. */
class DelegationTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Deleg {
                @Protocol("sbegin.!<String>.?(int)") interface Front {}
                @Protocol("!<String>.?(int)") interface Work {}
                @Protocol("cbegin.!<@(Work)>") interface Hand {}
                @Protocol("sbegin.?(@(Work))") interface Take {}
                @Protocol("cbegin.?(int)") interface Svc {}
                @Protocol("sbegin.!<cbegin.@(SvcBody)>") interface Passer {}
                @Protocol("cbegin.?(cbegin.@(SvcBody))") interface Getter {}
                @Protocol("?(int)") interface SvcBody {}
            }
            """;

    @Test
    void delegatingAndReceivingASession() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Portal {
                    void run() {
                        try (SJServerSocket front = SJServerSocket.create(Deleg.Front.class, 0);
                             SJSocket client = front.accept();
                             SJSocket worker = SJService.create(Deleg.Hand.class, "h", 1).request()) {
                            worker.send(client);
                        }
                    }
                }
                """, """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Deleg.Take.class, 0);
                             SJSocket portal = ss.accept();
                             SJSocket client = portal.receive()) {
                            serve(client);
                        }
                    }
                    void serve(@Session(protocol = Deleg.Work.class) SJSocket s) {
                        s.send("hello");
                        int answer = s.receiveInt();
                    }
                }
                """);
    }

    @Test
    void servicePassing() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Passing {
                    @Protocol("cbegin.@(Deleg.SvcBody)") interface SvcService {}
                    void give() {
                        SJService svc = SJService.create(SvcService.class, "h", 9);
                        try (SJServerSocket ss = SJServerSocket.create(Deleg.Passer.class, 0);
                             SJSocket s = ss.accept()) {
                            s.send(svc);
                        }
                    }
                    void get() {
                        try (SJSocket s = SJService.create(Deleg.Getter.class, "h", 1).request()) {
                            SJService c = s.receive();
                            try (SJSocket t = c.request()) {
                                int x = t.receiveInt();
                            }
                        }
                    }
                }
                """);
    }

    @Test
    void passingAServiceOfTheWrongProtocol() {
        assertRejected("SJ013", 8, msg("session 's': expected !<cbegin.?(int)> but the program sends a service of "
                + "protocol cbegin.!<!<java.lang.String>.?(int)>"), """
                package demo;
                import org.sessionj.api.*;
                class Passing {
                    void give() {
                        SJService svc = SJService.create(Deleg.Hand.class, "h", 9);
                        try (SJServerSocket ss = SJServerSocket.create(Deleg.Passer.class, 0);
                             SJSocket s = ss.accept()) {
                            s.send(svc);
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void useAfterDelegation() {
        assertRejected("SJ025", 9, msg("session 'client' is used after it was delegated on line 8"), """
                package demo;
                import org.sessionj.api.*;
                class Portal {
                    void run() {
                        try (SJServerSocket front = SJServerSocket.create(Deleg.Front.class, 0);
                             SJSocket client = front.accept();
                             SJSocket worker = SJService.create(Deleg.Hand.class, "h", 1).request()) {
                            worker.send(client);
                            client.send("late");
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void delegatingASessionInTheWrongState() {
        assertRejected("SJ034", 9, msg("session 'worker': expected !<!<java.lang.String>.?(int)> but the delegated "
                + "session 'client' is at ?(int)"), """
                package demo;
                import org.sessionj.api.*;
                class Portal {
                    void run() {
                        try (SJServerSocket front = SJServerSocket.create(Deleg.Front.class, 0);
                             SJSocket client = front.accept();
                             SJSocket worker = SJService.create(Deleg.Hand.class, "h", 1).request()) {
                            client.send("hi");
                            worker.send(client);
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aSessionDelegatedOverItselfIsAnAlias() {
        // The sender would keep the session it hands over (the runtime refuses it: "a session cannot
        // be delegated over itself"), so the checker must too: the type alone (!<?(int)>.?(int))
        // would accept it, since the session's rest after the send is exactly what is delegated.
        assertRejected("SJ030", 6, msg("session 's' is copied into a message of its own session (a session "
                + "cannot be delegated over itself)"), """
                package demo;
                import org.sessionj.api.*;
                class Self {
                    void run() {
                        try (SJSocket s = SJService.create(Self.Loop.class, "h", 1).request()) {
                            s.send(s);
                        }
                    }
                    @Protocol("cbegin.!<?(int)>.?(int)") interface Loop {}
                }
                """, PROTOCOLS);
    }

    @Test
    void receivingADelegatedSessionIntoAValue() {
        assertRejected("SJ013", 7, msg("session 'portal': expected ?(!<java.lang.String>.?(int)) but the program "
                + "receives ?(java.lang.Object); a received session must initialise an SJSocket variable"), """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Deleg.Take.class, 0);
                             SJSocket portal = ss.accept()) {
                            Object o = portal.receive();
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void sessionMethodMustBeCalledInTheRightState() {
        assertRejected("SJ035", 9, msg("session 'client': the call to 'serve' needs the session at "
                + "!<java.lang.String>.?(int) but it is at ?(int)"), """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Deleg.Take.class, 0);
                             SJSocket portal = ss.accept();
                             SJSocket client = portal.receive()) {
                            client.send("x");
                            serve(client);
                        }
                    }
                    void serve(@Session("!<String>.?(int)") SJSocket s) {
                        s.send("hello");
                        s.receiveInt();
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void sessionMethodMustCompleteItsType() {
        assertRejected("SJ024", 4, msg("session 's' is not complete at the end of method 'serve': ?(int) remains"), """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void serve(@Session("!<String>.?(int)") SJSocket s) {
                        s.send("hello");
                    }
                }
                """);
    }

    @Test
    void sessionMethodPrefixLeavesTheRestToTheCaller() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Deleg.Take.class, 0);
                             SJSocket portal = ss.accept();
                             SJSocket client = portal.receive()) {
                            greet(client);
                            int answer = client.receiveInt();
                        }
                    }
                    void greet(@Session("!<String>") SJSocket s) {
                        s.send("hello");
                    }
                }
                """);
    }

    @Test
    void invalidSessionAnnotation() {
        assertRejected("SJ007", 4, msg("invalid @Session on parameter 's'", "unknown Java type 'Missing'"), """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void serve(@Session("!<Missing>") SJSocket s) {
                        s.send("hello");
                    }
                }
                """);
    }

    @Test
    void socketParameterWithoutSessionType() {
        assertRejected("SJ010", 4, msg("session parameter 's'", "annotate it with @Session"), """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void serve(SJSocket s) {
                        s.send("hello");
                    }
                }
                """);
    }

    @Test
    void passingASocketToAnOrdinaryMethod() {
        assertRejected("SJ031", 6, msg("session 's' escapes into a call of 'log', which is not a session operation"),
                """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void serve(@Session("!<String>") SJSocket s) {
                        s.send("hello");
                        log(s);
                    }
                    void log(Object o) { }
                }
                """);
    }

    @Test
    void serviceAndServerSocketParametersTypedWithSession() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void serve(@Session(protocol = Deleg.Front.class) SJServerSocket server) {
                        try (SJSocket client = server.accept()) {
                            client.send("hi");
                            int answer = client.receiveInt();
                        }
                    }
                    int ask(@Session("cbegin.?(int)") SJService service) {
                        try (SJSocket s = service.request()) {
                            return s.receiveInt();
                        }
                    }
                }
                """);
    }

    @Test
    void serverSocketParameterWithoutProtocol() {
        assertRejected("SJ010", 5, msg("session 'client': its protocol is not known at compile time",
                "declare the parameter holding it as @Session(protocol = P.class)"), """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    void serve(SJServerSocket server) {
                        try (SJSocket client = server.accept()) {
                            client.send("hi");
                        }
                    }
                }
                """);
    }
}
