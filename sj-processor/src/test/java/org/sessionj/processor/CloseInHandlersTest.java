package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * {@code close()} in a finally or catch block (adv10 F4): the pre-Java-7 form of try-with-resources.
 * A finally block may close a session it owns whatever an exception left it in; the paths that enter
 * it normally must have completed the session, as at the end of a try-with-resources block.
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

    /** A catch of any exception may see the session live: closing it there would abandon it and go on. */
    @Test
    void closeInACatchOfAnyExceptionStaysRejected() {
        assertRejected("SJ026", 15, msg("session 's'", "catch"), PROTOCOLS, client("C", """
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
        assertRejected("SJ026", 15, msg("session 's'", "finally"), PROTOCOLS, """
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

    /** A parameter may be null (its caller's business): both branches run as far as the checker knows. */
    @Test
    void aParameterMayBeNull() {
        assertRejected("SJ024", 7, msg("session 's' is not complete at this return", "!<int>"), PROTOCOLS, """
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
                }
                """);
    }
}
