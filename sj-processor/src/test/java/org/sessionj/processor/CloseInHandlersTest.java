package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * {@code close()} in a finally or catch block (adv10 F4): the pre-Java-7 form of try-with-resources.
 * A finally block may close a session it owns whatever an exception left it in; the paths that enter
 * it normally must have completed the session, as at the end of a try-with-resources block.
 * A catch block, entered only by exceptions, may close what it owns whatever it catches.
 */
class CloseInHandlersTest {
    static final String PROTOCOLS = SessionFailureTest.PROTOCOLS;

    /** The body starts on line 9. */
    private static String client(String protocol, String body) {
        return """
                package demo;
                import java.time.Duration;
                import org.sessionj.api.*;
                class User {
                    static void helper() {
                    }
                    String run(@Session(protocol = P.%s.class) SJService svc, boolean stop) {
                        String result = null;
                %s
                        return result;
                    }
                }
                """.formatted(protocol, body);
    }

    @Test
    void closeInFinally() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            result = s.receive();
                        } finally {
                            s.close();
                        }
                """));
    }

    @Test
    void closeInFinallyAfterACatchOfSessionFailures() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            result = s.receive(Duration.ofSeconds(5));
                        } catch (SJTimeoutException e) {
                            result = "timed out";
                        } finally {
                            s.close();
                        }
                """));
    }

    @Test
    void closeInACatchOfSessionFailuresThenRethrow() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            result = s.receive();
                        } catch (SJIOException e) {
                            s.close();
                            throw e;
                        }
                        s.close();
                """));
    }

    @Test
    void finallyClosesBeforeTheSessionIsComplete() {
        assertRejected("SJ024", 14, msg("session 's' is not complete when this finally block closes it after the try "
                + "statement completes: ?(java.lang.String) remains"), PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            helper();
                        } finally {
                            s.close();
                        }
                """));
    }

    @Test
    void aReturnThroughTheFinallyBlockBeforeTheSessionIsComplete() {
        assertRejected("SJ024", 17, msg("session 's' is not complete when this finally block closes it on the way out "
                + "of the jump: ?(java.lang.String) remains"), PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            if (stop) {
                                return null;
                            }
                            result = s.receive();
                        } finally {
                            s.close();
                        }
                """));
    }

    @Test
    void otherActionsInFinallyStayRejected() {
        assertRejected("SJ026", 14, msg("session 's'", "finally"), PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            result = s.receive();
                        } finally {
                            s.send(2);
                            s.close();
                        }
                """));
    }

    @Test
    void usedAfterTheFinallyBlockClosedIt() {
        assertRejected("SJ025", 16, msg("session 's' is used after it was closed by the finally block on line 14"),
                PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            result = s.receive();
                        } finally {
                            s.close();
                        }
                        s.send(2);
                """));
    }

    /**
     * A catch of any exception may see the session live: only exception paths enter it, so closing it there
     * abandons it (the peer is told), as a try-with-resources block around the try would (adv12 A3).
     */
    @Test
    void closeInACatchOfAnyExceptionAbandonsTheSession() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            helper();
                            result = s.receive();
                        } catch (RuntimeException e) {
                            s.close();
                            throw e;
                        }
                        s.close();
                """));
    }

    /** The session may have been handed to another owner before the exception: not this code's to close. */
    @Test
    void finallyClosesASessionItMayHaveDelegated() {
        assertRejected("SJ025", 15, msg("session 's'", "delegated on line 12", "may no longer be this code's to close"), PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class User {
                    @Protocol("!<int>.?(int)") interface Body {}
                    @Protocol("cbegin.!<@(Body)>") interface Hand {}
                    static void helper() {
                    }
                    void run(@Session(protocol = P.Two.class) SJService svc, @Session(protocol = Hand.class) SJService hand) {
                        SJSocket s = svc.request();
                        try (SJSocket d = hand.request()) {
                            try {
                                d.send(s);
                                helper();
                            } finally {
                                s.close();
                            }
                        }
                    }
                }
                """);
    }

    // ---- null tests on a socket that holds a session (adv10 F17)

    @Test
    void closeInFinallyIfNotNull() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            result = s.receive();
                        } finally {
                            if (s != null) {
                                s.close();
                            }
                        }
                """));
    }

    @Test
    void aNullCheckAfterTheRequest() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        if (s == null) {
                            return null;
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void theBranchForASocketIsStillChecked() {
        assertRejected("SJ024", 0, msg("session 's' is not complete", "?(java.lang.String)"), PROTOCOLS,
                client("C", """
                        SJSocket s = svc.request();
                        if (s != null) {
                            s.send(1);
                            s.close();
                        }
                """));
    }

    /**
     * A checked caller never passes null to a {@code @Session} parameter (SJ025 at the call), so the guard's
     * null branch, with the parameter null there, leaves nothing open (adv13 A9: was SJ024 at the return).
     */
    @Test
    void aParameterGuardedAgainstNull() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class User {
                    void run(@Session("!<int>") SJSocket s) {
                        if (s == null) {
                            System.out.println("no session");
                            return;
                        }
                        s.send(1);
                    }
                    void caller(@Session(protocol = P.C.class) SJService svc) {
                        SJSocket t = svc.request();
                        run(t);
                        t.receive();
                        t.close();
                    }
                }
                """);
    }

    /**
     * adv14 A3: the null branch runs only for a caller the checker never saw, and is checked all the same,
     * with the parameter holding null there; a null given through a conditional or a switch is SJ025 at the call.
     */
    @Test
    void theNullBranchOfAParameterIsCheckedWithTheParameterNull() {
        String head = """
                package demo;
                import org.sessionj.api.*;
                class User {
                    void run(@Session("!<int>") SJSocket s, @Session(protocol = P.C.class) SJService svc) {
                        if (s == null) {
                %s
                            return;
                        }
                        s.send(1);
                    }
                    void caller(@Session(protocol = P.C.class) SJService svc, boolean c, int k) {
                %s
                    }
                }
                """;
        assertRejected("SJ013", 7, msg("session 't': expected !<int> but the program sends !<java.lang.String>"), PROTOCOLS,
                head.formatted("""
                            SJSocket t = svc.request();
                            t.send("wrong");
                            t.close();
                """, ""));
        assertRejected("SJ025", 6, msg("session 's' is used after it was found null by the test on line 5"), PROTOCOLS,
                head.formatted("""
                            s.send(2);
                """, ""));
        assertRejected("SJ025", 12, msg("session 's' is used after it was given null by this call of 'run'"),
                PROTOCOLS, head.formatted("", """
                        run(c ? null : null, svc);
                """));
        assertRejected("SJ025", 12, msg("session 's' is used after it was given null by this call of 'run'"),
                PROTOCOLS, head.formatted("", """
                        run(switch (k) { case 0 -> null; default -> (SJSocket) null; }, svc);
                """));
    }

    /** The dead branch does not excuse the live one: the parameter's session must still be done. */
    @Test
    void aParameterGuardedAgainstNullMustStillBeDone() {
        assertRejected("SJ024", 4, msg("session 's' is not complete", "!<int>"), PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class User {
                    void run(@Session("!<int>") SJSocket s) {
                        if (s != null) {
                            System.out.println("a session");
                        }
                    }
                }
                """);
    }

    // ---- null as "no session" (adv10 F17 rest): SJSocket t = null, t = null, and null tests on it

    @Test
    void aSocketDeclaredNullThenRequested() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket t = null;
                        t = svc.request();
                        if (t == null) {
                            return null;
                        }
                        t.send(1);
                        result = t.receive();
                        t.close();
                        t = null;
                        if (t != null) {
                            t.send(2);
                        }
                """));
    }

    /** The pre-Java-7 form: the request may throw before t holds a session, so the finally tests for null. */
    @Test
    void thePreJava7IdiomWithANullTestInFinally() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket t = null;
                        try {
                            t = svc.request();
                            t.send(1);
                            result = t.receive();
                        } finally {
                            if (t != null) {
                                t.close();
                            }
                        }
                """));
    }

    @Test
    void aSocketSetToNullAfterEachRoundOfALoop() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket t = null;
                        while (!stop) {
                            t = svc.request();
                            t.send(1);
                            result = t.receive();
                            t.close();
                            t = null;
                        }
                """));
    }

    @Test
    void anActionOnNullIsAUseAfterTheSessionIsGone() {
        assertRejected("SJ025", 10, msg("session 't' is used after it was set to null on line 9"), PROTOCOLS,
                client("C", """
                        SJSocket t = null;
                        t.send(1);
                """));
    }

    /** Null on one path, an ended session on the other: nothing may be done with it but a null test. */
    @Test
    void anActionWhereItMayBeNullIsRejected() {
        assertRejected("SJ025", 16, msg("session 't' is used after it was closed on line 14 (or it holds null)"),
                PROTOCOLS, client("C", """
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                            t.send(1);
                            result = t.receive();
                            t.close();
                        }
                        t.send(2);
                """));
    }

    /**
     * Soundness: a session begun on one path only is "the session or null" where the paths meet (adv13 A8:
     * no longer SJ020 there, see SessionOrNullTest), and still incomplete where the method returns.
     */
    @Test
    void aSessionOnOnePathAndNullOnTheOtherIsIncompleteAtTheReturn() {
        assertRejected("SJ024", 15, msg("session 't' is not complete at this return: ?(java.lang.String) (on the paths "
                + "where it holds a session; on others it was set to null on line 9) remains"), PROTOCOLS, client("C", """
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                            t.send(1);
                        }
                """));
    }

    /** Where t may be null, the branch for null runs and is checked like any other code. */
    @Test
    void theBranchForNullIsCheckedWhereTheSocketMayBeNull() {
        assertRejected("SJ013", 18, msg("session 'u': expected !<int> but the program sends !<java.lang.String>"),
                PROTOCOLS, client("C", """
                        SJSocket t = null;
                        if (stop) {
                            t = svc.request();
                            t.send(1);
                            result = t.receive();
                            t.close();
                        }
                        if (t == null) {
                            SJSocket u = svc.request();
                            u.send("x");
                            u.close();
                        }
                """));
    }

    /** Also where it surely is null: the branch for a socket is dead, the other is checked. */
    @Test
    void theBranchForNullIsCheckedWhereTheSocketIsNull() {
        assertRejected("SJ024", 13, msg("session 'u' is not complete", "?(java.lang.String)"), PROTOCOLS,
                client("C", """
                        SJSocket t = null;
                        if (t == null) {
                            SJSocket u = svc.request();
                            u.send(1);
                            u.close();
                        }
                """));
    }

    @Test
    void settingAnUnfinishedSessionToNullIsAnOverwrite() {
        assertRejected("SJ033", 11, msg("session 't' is reassigned while its session is not complete"), PROTOCOLS,
                client("C", """
                        SJSocket t = svc.request();
                        t.send(1);
                        t = null;
                """));
    }

    /**
     * A loop whose first round starts with null and later rounds with the session the last one closed: at
     * its top the socket is null or ended, which the body's request may replace (adv13 A8: was SJ021).
     */
    @Test
    void aLoopThatLeavesAnEndedSessionWhereItStartedWithNull() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket t = null;
                        while (!stop) {
                            t = svc.request();
                            t.send(1);
                            result = t.receive();
                            t.close();
                        }
                """));
    }

    /** After such a loop the socket is null or ended: nothing may be done with it. */
    @Test
    void afterSuchALoopTheSocketIsNullOrEnded() {
        assertRejected("SJ025", 16, msg("session 't' is used after it was", "(or it holds null)"), PROTOCOLS,
                client("C", """
                        SJSocket t = null;
                        while (!stop) {
                            t = svc.request();
                            t.send(1);
                            result = t.receive();
                            t.close();
                        }
                        t.send(2);
                """));
    }
}
