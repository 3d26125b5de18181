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
        assertRejected("SJ024", 8, msg("session 's' is not complete", "!<int> or end (where an exception in the try "
                + "block on line 9 may leave it) remains"), run("One", """
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
        assertRejected("SJ020", 11, msg("session 's'", "?(int) (inside its iteration) or end (inside its iteration)"),
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
}
