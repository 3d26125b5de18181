package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAcceptedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.assertRejectedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ024 through a method that touches no session (adv20 A10): the catch sits at the top of the program, the
 * session at the bottom, and a method or two between them can touch no session, so the checker does not read
 * their bodies. Their calls are recorded all the same (not only those inside try statements), so an unchecked
 * exception that leaves the session's method with the session half done is followed through them to the catch
 * that takes it and goes on (runtime-confirmed by adv20: the peer waited for its value after the client went on).
 */
class PassThroughExitTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface P {
                @Protocol("cbegin.!<int>.!<int>") interface C2 {}
            }
            """;

    /** The session's method: it begins its own session and may fail between the two sends. */
    static final String BOOKER = """
            package demo;
            import org.sessionj.api.*;
            class Booker {
                static void book(int v) {
                    SJSocket s = SJService.create(P.C2.class, "host", 4000).request();
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
            """;

    /** The same method with its session a resource: Java closes it on the way out and the peer is told. */
    static final String RESOURCE_BOOKER = """
            package demo;
            import org.sessionj.api.*;
            class Booker {
                static void book(int v) {
                    try (SJSocket s = SJService.create(P.C2.class, "host", 4000).request()) {
                        s.send(1);
                        s.send(checked(v));
                    }
                }
                static int checked(int v) {
                    if (v < 0) {
                        throw new IllegalArgumentException("negative");
                    }
                    return v;
                }
            }
            """;

    /** The top of the program: it takes what comes up and goes on with the next value. */
    static final String LOOP = """
            package demo;
            import java.util.List;
            class Loop {
                static void runAll(List<Integer> values) {
                    for (int v : values) {
                        try {
                            Middle.go(v);
                        } catch (IllegalArgumentException e) {
                            System.out.println("bad value, next: " + e);
                        }
                    }
                }
            }
            """;

    /** The adversary's program: one pass-through method between the catch and the session. */
    @Test
    void oneMethodBetweenTheCatchAndTheSession() {
        assertRejectedInEveryOrder("SJ024", 7, msg("session 's' is not complete if, in 'book', the call of 'checked' on "
                + "line 7 throws an unchecked exception, which leaves 'book' and then 'go' (through its call on line 4) and "
                + "comes out of the call on line 7, where the catch on line 8 takes it and goes on"),
                PROTOCOLS, BOOKER, LOOP, """
                package demo;
                class Middle {
                    static void go(int v) {
                        Booker.book(v);
                    }
                }
                """);
    }

    /** Two methods between them, the second a constructor given to a method reference. */
    @Test
    void twoMethodsAndAConstructorBetween() {
        assertRejectedInEveryOrder("SJ024", 7, msg("and then 'Maker' (through its call on line 9) and then 'go'"),
                PROTOCOLS, BOOKER, LOOP, """
                package demo;
                import java.util.List;
                class Middle {
                    static void go(int v) {
                        List.of(v).forEach(Maker::new);
                    }
                    static final class Maker {
                        Maker(int v) {
                            Booker.book(v);
                        }
                    }
                }
                """);
    }

    /** A lambda outside every try statement of a method that touches no session: its exit leaves the method. */
    @Test
    void aLambdaOutsideEveryTryStatement() {
        assertRejectedInEveryOrder("SJ024", 7, msg("and then 'go' (through its call on line 5)"),
                PROTOCOLS, BOOKER, LOOP, """
                package demo;
                import java.util.List;
                class Middle {
                    static void go(int v) {
                        List.of(v).forEach(x -> Booker.book(x));
                    }
                }
                """);
    }

    /** Through an interface the pass-through class implements (adv20 A10's Handler). */
    @Test
    void throughAnImplementationOfTheProgramsInterface() {
        assertRejectedInEveryOrder("SJ024", 7, msg("(as 'Handler.handle', which it implements)"),
                PROTOCOLS, BOOKER, """
                package demo;
                import java.util.List;
                class Loop {
                    static void runAll(List<Integer> values, Handler handler) {
                        for (int v : values) {
                            try {
                                handler.handle(v);
                            } catch (IllegalArgumentException e) {
                                System.out.println("bad value, next: " + e);
                            }
                        }
                    }
                }
                """, """
                package demo;
                interface Handler {
                    void handle(int v);
                }
                """, """
                package demo;
                class Booking implements Handler {
                    @Override
                    public void handle(int v) {
                        Booker.book(v);
                    }
                }
                """);
    }

    /**
     * Not SJ024: the session is a resource (the exception closes it on the way out), or the pass-through
     * method's own catch ends its way (it rethrows something nobody takes), or nobody catches at all.
     */
    @Test
    void aResourceARethrowAndNoCatch() {
        assertAcceptedInEveryOrder(PROTOCOLS, RESOURCE_BOOKER, LOOP, """
                package demo;
                class Middle {
                    static void go(int v) {
                        Booker.book(v);
                    }
                }
                """);
        assertAcceptedInEveryOrder(PROTOCOLS, BOOKER, """
                package demo;
                import java.util.List;
                class Loop {
                    static void runAll(List<Integer> values) {
                        for (int v : values) {
                            Middle.go(v);
                        }
                    }
                }
                """, """
                package demo;
                class Middle {
                    static void go(int v) {
                        Booker.book(v);
                    }
                }
                """);
    }
}
