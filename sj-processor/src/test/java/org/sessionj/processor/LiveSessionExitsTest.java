package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * An exception of the program's own code leaving the scope of a plain local socket while its session is
 * live and incomplete abandons the session: the peer waits (adv12 A6, SJ024 on the exception paths).
 * Each rejected form has its corrected neighbours: try-with-resources, a finally block that closes, a
 * catch inside the variable's scope; and the points that are not counted (the JDK's unchecked calls,
 * the JVM's own checks, a failed session action, code after the session completed) stay accepted.
 */
class LiveSessionExitsTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
                @Protocol("cbegin.!<int>.?(int)") interface Two {}
            }
            """;

    /** The body starts on line 15. */
    private static String client(String body) {
        return """
                package demo;
                import java.io.IOException;
                import org.sessionj.api.*;
                class User {
                    static void helper() {
                        throw new IllegalStateException("helper failed");
                    }
                    static void io() throws IOException {
                    }
                    static int parse(String text) throws java.text.ParseException {
                        return Integer.parseInt(text);
                    }
                    void run(@Session(protocol = P.C2.class) SJService svc, @Session(protocol = P.Two.class)
                            SJService other) throws Exception {
                %s    }
                }
                """.formatted(body);
    }

    /** adv12 A6: the call may throw between the two sends; the server would wait for the second. */
    @Test
    void programCallBetweenActions() {
        assertRejected("SJ024", 17, msg("session 's' is not complete if the call of 'io' on line 17 throws",
                "leaves its scope", "try-with-resources", "finally block", ": !<int> remains"),
                PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        io();
                        s.send(2);
                        s.close();
                """));
    }

    /** A request begins the session: code of the program before the first action counts too. */
    @Test
    void programCallBeforeTheFirstAction() {
        assertRejected("SJ024", 16, msg("if the call of 'parse' on line 16 throws", "!<int>.!<int>"),
                PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        int n = parse("1");
                        s.send(n);
                        s.send(2);
                        s.close();
                """));
    }

    @Test
    void throwWhileLive() {
        assertRejected("SJ024", 19, msg("if the throw on line 19 runs"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        long now = System.nanoTime();
                        if (now < 0) {
                            throw new IllegalStateException("refused");
                        }
                        s.send(2);
                        s.close();
                """));
    }

    @Test
    void jdkCallDeclaringACheckedException() {
        assertRejected("SJ024", 17, msg("if the call of 'sleep' on line 17 throws"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        Thread.sleep(10);
                        s.send(2);
                        s.close();
                """));
    }

    /** The catch is outside the socket's scope: the exception is caught, but the session is abandoned. */
    @Test
    void caughtOutsideTheVariablesScope() {
        assertRejected("SJ024", 18, msg("if the call of 'io' on line 18 throws"), PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            io();
                            s.send(2);
                            s.close();
                        } catch (IOException e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }

    /** A catch that does not take what the call may throw (an IOException) does not cover it. */
    @Test
    void catchOfAnotherType() {
        assertRejected("SJ024", 18, msg("if the call of 'io' on line 18 throws"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            io();
                            s.send(2);
                        } catch (SJIOException e) {
                            s.close();
                            return;
                        }
                        s.close();
                """));
    }

    /** A finally block that leaves the session live does not cover it. */
    @Test
    void finallyThatDoesNotClose() {
        assertRejected("SJ024", 18, msg("if the call of 'io' on line 18 throws"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            io();
                            s.send(2);
                        } finally {
                            System.out.println("done");
                        }
                        s.close();
                """));
    }

    /** An unchecked escape through the finally block first does not hide the checked one after it. */
    @Test
    void finallyThatDoesNotCloseAfterAnUncheckedPoint() {
        assertRejected("SJ024", 19, msg("if the call of 'io' on line 19 throws ("), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            helper();
                            io();
                            s.send(2);
                        } finally {
                            System.out.println("done");
                        }
                        s.close();
                """));
    }

    /** The try block closes the session on its normal path only; the finally block does not. */
    @Test
    void closedInTheTryBlockOnly() {
        assertRejected("SJ024", 18, msg("if the call of 'io' on line 18 throws"), PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            io();
                            s.send(2);
                            s.close();
                        } finally {
                            System.out.println("done");
                        }
                """));
    }

    // ---- corrected forms

    @Test
    void tryWithResources() {
        assertAccepted(PROTOCOLS, client("""
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            io();
                            s.send(2);
                        }
                """));
    }

    @Test
    void tryWithResourcesOnTheVariable() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try (s) {
                            s.send(1);
                            io();
                            s.send(2);
                        }
                """));
    }

    @Test
    void finallyThatCloses() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            io();
                            s.send(2);
                        } finally {
                            s.close();
                        }
                """));
    }

    @Test
    void catchThatClosesAndRethrows() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            io();
                            s.send(2);
                        } catch (IOException e) {
                            s.close();
                            throw e;
                        }
                        s.close();
                """));
    }

    /** A catch inside the socket's scope takes the exception with the session live, and goes on with it. */
    @Test
    void catchInsideTheScopeThatGoesOn() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        try {
                            io();
                        } catch (IOException e) {
                            System.out.println("no audit: " + e);
                        }
                        s.send(2);
                        s.close();
                """));
    }

    /** A catch that closes and throws another exception (wrapping the checked one). */
    @Test
    void catchThatClosesAndWraps() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        try {
                            s.send(1);
                            io();
                            s.send(2);
                        } catch (IOException e) {
                            s.close();
                            throw new java.io.UncheckedIOException(e);
                        }
                        s.close();
                """));
    }

    /** The program's code runs before the request and after the session completed: nothing is abandoned. */
    @Test
    void programCodeOutsideTheLiveWindow() {
        assertAccepted(PROTOCOLS, client("""
                        int n = parse("1");
                        SJSocket s = svc.request();
                        s.send(n);
                        s.send(2);
                        io();
                        s.close();
                """));
    }

    /**
     * Unchecked exceptions out of calls (the program's or the JDK's) and the JVM's own checks are not
     * counted when they leave the method (the caller's affair; docs/diagnostics.md, SJ024).
     */
    @Test
    void uncheckedExceptionsAreNotCounted() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        s.send(1);
                        helper();
                        s.send(2);
                        s.close();
                """));
    }

    @Test
    void jdkCallsWithoutCheckedExceptions() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = other.request();
                        s.send(Integer.parseInt("7"));
                        int answer = s.receiveInt();
                        System.out.println("got " + answer + " " + 10 / answer);
                        s.close();
                """));
    }

    /** A failed action fails its own session and tells the peer; the other session is not counted either. */
    @Test
    void sessionActionsOfTwoSessions() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = svc.request();
                        SJSocket t = other.request();
                        s.send(1);
                        t.send(1);
                        int answer = t.receiveInt();
                        s.send(answer);
                        t.close();
                        s.close();
                """));
    }

    /**
     * The exceptions a call throws are read at the call, as instantiated (adv15 A2): orElseThrow with an
     * unchecked supplier and a Task whose E is RuntimeException throw nothing checked; a Task's IOException
     * caught inside the scope is covered.
     */
    @Test
    void genericThrowsReadAtTheCall() {
        assertAccepted(PROTOCOLS, client("""
                        interface Task<E extends Exception> {
                            void run() throws E;
                        }
                        Task<RuntimeException> quiet = () -> { };
                        Task<IOException> loud = () -> { };
                        SJSocket s = svc.request();
                        int k = java.util.Optional.of(1).orElseThrow(IllegalStateException::new);
                        s.send(k);
                        quiet.run();
                        try {
                            loud.run();
                        } catch (IOException e) {
                            System.out.println("no audit");
                        }
                        s.send(2);
                        s.close();
                """));
    }

    /** A Task whose E is IOException, not caught inside the scope, still counts. */
    @Test
    void genericThrowsInstantiatedChecked() {
        assertRejected("SJ024", 21, msg("if the call of 'run' on line 21 throws ("), PROTOCOLS, client("""
                        interface Task<E extends Exception> {
                            void run() throws E;
                        }
                        Task<IOException> loud = () -> { };
                        SJSocket s = svc.request();
                        s.send(1);
                        loud.run();
                        s.send(2);
                        s.close();
                """));
    }

    /** A socket that is null (the connect-retry's start) holds no session. */
    @Test
    void nullSocketHoldsNoSession() {
        assertAccepted(PROTOCOLS, client("""
                        SJSocket s = null;
                        io();
                        s = svc.request();
                        s.send(1);
                        s.send(2);
                        s.close();
                """));
    }

    // ---- unchecked exceptions swallowed by a catch of the same method outside the scope (adv12 A6, the rest)

    /** adv12 A6's program in one method: helper() fails, the catch takes it and the program goes on. */
    @Test
    void uncheckedExceptionSwallowedOutsideTheScope() {
        assertRejected("SJ024", 18, msg("session 's' is not complete if the call of 'helper' on line 18 throws an "
                + "unchecked exception, which the catch on line 21 takes and goes on", "leaves its scope",
                "try-with-resources", ": !<int> remains"), PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            helper();
                            s.send(2);
                            s.close();
                        } catch (RuntimeException e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }

    /** A catch of Exception (or Throwable) in an outer statement, around a loop of sessions, takes it too. */
    @Test
    void uncheckedExceptionSwallowedByAnOuterStatement() {
        assertRejected("SJ024", 19, msg("if the constructor call on line 19 throws an unchecked exception, which the "
                + "catch on line 23 takes"), PROTOCOLS, client("""
                        try {
                            for (int i = 0; i < 2; i++) {
                                SJSocket s = svc.request();
                                s.send(i);
                                Object audit = new User();
                                s.send(2);
                                s.close();
                            }
                        } catch (Throwable t) {
                            return;
                        }
                """));
    }

    /** The JDK's declared unchecked exception (parseInt's NumberFormatException) taken by a catch of it. */
    @Test
    void declaredUncheckedExceptionOfTheJdkSwallowed() {
        assertRejected("SJ024", 18, msg("if the call of 'parseInt' on line 18 throws an unchecked exception, which "
                + "the catch on line 20 takes"), PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            s.send(Integer.parseInt("x"));
                            s.close();
                        } catch (NumberFormatException e) {
                            System.out.println("not a number");
                        }
                """));
    }

    /** The first clause that takes the exception rethrows it; the next one of the statement never sees it. */
    @Test
    void catchThatRethrowsDoesNotSwallow() {
        assertAccepted(PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            helper();
                            s.send(2);
                            s.close();
                        } catch (RuntimeException e) {
                            if (e.getMessage() == null) {
                                throw e;
                            } else {
                                throw new IllegalStateException("wrapped", e);
                            }
                        } catch (Exception e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }

    /**
     * A catch of a narrower unchecked type counts too: the program's code may throw any unchecked exception,
     * that one among them (adv16 A4 reversed the earlier reading, where only a catch of all of them counted).
     */
    @Test
    void catchOfANarrowerUncheckedType() {
        assertRejected("SJ024", 18, msg("if the call of 'helper' on line 18 throws an unchecked exception, which the "
                + "catch on line 21 takes and goes on"), PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            helper();
                            s.send(2);
                            s.close();
                        } catch (IllegalArgumentException e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }

    /** The corrected form: try-with-resources closes the session on the way to the catch (the peer is told). */
    @Test
    void uncheckedExceptionSwallowedWithTryWithResources() {
        assertAccepted(PROTOCOLS, client("""
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            helper();
                            s.send(2);
                        } catch (RuntimeException e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }

    /** A finally block inside the scope that closes covers it; so does a catch inside the scope. */
    @Test
    void uncheckedExceptionCoveredInsideTheScope() {
        assertAccepted(PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            try {
                                s.send(1);
                                helper();
                                s.send(2);
                            } finally {
                                s.close();
                            }
                            SJSocket t = svc.request();
                            t.send(1);
                            try {
                                helper();
                            } catch (RuntimeException e) {
                                System.out.println("no audit");
                            }
                            t.send(2);
                            t.close();
                        } catch (RuntimeException e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }

    /** The JDK's calls without declared unchecked exceptions, and the JVM's checks, are not counted. */
    @Test
    void jdkCallsUnderASwallowingCatch() {
        assertAccepted(PROTOCOLS, client("""
                        try {
                            SJSocket s = other.request();
                            s.send(1);
                            int answer = s.receiveInt();
                            java.util.List<Integer> list = new java.util.ArrayList<>();
                            list.add(answer);
                            System.out.println("got " + list.get(0) / answer);
                            s.close();
                        } catch (Exception e) {
                            System.out.println("failed: " + e);
                        }
                """));
    }
}
