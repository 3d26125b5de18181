package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * {@code @SuppressWarnings("sessionj")} turns the checker off for exactly the declaration it is on (a
 * class, method, constructor or field), and for nothing else.
 */
class SuppressionTest {
    private static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>") interface One {}
            }
            """;

    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                %s
                }
                """.formatted(members);
    }

    @Test
    void aSuppressedMethodIsNotCheckedButItsUnsuppressedTwinIs() {
        assertRejected("SJ013", 11, msg("expected !<int>"), cls("""
                    @SuppressWarnings("sessionj")
                    void vanish() {
                        SJSocket s = SJService.create(P.One.class, "h", 1).request();
                        s.send("ghost");
                    }
                    void twin() {
                        try (SJSocket s = SJService.create(P.One.class, "h", 1).request()) {
                            s.send("ghost");
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void aSuppressedClassCoversItsLambdasNestedClassesAndFields() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                @SuppressWarnings({"unchecked", "sessionj"})
                class User {
                    SJSocket kept = SJService.create(P.One.class, "h", 1).request();
                    Runnable r = () -> kept.send("x");
                    class Inner {
                        void twice(SJSocket s) {
                            s.send(1);
                            s.send(2);
                        }
                    }
                    User() {
                        kept.send(1);
                        kept.send(2);
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aSuppressedFieldDoesNotCoverTheMethodsBesideIt() {
        assertRejected("SJ024", 7, msg("not complete"), cls("""
                    @SuppressWarnings("sessionj")
                    final Object parked = SJService.create(P.One.class, "h", 1).request();
                    void run() {
                        try (SJSocket s = SJService.create(P.One.class, "h", 1).request()) {
                        }
                    }
                """), PROTOCOLS);
    }

    @Test
    void anotherSuppressionNameTurnsNothingOff() {
        assertRejected("SJ013", 7, msg("expected !<int>"), cls("""
                    @SuppressWarnings({"unchecked", "SJ013", "all"})
                    void run() {
                        try (SJSocket s = SJService.create(P.One.class, "h", 1).request()) {
                            s.send("ghost");
                        }
                    }
                """), PROTOCOLS);
    }
    /**
     * adv11 A5: suppression hides the helper's own SJ007, not its callers' checks: a caller lending a
     * socket to a suppressed helper whose @Session type is invalid gets SJ010 at the call, and the
     * session is not followed further (before: the caller's socket was silently untracked).
     */
    @Test
    void aSuppressedHelpersInvalidSessionTypeIsReportedAtItsUnsuppressedCaller() {
        assertRejected("SJ010", 10, msg("session 's': its protocol is not known at compile time; it is lent to 'fin', "
                + "whose @Session type of parameter 1 is invalid (its declaration's @SuppressWarnings(\"sessionj\") "
                + "hides why)"), cls("""
                    @SuppressWarnings("sessionj")
                    static void fin(@Session("!<int") SJSocket t) {
                        t.send(1);
                    }
                    void caller() {
                        SJSocket s = SJService.create(P.One.class, "h", 1).request();
                        fin(s);
                        s.send("junk");
                        s.close();
                    }
                """), PROTOCOLS);
    }

    /**
     * adv11 A14: the same helper as a session thread's body, {@code SJ.spawn(s, User::fin)}: the thread
     * would run the session with no checked type, so the spawn is SJ051 (before: accepted).
     */
    @Test
    void aSuppressedBodyWithAnInvalidSessionTypeIsReportedAtTheSpawn() {
        assertRejected("SJ051", 10, msg("'fin''s @Session type of parameter 't' is invalid (its declaration's "
                + "@SuppressWarnings(\"sessionj\") hides why)"), cls("""
                    @SuppressWarnings("sessionj")
                    static void fin(@Session("!<int") SJSocket t) {
                        t.send(1);
                    }
                    void caller() {
                        SJSocket s = SJService.create(P.One.class, "h", 1).request();
                        SJ.spawn(s, User::fin);
                    }
                """), PROTOCOLS);
    }

    /** Its valid twin is a body like any other. */
    @Test
    void aSuppressedBodyWithAValidSessionTypeIsSpawned() {
        assertAccepted(cls("""
                    @SuppressWarnings("sessionj")
                    static void fin(@Session("!<int>") SJSocket t) {
                        t.send(1);
                    }
                    void caller() {
                        SJSocket s = SJService.create(P.One.class, "h", 1).request();
                        SJ.spawn(s, User::fin);
                    }
                """), PROTOCOLS);
    }
}
