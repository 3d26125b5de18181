package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, classes 2 and 4: code that does not run exactly once (assert, case guards, outwhile
 * operands; SJ027) and catch blocks entered at any point where the try block may throw.
 */
class RunOnceAndExceptionTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Q {
                @Protocol("cbegin.?(boolean)") interface Ask {}
                @Protocol("cbegin.!<int>") interface One {}
                @Protocol("cbegin.?(int).![]*") interface Loop {}
                @Protocol("cbegin.![?(int)]*") interface Reads {}
                @Protocol("cbegin.rec X[!<int>.!{MORE: #X, DONE: }]") interface Rounds {}
                @Protocol("cbegin.rec X[!<int>.!<String>.#X]") interface Pairs {}
                @Protocol("cbegin.!{A: !<int>.!<int>, B: }.!<String>") interface Pick {}
            }
            """;

    private static String run(String protocol, String statements) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    static void check(int n) {
                        if (n > 2) throw new IllegalStateException();
                    }
                    void run(Object o) {
                        try (SJSocket s = SJService.create(Q.%s.class, "h", 1).request()) {
                %s
                        }
                    }
                }
                """.formatted(protocol, statements);
    }

    @Test
    void actionInAnAssert() {
        assertRejected("SJ027", 9, msg("session 's'", "an assert statement"), run("Ask", """
                            assert s.receiveBoolean() : "no";
                """), PROTOCOLS);
    }

    @Test
    void actionInAnAssertMessage() {
        assertRejected("SJ027", 10, msg("an assert statement"), run("Ask", """
                            boolean yes = true;
                            assert yes : "no " + s.receiveBoolean();
                """), PROTOCOLS);
    }

    @Test
    void assertWithoutActionsIsFine() {
        assertAccepted(PROTOCOLS, run("Ask", """
                            boolean yes = s.receiveBoolean();
                            assert yes : "no";
                """));
    }

    @Test
    void actionInACaseGuard() {
        assertRejected("SJ027", 10, msg("a case guard"), run("Ask", """
                            switch (o) {
                                case String text when s.receiveBoolean() -> { }
                                default -> { }
                            }
                """), PROTOCOLS);
    }

    @Test
    void actionInAnOutwhileOperand() {
        assertRejected("SJ027", 10, msg("the operand of outwhile"), run("Loop", """
                            int rounds = 0;
                            while (s.outwhile(s.receiveInt() > rounds++)) {
                            }
                """), PROTOCOLS);
    }

    @Test
    void outwhileOperandWithoutActionsIsFine() {
        assertAccepted(PROTOCOLS, run("Loop", """
                            int limit = s.receiveInt();
                            int rounds = 0;
                            while (s.outwhile(rounds++ < limit)) {
                            }
                """));
    }

    @Test
    void catchEnteredBeforeTheAction() {
        assertRejected("SJ020", 9, msg("session 's'", "the try block and its catch blocks", "!<int>"), run("One", """
                            try {
                                check(1);
                                s.send(1);
                            } catch (IllegalStateException e) {
                            }
                """), PROTOCOLS);
    }

    @Test
    void catchThatLeavesIsFine() {
        assertAccepted(PROTOCOLS, run("One", """
                            try {
                                check(1);
                                s.send(1);
                            } catch (IllegalStateException e) {
                                throw new IllegalArgumentException(e);
                            }
                """));
    }

    @Test
    void catchWhoseTryDoesNotActIsPrecise() {
        assertAccepted(PROTOCOLS, run("One", """
                            int n;
                            try {
                                check(1);
                                n = 1;
                            } catch (IllegalStateException e) {
                                n = 2;
                            }
                            s.send(n);
                """));
    }

    @Test
    void catchThatSplitsARecursionRound() {
        assertRejected("SJ020", 12, msg("session 's'", "MORE"), run("Rounds", """
                            int n = 0;
                            X:
                            while (true) {
                                try {
                                    s.send(n);
                                    check(n);
                                    if (n++ < 3) {
                                        s.outbranch("MORE");
                                    } else {
                                        s.outbranch("DONE");
                                        break X;
                                    }
                                } catch (IllegalStateException e) {
                                }
                            }
                """), PROTOCOLS);
    }

    @Test
    void unknownStateReachesTheEndOfTheSession() {
        assertRejected("SJ024", 8, msg("session 's' is not complete", "!<int> or failed (its action on line 11 threw) (where an exception "
                + "in the try block on line 9 may leave it) remains"), run("One", """
                            try {
                                check(1);
                                s.send(1);
                                return;
                            } catch (IllegalStateException e) {
                            }
                """), PROTOCOLS);
    }

    @Test
    void catchInsideAnIterationBody() {
        assertRejected("SJ020", 11, msg("session 's'",
                "?(int) (inside its iteration) or failed (its action on line 12 threw) or end (inside its iteration)"),
                run("Reads", """
                            int i = 0;
                            while (s.outwhile(i++ < 3)) {
                                try {
                                    int x = s.receiveInt();
                                    check(x);
                                } catch (IllegalStateException e) {
                                }
                            }
                """), PROTOCOLS);
    }

    /**
     * A return runs the finally block silently on its way out; that replay's states (here: the second
     * send fails the session) are no throw points of the try statement it leaves, so the finally
     * block's reported pass still sees a usable session and reports the action (an outsider's find:
     * with two actions in the finally block this compiled).
     */
    @Test
    void actionsInAFinallyBlockRunByAReturn() {
        assertRejected("SJ026", 13, msg("session 's'", "finally"), run("One", """
                            try {
                                s.send(1);
                                return;
                            } finally {
                                s.send(2);
                                s.send(3);
                            }
                """), PROTOCOLS);
    }

    /** The same inside an outer try: the outer catch may start from the replay, the finally still reports. */
    @Test
    void actionsInAFinallyBlockRunByAReturnInsideAnOuterTry() {
        assertRejected("SJ026", 14, msg("session 's'", "finally"), run("One", """
                            try {
                                try {
                                    s.send(1);
                                    return;
                                } finally {
                                    s.send(2);
                                    s.send(3);
                                }
                            } catch (RuntimeException e) {
                            }
                """), PROTOCOLS);
    }
    /**
     * {@code statements} on line 12 with session {@code s} of {@code protocol}; {@code round} and
     * {@code Round.round} perform {@code !<int>.!<String>} and may throw between the two sends,
     * {@code pick} performs {@code !{A: !<int>.!<int>, B: }} and may throw inside the choice.
     */
    private static String lending(String protocol, String statements) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    static void check(int n) { if (n > 2) throw new IllegalStateException(); }
                    interface Round { void round(@Session("!<int>.!<String>") SJSocket s); }
                    void round(@Session("!<int>.!<String>") SJSocket s) { s.send(1); check(1); s.send("x"); }
                    void pick(@Session("!{A: !<int>.!<int>, B: }") SJSocket s) { s.outbranch("A"); s.send(1); check(1); s.send(2); }
                    void run(Round r, int n) {
                        try (SJSocket s = SJService.create(Q.%s.class, "h", 1).request()) {
                            X:
                            while (true) {
                %s
                            }
                        }
                    }
                }
                """.formatted(protocol, statements);
    }

    /**
     * A call that lends the session to a @Session method may throw between the method's actions: a
     * catch that goes on with the round leaves the peers out of step, as if the sends were inline
     * (adv8 finding 18; the states before and after the call are the same folded #X).
     */
    @Test
    void catchThatSplitsARecursionRoundDoneByACall() {
        assertRejected("SJ020", 12, msg("session 's'", "!<java.lang.String>.#X", "an exception in the try block"), lending("Pairs", """
                                try {
                                    round(s);
                                } catch (IllegalStateException e) {
                                }
                                continue X;
                """), PROTOCOLS);
    }

    @Test
    void catchThatSplitsARecursionRoundDoneThroughAnInterface() {
        assertRejected("SJ020", 12, msg("session 's'", "!<java.lang.String>"), lending("Pairs", """
                                try {
                                    r.round(s);
                                } catch (IllegalStateException e) {
                                }
                                continue X;
                """), PROTOCOLS);
    }

    @Test
    void finallyThatSwallowsAThrowInsideACallByJumping() {
        assertRejected("SJ020", 12, msg("session 's'", "!<java.lang.String>"), lending("Pairs", """
                                try {
                                    round(s);
                                } finally {
                                    continue X;
                                }
                """), PROTOCOLS);
    }

    @Test
    void aThrowInsideAChoiceMadeByACallLeavesNoKnownState() {
        assertRejected("SJ020", 12, msg("session 's'", "partway through !{A: !<int>.!<int>, B: }", "'pick'"),
                lending("Pick", """
                                try {
                                    pick(s);
                                } catch (IllegalStateException e) {
                                }
                                s.send("x");
                                break X;
                """), PROTOCOLS);
    }

    @Test
    void aCallInATryWhoseCatchLeavesOrThatCompletesTheRoundIsFine() {
        assertAccepted(PROTOCOLS, lending("Pairs", """
                                try {
                                    round(s);
                                } catch (IllegalStateException e) {
                                    throw new IllegalArgumentException(e);
                                }
                                if (n > 3) {
                                    continue X;
                                }
                                try {
                                    check(n);
                                } catch (IllegalStateException e) {
                                    n++;
                                }
                                r.round(s);
                                continue X;
                """));
    }
}
