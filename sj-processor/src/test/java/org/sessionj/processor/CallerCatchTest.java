package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertAcceptedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.assertRejectedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ024 across methods (adv12 A6, the caller's catch): an unchecked exception that leaves a method while a
 * plain local session of its own is live, and that a caller takes and goes on after, abandons the session
 * — the program outlives it, and the peer waits (runtime-confirmed by adv12: the server blocked in its
 * second receive). The error is at the caller's call, wherever the two methods are and whichever javac
 * checks first; an exception that leaves the caller too goes on to the caller's callers.
 */
class CallerCatchTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
            }
            """;

    /** {@code client} holds its session in a plain local, and {@code helper} (the program's) may throw between the sends. */
    static final String CLIENT = """
            package demo;
            import org.sessionj.api.*;
            class Client {
                static void helper(int v) {
                    if (v < 0) {
                        throw new IllegalStateException("helper failed");
                    }
                }
                static void client(@Session(protocol = P.C2.class) SJService svc, int v) {
                    SJSocket s = svc.request();
                    s.send(1);
                    helper(v);
                    s.send(2);
                    s.close();
                }
                static void middle(@Session(protocol = P.C2.class) SJService svc, int v) {
                    client(svc, v);
                }
            }
            """;

    private static String caller(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Caller {
                    void run(@Session(protocol = P.C2.class) SJService svc, int v) {
                %s    }
                }
                """.formatted(body);
    }

    /** The adversary's program: {@code try { client(svc); } catch (RuntimeException e) { … } } goes on. */
    @Test
    void aCallerThatTakesTheExceptionAndGoesOn() {
        assertRejectedInEveryOrder("SJ024", 6, msg("session 's' is not complete if, in 'client', the call of 'helper' "
                + "on line 12 throws an unchecked exception, which leaves 'client' and comes out of the call on line 6, "
                + "where the catch on line 7 takes it and goes on (the exception abandons the session: the peer would "
                + "wait; in 'client', declare it in try-with-resources, or close it in a finally block): !<int> remains"),
                PROTOCOLS, CLIENT, caller("""
                        try {
                            Client.client(svc, v);
                        } catch (RuntimeException e) {
                            System.out.println("going on: " + e);
                        }
                """));
    }

    /** Through a method that lets it out too; the caller's catch of a subtype may take it (adv16 A4). */
    @Test
    void throughAMethodThatLetsItOutToo() {
        assertRejectedInEveryOrder("SJ024", 6, msg("which leaves 'client' and then 'middle' (through its call on line 17) "
                + "and comes out of the call on line 6, where the catch on line 7 takes it and goes on"),
                PROTOCOLS, CLIENT, caller("""
                        try {
                            Client.middle(svc, v);
                        } catch (IllegalStateException e) {
                            System.out.println("going on: " + e);
                        }
                """));
    }

    /** In one class, the caller first: a finally block that ends with a jump drops it as well (adv16 A5). */
    @Test
    void aFinallyBlockThatJumpsInTheSameClass() {
        assertRejected("SJ024", 7, msg("which leaves 'client' and comes out of the call on line 7, where the finally "
                + "block on line 8 drops it (it can end with a jump) and goes on"), PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    static void run(@Session(protocol = P.C2.class) SJService svc) {
                        for (int i = 0; i < 3; i++) {
                            try {
                                client(svc, i - 1);
                            } finally {
                                continue;
                            }
                        }
                    }
                    static void client(@Session(protocol = P.C2.class) SJService svc, int v) {
                        SJSocket s = svc.request();
                        s.send(1);
                        s.send(checked(v));
                        s.close();
                    }
                    static int checked(int v) {
                        if (v < 0) {
                            throw new IllegalArgumentException("negative");
                        }
                        return v;
                    }
                }
                """);
    }

    /**
     * A caller whose body can touch no session (the checker reads only its try statements): the method
     * begins its session itself.
     */
    @Test
    void aCallerThatTouchesNoSession() {
        assertRejectedInEveryOrder("SJ024", 6, msg("which leaves 'handleOne' and comes out of the call on line 6, where "
                + "the catch on line 7 takes it and goes on"), PROTOCOLS, """
                package demo;
                class Loop {
                    void run(int[] values) {
                        for (int v : values) {
                            try {
                                Handler.handleOne(v);
                            } catch (RuntimeException e) {
                                System.out.println("going on: " + e);
                            }
                        }
                    }
                }
                """, """
                package demo;
                import org.sessionj.api.*;
                class Handler {
                    static void handleOne(int v) {
                        SJSocket s = SJService.create(P.C2.class, "host", 4000).request();
                        s.send(1);
                        s.send(Integer.valueOf(v).hashCode() + next(v));
                        s.close();
                    }
                    static int next(int v) {
                        return 100 / v;
                    }
                }
                """);
    }

    /**
     * Not SJ024: a caller whose catch ends the program or rethrows (nobody takes it and goes on), and a
     * method whose session is a resource (Java closes it on the way out, and the runtime tells the peer).
     */
    @Test
    void callersThatDoNotGoOnAndAResource() {
        assertAcceptedInEveryOrder(PROTOCOLS, CLIENT, caller("""
                        try {
                            Client.client(svc, v);
                        } catch (RuntimeException e) {
                            throw new IllegalStateException("gave up", e);
                        }
                """));
        assertAccepted(PROTOCOLS, CLIENT, caller("""
                        try {
                            Client.middle(svc, v);
                        } catch (RuntimeException e) {
                            System.err.println("fatal: " + e);
                            System.exit(1);
                        }
                """));
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Client {
                    static void run(@Session(protocol = P.C2.class) SJService svc) {
                        try {
                            resource(svc, -1);
                        } catch (RuntimeException e) {
                            System.out.println("the session was closed on the way out");
                        }
                    }
                    static void resource(@Session(protocol = P.C2.class) SJService svc, int v) {
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                            s.send(checked(v));
                        }
                    }
                    static int checked(int v) {
                        if (v < 0) {
                            throw new IllegalStateException("negative");
                        }
                        return v;
                    }
                }
                """);
    }
}
