package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ024's "swallow and go on" rule: an unchecked exception out of a call of the program's code counts where
 * a handler of the same method outside the socket's scope takes it and the program goes on. Which handlers
 * those are (adv16): a catch of any type the exception may have, a subtype too (A4); a finally block that
 * can end with a jump (A5); the handler that receives what a catch rethrows (A14); and not a catch that ends
 * the program with {@code System.exit} (A7).
 */
class SwallowingHandlersTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
            }
            """;

    /** The body starts on line 14. */
    private static String client(String body) {
        return """
                package demo;
                import java.io.IOException;
                import org.sessionj.api.*;
                class User {
                    static class ValidationException extends RuntimeException {
                        ValidationException(String message) {
                            super(message);
                        }
                    }
                    static int validate(int v) {
                        return v;
                    }
                    int run(@Session(protocol = P.C2.class) SJService svc, int v) throws Exception {
                %s        return 0;
                    }
                }
                """.formatted(body);
    }

    /** A4: the one exception the program's code is known to throw, caught by its own type. */
    @Test
    void catchOfASpecificUncheckedType() {
        assertRejected("SJ024", 17, msg("if the call of 'validate' on line 17 throws an unchecked exception, which the "
                + "catch on line 19 takes and goes on"), PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            s.send(validate(v));
                            s.close();
                        } catch (ValidationException e) {
                            System.out.println("bad input: " + e.getMessage());
                        }
                """));
    }

    /** A4: an Error of the program's code (an assert in it) caught and survived. */
    @Test
    void catchOfAnError() {
        assertRejected("SJ024", 17, msg("which the catch on line 19 takes and goes on"), PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            s.send(validate(v));
                            s.close();
                        } catch (AssertionError e) {
                            System.out.println("bad input: " + e.getMessage());
                        }
                """));
    }

    /** A5: a finally block that can end with a jump drops the exception and goes on. */
    @Test
    void finallyThatEndsWithAJump() {
        assertRejected("SJ024", 18, msg("if the call of 'validate' on line 18 throws an unchecked exception, which the "
                + "finally block on line 20 drops (it can end with a jump) and goes on"), PROTOCOLS, client("""
                        for (int i = 0; i < 3; i++) {
                            try {
                                SJSocket s = svc.request();
                                s.send(1);
                                s.send(validate(v));
                                s.close();
                            } finally {
                                continue;
                            }
                        }
                """));
    }

    /** A14: wrap and rethrow inside, log and go on outside. */
    @Test
    void rethrowTakenByAnEnclosingCatch() {
        assertRejected("SJ024", 18, msg("if the call of 'validate' on line 18 throws an unchecked exception, which the "
                + "catch on line 23 takes and goes on"), PROTOCOLS, client("""
                        try {
                            try {
                                SJSocket s = svc.request();
                                s.send(1);
                                s.send(validate(v));
                                s.close();
                            } catch (RuntimeException e) {
                                throw new IOException("wrapped", e);
                            }
                        } catch (IOException e) {
                            System.out.println(e.getMessage() + "; going on");
                        }
                """));
    }

    /** A14: {@code throw e;} rethrows what it took, into a finally block that returns. */
    @Test
    void rethrowDroppedByAFinallyThatReturns() {
        assertRejected("SJ024", 18, msg("which the finally block on line 23 drops"), PROTOCOLS, client("""
                        try {
                            try {
                                SJSocket s = svc.request();
                                s.send(1);
                                s.send(validate(v));
                                s.close();
                            } catch (RuntimeException e) {
                                throw e;
                            }
                        } finally {
                            if (v > 0) {
                                return 1;
                            }
                        }
                """));
    }

    // ---- corrected forms and handlers that do not go on

    /** A7: a catch that ends the program does not go on; a rethrow nobody in the method takes leaves it. */
    @Test
    void handlersThatDoNotGoOn() {
        assertAccepted(PROTOCOLS, client("""
                        try {
                            SJSocket s = svc.request();
                            s.send(1);
                            s.send(validate(v));
                            s.close();
                        } catch (RuntimeException e) {
                            System.err.println("fatal: " + e);
                            System.exit(1);
                        }
                        try {
                            try {
                                SJSocket s = svc.request();
                                s.send(1);
                                s.send(validate(v));
                                s.close();
                            } catch (RuntimeException e) {
                                throw new IOException("wrapped", e);
                            }
                        } catch (IllegalStateException e) {
                            System.out.println("not what was rethrown: " + e);
                        }
                """));
    }

    /** Corrected: the session is a resource, so the handler may go on. */
    @Test
    void resourceWithASpecificCatch() {
        assertAccepted(PROTOCOLS, client("""
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            s.send(validate(v));
                        } catch (ValidationException e) {
                            System.out.println("bad input: " + e.getMessage());
                        }
                """));
    }
}
