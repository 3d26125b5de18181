package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Null where a session or its source is promised (adv14 A6): the null branch of a local that holds a
 * session is checked (it never runs, but its code is the program's), with the local null there and its
 * state after the test unchanged; {@code null} given to a typed selector's {@code register} or to a
 * {@code @Session(protocol = …)} service or server-socket parameter is SJ025 at compile time, as a null
 * socket is.
 */
class NeverNullTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.?(String)") interface C {}
                @Protocol("sbegin.?(String)") interface G {}
            }
            """;

    /** The body starts on line 7. */
    private static String code(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    static void f(@Session(protocol = P.C.class) SJService svc) { try (SJSocket s = svc.request()) { s.send(1); String r = s.receive(); } }
                    static void g(@Session(protocol = P.G.class) SJServerSocket ss) throws Exception { try (SJSocket s = ss.accept()) { String r = s.receive(); } }
                    void run(@Session(protocol = P.C.class) SJService svc, @Session(protocol = P.C.class) SJService other, boolean c) throws Exception {
                %s    }
                }
                """.formatted(body);
    }

    /** adv14 A6 (b8/01): an error in the dead null branch was dropped. */
    @Test
    void deadNullBranchOfALocalIsChecked() {
        assertRejected("SJ013", 10, msg("session 'u': expected !<int> but the program sends !<java.lang.String>"),
                PROTOCOLS, code("""
                        SJSocket t = svc.request();
                        if (t == null) {
                            SJSocket u = other.request();
                            u.send("wrong");
                            u.close();
                            return;
                        }
                        t.send(1);
                        String r = t.receive();
                        t.close();
                """));
    }

    /** In that branch the local is null: an action on it is SJ025. */
    @Test
    void localIsNullInItsDeadBranch() {
        assertRejected("SJ025", 9, msg("session 't' is used after it was found null by the test on line 8",
                "a branch that never runs"), PROTOCOLS, code("""
                        SJSocket t = svc.request();
                        if (t == null) {
                            t.send(2);
                        }
                        t.send(1);
                        String r = t.receive();
                        t.close();
                """));
    }

    /** The defensive forms stay accepted, and code after a test that falls through still sees the session. */
    @Test
    void defensiveTestsOfALocalAreAccepted() {
        assertAccepted(PROTOCOLS, code("""
                        SJSocket t = svc.request();
                        if (t == null) {
                            throw new IllegalStateException("no session");
                        }
                        if (t == null) {
                            System.out.println("never");
                        }
                        t.send(1);
                        String r = t != null ? t.receive() : null;
                        t.close();
                        if (t != null) {
                            System.out.println("closed");
                        }
                """));
    }

    /** A loop's null outcome stays unreachable: no round with the socket null, no exit after which it is null. */
    @Test
    void loopConditionsOnALocalThatHoldsASession() {
        assertAccepted(PROTOCOLS, code("""
                        SJSocket t = svc.request();
                        t.send(1);
                        while (t == null) {
                            System.out.println("never");
                        }
                        do {
                            System.out.println("once");
                        } while (t == null);
                        while (t != null) {
                            System.out.println("until the process ends");
                        }
                        String r = t.receive();
                        t.close();
                """));
    }

    @Test
    void nullToAServiceParameter() {
        assertRejected("SJ025", 7, msg("session 'svc' is used after it was given null by this call of 'f'",
                "pass a service: the method requests sessions of its @Session(protocol = …) parameter"), PROTOCOLS, code("""
                        f(null);
                """));
    }

    @Test
    void nullThroughAConditionalToAServerSocketParameter() {
        assertRejected("SJ025", 7, msg("session 'ss' is used after it was given null by this call of 'g'",
                "pass a server socket: the method accepts sessions"), PROTOCOLS, code("""
                        g(c ? null : (SJServerSocket) null);
                """));
    }

    @Test
    void nullRegisteredWithATypedSelector() {
        assertRejected("SJ025", 8, msg("given as null to selector 'sel'", "register(s) takes a session"), PROTOCOLS, code("""
                        SJSelector sel = SJSelector.of(P.G.class);
                        sel.register(null);
                """));
    }

    @Test
    void servicesGivenToTheirParametersAreAccepted() {
        assertAccepted(PROTOCOLS, code("""
                        f(svc);
                        f(c ? svc : other);
                """));
    }
}
