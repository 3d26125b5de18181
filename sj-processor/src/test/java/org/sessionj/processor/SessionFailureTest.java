package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Catch blocks after a failed request or session action (adv10 F20, F21): a request or accept that
 * throws has begun no session, a session action that throws has failed its session (the runtime fails
 * and closes it), and only session code throws {@code SJIOException}. Each accepted idiom has rejected
 * neighbours: the session used after it failed, the exception thrown by other code while the session
 * is healthy, another session's failure.
 */
class SessionFailureTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.?(String)") interface C {}
                @Protocol("sbegin.?(int).!<String>") interface S {}
                @Protocol("cbegin.!<int>.?(String).!<int>") interface Longer {}
                @Protocol("cbegin.!<int>.?(int)") interface Two {}
                @Protocol("sbegin.rec X[?{ADD: ?(int).!<int>.#X, QUIT: }]") interface Adder {}
                @Protocol("cbegin.![!<int>.?(int)]*") interface Loop {}
            }
            """;

    /** The body starts on line 10; it may end with a return on every path. */
    private static String client(String protocol, String body) {
        String tail = body.strip().endsWith("// returns") ? "" : "        return result;\n";
        return """
                package demo;
                import java.time.Duration;
                import org.sessionj.api.*;
                class User {
                    static void helper() {
                    }
                    String run(@Session(protocol = P.%s.class) SJService svc, @Session(protocol = P.Two.class)
                            SJService other, boolean stop) throws InterruptedException {
                        String result = null;
                %s%s    }
                }
                """.formatted(protocol, body, tail);
    }

    /** The body starts on line 9. */
    private static String server(String protocol, String body) {
        return """
                package demo;
                import java.time.Duration;
                import org.sessionj.api.*;
                class User {
                    static void helper() {
                    }
                    String run(@Session(protocol = P.%s.class) SJServerSocket ss, boolean stop) {
                        String result = null;
                %s
                        return result;
                    }
                }
                """.formatted(protocol, body);
    }

    // ---- F20: a request or accept that throws has begun no session

    @Test
    void connectOrGiveUp() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s;
                        try {
                            s = svc.request();
                        } catch (SJIOException e) {
                            System.out.println("server down: " + e.getMessage());
                            return null;
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void connectOrGiveUpCatchingAnyException() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s;
                        try {
                            s = svc.request();
                        } catch (RuntimeException e) {
                            return null;
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void retryUntilTheServerIsUp() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s;
                        while (true) {
                            try {
                                s = svc.request();
                                break;
                            } catch (SJIOException e) {
                                Thread.sleep(100);
                            }
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void acceptPollingAStopFlag() {
        assertAccepted(PROTOCOLS, server("S", """
                        SJSocket s;
                        while (true) {
                            try {
                                s = ss.accept(Duration.ofSeconds(1));
                                break;
                            } catch (SJTimeoutException e) {
                                if (stop) {
                                    return null;
                                }
                            }
                        }
                        int x = s.receiveInt();
                        s.send("r" + x);
                        s.close();
                """));
    }

    /** A retry whose try block also acts: the catch sees no session or a failed one, either may be replaced. */
    @Test
    void retryAFailedFirstActionOnAFreshSession() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s;
                        while (true) {
                            try {
                                s = svc.request();
                                s.send(1);
                                break;
                            } catch (SJIOException e) {
                                Thread.sleep(100);
                            }
                        }
                        result = s.receive();
                        s.close();
                """));
    }

    /** Code of the program after the request may throw with the session live: the retry would abandon it. */
    @Test
    void retryAfterCodeThatMayThrowWithTheSessionLive() {
        assertRejected("SJ021", 0, msg("session 's'", "unassigned or !<int>.?(java.lang.String)"),
                PROTOCOLS, client("C", """
                        SJSocket s;
                        while (true) {
                            try {
                                s = svc.request();
                                helper();
                                break;
                            } catch (SJIOException e) {
                                // no Thread.sleep: its InterruptedException would leave with the session live (SJ024)
                                java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
                            }
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    /** A JVM exception (here a division) is no SJIOException, but a catch of RuntimeException sees it. */
    @Test
    void retryCatchingRuntimeExceptionsAfterADivision() {
        assertRejected("SJ021", 0, msg("session 's'", "unassigned or !<int>.?(java.lang.String)"),
                PROTOCOLS, client("C", """
                        SJSocket s;
                        int zero = 0;
                        while (true) {
                            try {
                                s = svc.request();
                                zero = 1 / zero;
                                break;
                            } catch (RuntimeException e) {
                                zero = 1;
                            }
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    @Test
    void retryCatchingSessionFailuresAfterADivision() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s;
                        int zero = 0;
                        while (true) {
                            try {
                                s = svc.request();
                                zero = 1 / zero;
                                break;
                            } catch (SJIOException e) {
                                zero = 1;
                            }
                        }
                        s.send(1);
                        result = s.receive();
                        s.close();
                """));
    }

    // ---- F21: an action that throws has failed its session; the catch may leave it

    @Test
    void giveUpAfterATimeout() {
        assertAccepted(PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                return s.receive(Duration.ofSeconds(5));
                            } catch (SJTimeoutException e) {
                                System.out.println("no answer in 5 s, giving up");
                                return null;
                            }
                        } // returns
                """));
    }

    @Test
    void giveUpAfterAnySessionFailure() {
        assertAccepted(PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                result = s.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                        }
                """));
    }

    @Test
    void fallOutOfTheSessionAfterATimeout() {
        assertAccepted(PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                result = s.receive(Duration.ofSeconds(5));
                            } catch (SJTimeoutException e) {
                                result = "timed out";
                            }
                        }
                """));
    }

    @Test
    void serverStopsWhenItsClientVanishes() {
        assertAccepted(PROTOCOLS, server("Adder", """
                        try (SJSocket s = ss.accept()) {
                            X:
                            while (true) {
                                try {
                                    switch (s.inbranch()) {
                                        case "ADD" -> {
                                            s.send(s.receiveInt() + 1);
                                            continue X;
                                        }
                                        case "QUIT" -> {
                                            break X;
                                        }
                                    }
                                } catch (SJIOException e) {
                                    System.out.println("client gone");
                                    break X;
                                }
                            }
                        }
                """));
    }

    @Test
    void continuingTheSessionAfterATimeout() {
        assertRejected("SJ020", 0, msg("session 's'", "failed (its action on line 13 threw)"), PROTOCOLS,
                client("Longer", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                result = s.receive(Duration.ofSeconds(5));
                            } catch (SJTimeoutException e) {
                                result = "default";
                            }
                            s.send(2);
                        }
                """));
    }

    @Test
    void usingTheSessionAfterItFailed() {
        assertRejected("SJ025", 17, msg("session 's' is used after it was ended by the failure of its action on line 13"),
                PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                result = s.receive(Duration.ofSeconds(5));
                            } catch (SJTimeoutException e) {
                                result = null;
                            }
                            s.send(2);
                        }
                """));
    }

    /** Closing a session that is complete or failed: a failed session's close() does nothing. */
    @Test
    void closeAfterATimeout() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        s.send(1);
                        try {
                            result = s.receive(Duration.ofSeconds(5));
                        } catch (SJTimeoutException e) {
                            result = null;
                        }
                        s.close();
                """));
    }

    @Test
    void closeInTheCatchOfAFailedSession() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        s.send(1);
                        try {
                            result = s.receive(Duration.ofSeconds(5));
                        } catch (SJTimeoutException e) {
                            s.close();
                            return null;
                        }
                        s.close();
                """));
    }

    @Test
    void retryingTheSameSessionAfterATimeout() {
        assertRejected("SJ025", 12, msg("session 's' is used after it was ended by the failure of its action on line 14 "
                + "in an earlier iteration"), PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            while (true) {
                                try {
                                    result = s.receive(Duration.ofSeconds(5));
                                    break;
                                } catch (SJTimeoutException e) {
                                    System.out.println("still waiting");
                                }
                            }
                        }
                """));
    }

    /** The exception may be the other session's: this one is healthy and incomplete. */
    @Test
    void anotherSessionsFailureLeavesThisOneLive() {
        assertRejected("SJ024", 0, msg("session 'a'", "?(int) remains"), PROTOCOLS, client("C", """
                        try (SJSocket a = other.request(); SJSocket b = svc.request()) {
                            a.send(1);
                            b.send(2);
                            try {
                                result = b.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                            int n = a.receiveInt();
                        }
                """));
    }

    /** Code of the program may throw an SJIOException of its own (another session's, say). */
    @Test
    void codeOfTheProgramMayThrowASessionFailure() {
        assertRejected("SJ024", 0, msg("session 's'", "?(java.lang.String)"), PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                helper();
                                return s.receive(Duration.ofSeconds(5));
                            } catch (SJTimeoutException e) {
                                return null;
                            }
                        } // returns
                """));
    }

    @Test
    void throwingASessionFailureWhileTheSessionIsLive() {
        assertRejected("SJ024", 0, msg("session 's'", "?(java.lang.String)"), PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                if (stop) {
                                    throw new SJIOException("stopped");
                                }
                                result = s.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                        }
                """));
    }

    @Test
    void throwingAnotherExceptionIsNoSessionFailure() {
        assertAccepted(PROTOCOLS, client("C", """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                if (stop) {
                                    throw new IllegalStateException("stopped");
                                }
                                result = s.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                        }
                """));
    }

    /**
     * adv12 A1: {@code javax.*} is no JDK namespace: a program's (or a library's) {@code javax.app} runs
     * its own code, which may throw an SJIOException, however closed its arguments; the JDK's own
     * {@code javax.*} (in its modules) does not.
     */
    @Test
    void aJavaxPackageOnTheClassPathIsNoJdkCode() {
        String audit = """
                package javax.app;
                public class Audit {
                    public static void record(int step) {
                        if (step == 1) {
                            throw new org.sessionj.api.SJIOException("audit backend down");
                        }
                    }
                }
                """;
        String body = """
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                %s;
                                result = s.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                        }
                """;
        assertRejected("SJ024", 0, msg("session 's'", "?(java.lang.String)"), PROTOCOLS,
                client("C", body.formatted("javax.app.Audit.record(1)")), audit);
        assertAccepted(PROTOCOLS, client("C", body.formatted("javax.naming.ldap.Rdn.escapeValue(\"x\")")));
    }

    /** A JDK method given a value of the program may run the program's code (here its toString()). */
    @Test
    void jdkCodeGivenAnObjectOfTheProgram() {
        assertRejected("SJ024", 0, msg("session 's'", "?(java.lang.String)"), PROTOCOLS, client("C", """
                        Object o = new Object() {
                            @Override
                            public String toString() {
                                helper();
                                return "o";
                            }
                        };
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                String text = String.valueOf(o);
                                result = s.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                        }
                """));
    }

    @Test
    void aStringConcatenationCallsToString() {
        assertRejected("SJ024", 0, msg("session 's'", "?(java.lang.String)"), PROTOCOLS, client("C", """
                        Object o = List.of();
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                String text = "o = " + o;
                                result = s.receive();
                            } catch (SJIOException e) {
                                return null;
                            }
                        }
                """.replace("List.of()", "java.util.List.of()")));
    }

    /** Catching every exception: the JVM's own (before the receive) leave the session live. */
    @Test
    void aCatchOfEveryExceptionStillSeesTheLiveSession() {
        assertRejected("SJ024", 0, msg("session 's'", "?(java.lang.String)"), PROTOCOLS, client("C", """
                        int[] box = new int[1];
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            try {
                                box[0] = 1 / box[0];
                                result = s.receive();
                            } catch (RuntimeException e) {
                                return null;
                            }
                        }
                """));
    }

    /** Falling through a catch inside an iteration would go on to the next decision with a failed session. */
    @Test
    void iterationBodyGoesOnAfterAFailure() {
        assertRejected("SJ020", 0, msg("session 's'", "failed (its action on line 15 threw)"), PROTOCOLS,
                client("Loop", """
                        try (SJSocket s = svc.request()) {
                            int i = 0;
                            while (s.outwhile(i++ < 3)) {
                                s.send(i);
                                try {
                                    int x = s.receiveInt();
                                } catch (SJIOException e) {
                                    i = 0;
                                }
                            }
                        }
                """));
    }

    @Test
    void iterationBodyLeavesAfterAFailure() {
        assertAccepted(PROTOCOLS, client("Loop", """
                        try (SJSocket s = svc.request()) {
                            int i = 0;
                            while (s.outwhile(i++ < 3)) {
                                s.send(i);
                                try {
                                    int x = s.receiveInt();
                                } catch (SJIOException e) {
                                    break;
                                }
                            }
                        }
                """));
    }

    @Test
    void iterationBodyLeavesWhileTheSessionMayBeLive() {
        assertRejected("SJ020", 0, msg("session 's'", "the exits of this loop", "?(int) (inside its iteration)"),
                PROTOCOLS, client("Loop", """
                        try (SJSocket s = svc.request()) {
                            int i = 0;
                            while (s.outwhile(i++ < 3)) {
                                try {
                                    s.send(i);
                                    helper();
                                    int x = s.receiveInt();
                                } catch (SJIOException e) {
                                    break;
                                }
                            }
                        }
                """));
    }

    // ---- adv12 A3: a catch of RuntimeException or Exception may close a session every throw point failed

    @Test
    void closingInACatchOfRuntimeExceptionWhereOnlyTheSessionsOwnActionCouldThrow() {
        assertAccepted(PROTOCOLS, client("Two", """
                        SJSocket s = other.request();
                        try {
                            s.send(1);
                            result = "" + s.receiveInt();
                        } catch (RuntimeException e) {
                            s.close();
                            throw e;
                        }
                        s.close();
                """));
    }

    @Test
    void closingInACatchOfExceptionAfterACompleteSession() {
        assertAccepted(PROTOCOLS, client("C", """
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            String r = s.receive();
                            s.close();
                            result = r;
                        } catch (Exception e) {
                            s.close();
                            return null;
                        }
                """));
    }

    /** Closing and rethrowing is the finally form written as a catch: the session is abandoned, the peer told. */
    @Test
    void closingInACatchOfRuntimeExceptionAfterProgramCodeThatMayThrowMidSession() {
        assertAccepted(PROTOCOLS, client("Two", """
                        SJSocket s = other.request();
                        try {
                            s.send(1);
                            helper();
                            result = "" + s.receiveInt();
                        } catch (RuntimeException e) {
                            s.close();
                            throw e;
                        }
                        s.close();
                """));
    }

    /** Only close: any other action in the catch is still SJ026 (the session may have been cut short anywhere). */
    @Test
    void anActionOtherThanCloseInACatchOfRuntimeExceptionIsStillRejected() {
        assertRejected("SJ026", 0, msg("session 's'", "catch"), PROTOCOLS, client("Two", """
                        SJSocket s = other.request();
                        try {
                            s.send(1);
                            helper();
                            result = "" + s.receiveInt();
                        } catch (RuntimeException e) {
                            result = "" + s.receiveInt();
                        }
                        s.close();
                """));
    }

    /** After the catch closed it, the session is ended: the paths that join after the try must agree. */
    @Test
    void aSessionClosedInACatchCannotBeUsedWhereTheTryBlockLeftItLive() {
        assertRejected("SJ020", 0, msg("session 's'"), PROTOCOLS, client("Two", """
                        SJSocket s = other.request();
                        try {
                            s.send(1);
                            helper();
                        } catch (RuntimeException e) {
                            s.close();
                        }
                        result = "" + s.receiveInt();
                        s.close();
                """));
    }

    /** A socket that may still hold null needs the null test first, as in a finally block (F17). */
    @Test
    void closingInACatchASocketThatMayBeNullIsRejected() {
        assertRejected("SJ025", 0, msg("session 's'", "holds null", "!= null"), PROTOCOLS, client("Two", """
                        SJSocket s = null;
                        try {
                            s = other.request();
                            s.send(1);
                            result = "" + s.receiveInt();
                            s.close();
                        } catch (RuntimeException e) {
                            s.close();
                        }
                """));
    }

    @Test
    void closingInACatchASocketThatMayBeNullAfterTheNullTest() {
        assertAccepted(PROTOCOLS, client("Two", """
                        SJSocket s = null;
                        try {
                            s = other.request();
                            s.send(1);
                            result = "" + s.receiveInt();
                            s.close();
                        } catch (RuntimeException e) {
                            if (s != null) {
                                s.close();
                            }
                        }
                """));
    }

    /** adv13 A7: a close in a handler of a session the try block may have lent away says where it went. */
    @Test
    void closingInACatchASessionALentHelperMayHaveClosedSaysSo() {
        assertRejected("SJ025", 0, msg("session 's'", "fin", "may no longer be this code's to close"), PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class User {
                    static void foo() {
                    }
                    static void fin(@Session("!<int>.?(String)") SJSocket s) {
                        s.send(1);
                        String r = s.receive();
                        s.close();
                    }
                    static void m(@Session(protocol = P.C.class) SJService w) {
                        SJSocket s = w.request();
                        try {
                            fin(s);
                            foo();
                        } catch (RuntimeException e) {
                            s.close();
                        }
                    }
                }
                """);
    }
}
