package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12: the window between moving a {@code @NoAlias} field out and refilling it. Nothing but the
 * method itself may observe the field in that window: not an exception that leaves the method (the
 * field would still refer to the value the peer now owns), not a class's static initializer run by
 * its first use, not the serialisation of {@code this} by {@code send}, not the {@code toString()}
 * that makes an assert's message — and an assert's Throwable detail becomes the error's cause (SJ044,
 * SJ041).
 */
class NoAliasFieldWindowTest {
    private static String worker(String members, String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Worker implements java.io.Serializable {
                    @Protocol("cbegin.![!<double[]>.?(double[])]*") interface Exchange {}
                    @Protocol("cbegin.![!<double[]>.!<Object>.?(double[])]*") interface WithObject {}
                    @NoAlias double[] ghost = new double[4];
                    static int own;
                %s
                    void run(int n) {
                        try (SJSocket s = SJService.create(%s.class, "h", 1).request()) {
                            while (s.outwhile(n-- > 0)) {
                %s
                            }
                        }
                    }
                }
                class Config {
                    static int size = Integer.getInteger("size", 4);
                    static final int CONSTANT = 4;
                }
                """.formatted(members, body.contains("send(") ? "WithObject" : "Exchange", body);
    }

    /** The swap refilled in a finally block: every exception leaves with the field holding a value. */
    private static String swapInFinally(String between) {
        return """
                                @NoAlias double[] next = null;
                                try {
                                    s.pass(ghost);
                %s
                                    next = s.receive();
                                } finally {
                                    ghost = next;
                                }
                """.formatted(between);
    }

    // ------------------------------------------------------------------ (a) exceptions in the window

    @Test
    void aReceiveThatThrowsLeavesTheFieldMovedOut() {
        assertRejected("SJ044", 12, msg("@NoAlias field 'ghost' was moved out into a call of 'pass' on line 12",
                "on the exceptional paths too: if the call of 'pass' on line 12 throws",
                "refill it in a finally block"), worker("", """
                                s.pass(ghost);
                                ghost = s.receive();
                """));
    }

    @Test
    void theSwapRefilledInAFinallyBlockIsAccepted() {
        assertAccepted(worker("", swapInFinally("")));
    }

    @Test
    void theSwapRefilledInACatchOfThrowableThatRethrowsIsAccepted() {
        assertAccepted(worker("", """
                                try {
                                    s.pass(ghost);
                                    ghost = s.receive();
                                } catch (Throwable failure) {
                                    ghost = new double[4];
                                    throw failure;
                                }
                """));
    }

    @Test
    void aCatchThatDoesNotTakeEveryExceptionIsNotEnough() {
        assertRejected("SJ044", 13, msg("if the call of 'pass' on line 13 throws"), worker("", """
                                try {
                                    s.pass(ghost);
                                    ghost = s.receive();
                                } catch (IllegalStateException failure) {
                                    ghost = new double[4];
                                    throw failure;
                                }
                """));
    }

    @Test
    void aCatchThatRethrowsWithoutRefillingIsNotEnough() {
        assertRejected("SJ044", 16, msg("if the throw on line 16 runs"), worker("", """
                                try {
                                    s.pass(ghost);
                                    ghost = s.receive();
                                } catch (RuntimeException failure) {
                                    throw failure;
                                }
                """));
    }

    @Test
    void aFinallyBlockThatDoesNotRefillIsNotEnough() {
        assertRejected("SJ044", 12, msg("if the call of 'pass' on line 12 throws"), worker("", """
                                s.pass(ghost);
                                try {
                                    ghost = s.receive();
                                } finally {
                                    n++;
                                }
                """));
    }

    @Test
    void aFinallyBlockReadingAFieldMovedBeforeTheTryStatement() {
        // Refilled in the try block on the normal path only: the finally block also runs after the
        // receive threw, when the field is still moved out.
        assertRejected("SJ041", 17, msg("@NoAlias 'ghost' is used after its value was moved in the try block starting on line 13"),
                worker("", """
                                try {
                                    try {
                                        s.pass(ghost);
                                        ghost = s.receive();
                                    } finally {
                                        n += ghost.length;
                                    }
                                } catch (Throwable failure) {
                                    ghost = new double[4];
                                    throw failure;
                                }
                """));
    }

    @Test
    void closingASessionResourceOnTheNormalPathRunsNoProgramCode() {
        // adv18 A9: the session is complete there (else SJ024), so its close runs no listener; the swap idiom
        // with the session as the resource compiles. Another resource's close() is program code.
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Sender {
                    @Protocol("cbegin.!<double[]>.?(double[])") interface Ghosts {}
                    @NoAlias double[] ghost = new double[8];
                    void exchange() {
                        @NoAlias double[] next = null;
                        try (SJSocket s = SJService.create(Ghosts.class, "h", 1).request()) {
                            s.pass(ghost);
                            next = s.receive();
                        } finally {
                            ghost = next;
                        }
                    }
                }
                """);
        assertRejected("SJ044", 8, msg("before the resources of this try statement are closed"), """
                package demo;
                import org.sessionj.api.*;
                class Sender {
                    @Protocol("cbegin.!<int>") interface Out {}
                    @NoAlias double[] ghost = new double[4];
                    double[] run(java.io.Writer log) throws java.io.IOException {
                        @NoAlias double[] out;
                        try (SJSocket s = SJService.create(Out.class, "h", 1).request(); java.io.Writer w = log) {
                            s.send(1);
                            out = ghost;
                        }
                        ghost = new double[4];
                        return out;
                    }
                }
                """);
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Sender {
                    @Protocol("cbegin.!<double[]>") interface Out {}
                    @NoAlias double[] ghost = new double[4];
                    void run() {
                        try (SJSocket s = SJService.create(Out.class, "h", 1).request()) {
                            @NoAlias double[] out = ghost;
                            ghost = new double[4];
                            s.pass(out);
                        }
                    }
                }
                """);
    }

    @Test
    void anExplicitThrowInTheWindow() {
        assertRejected("SJ044", 11, msg("was moved out into 'old' on line 10", "if the throw on line 11 runs"),
                worker("""
                    final IllegalStateException broken = new IllegalStateException("broken");
                    void reset(boolean b) {
                        @NoAlias double[] old = ghost;
                        if (b) throw broken;
                        ghost = old;
                    }
                """, "s.pass(new double[1]);\nghost = s.receive();"));
    }

    @Test
    void anExplicitThrowCaughtByItsOwnTypeAndRefilledIsAccepted() {
        assertAccepted(worker("""
                    final IllegalStateException broken = new IllegalStateException("broken");
                    void reset(boolean b) {
                        @NoAlias double[] old = ghost;
                        try {
                            if (b) throw broken;
                            ghost = old;
                        } catch (IllegalStateException e) {
                            ghost = new double[4];
                        }
                    }
                """, swapInFinally("")));
    }

    @Test
    void aSwapThroughALocalWithNothingThatThrowsInBetweenIsAccepted() {
        assertAccepted(worker("""
                    @NoAlias double[] spare = new double[4];
                    @NoAlias double[] take() {
                        @NoAlias double[] old = ghost;
                        ghost = spare;
                        spare = new double[4];
                        return old;
                    }
                """, swapInFinally("")));
    }

    @Test
    void anArrayAccessOrDivisionInTheWindowMayThrow() {
        assertRejected("SJ044", 11, msg("if the array access on line 11 throws"), worker("""
                    int[] table = new int[2];
                    @NoAlias double[] take(int i) {
                        @NoAlias double[] old = ghost;
                        int k = table[i];
                        ghost = new double[4];
                        return old;
                    }
                """, swapInFinally("")));
        assertRejected("SJ044", 10, msg("if the division on line 10 throws"), worker("""
                    @NoAlias double[] take(int i) {
                        @NoAlias double[] old = ghost;
                        int k = 10 / i;
                        ghost = new double[4];
                        return old;
                    }
                """, swapInFinally("")));
    }

    // ------------------------------------------------------------------ (b) static initializers, send(this)

    @Test
    void aStaticFieldOfAnotherClassRunsItsInitializer() {
        assertRejected("SJ044", 15, msg("before 'Config.size' is used (the first use of demo.Config runs its static "
                + "initializer, which may read it)"), worker("", swapInFinally("int k = Config.size;")));
    }

    @Test
    void anEnumConstantOfAnotherClassRunsItsInitializer() {
        assertRejected("SJ044", 16, msg("before 'Mode.FAST' is used"), worker("""
                    enum Mode { FAST, SLOW; static { System.out.println(Worker.own); } }
                """, swapInFinally("Object mode = Mode.FAST;")));
    }

    /** A plain enum's initialization runs no code of the program (PlainEnums): its constants are safe. */
    @Test
    void aConstantOfAPlainEnumRunsNoProgramCode() {
        assertAccepted(worker("""
                    enum Mode { FAST, SLOW }
                """, swapInFinally("Object mode = Mode.FAST;")));
    }

    @Test
    void aCaseLabelNamesAConstantOfAnInitializedEnum() {
        assertAccepted(worker("""
                    enum Mode { FAST, SLOW }
                    Mode mode = Mode.SLOW;
                """, swapInFinally("switch (mode) { case FAST -> n++; default -> n--; }")));
    }

    @Test
    void ownStaticFieldsAndConstantsRunNoInitializer() {
        assertAccepted(worker("", swapInFinally("int k = own + Config.CONSTANT;")));
    }

    @Test
    void sendingThisWhileAFieldIsMovedOut() {
        // Sent as Object, not as its own class (that alone is SJ013: it would arrive as a map of its properties).
        assertRejected("SJ044", 15, msg("before '(Object)this' is sent (serialising it reads the fields of this "
                + "object"), worker("", swapInFinally("s.send((Object) this);")));
    }

    @Test
    void sendingAnObjectThatMayBeThisWhileAFieldIsMovedOut() {
        assertRejected("SJ044", 16, msg("before 'self' is sent"), worker("""
                    java.io.Serializable self = this;
                """, swapInFinally("s.send(self);")));
    }

    @Test
    void sendingAValueThatCannotBeThisIsAccepted() {
        assertAccepted(worker("", swapInFinally("s.send(\"progress\");")));
        assertAccepted(worker("""
                    final Integer count = 1;
                """, swapInFinally("s.send(count);")));
    }

    @Test
    void sendingAnObjectOfAnUnrelatedClassIsAccepted() {
        assertAccepted(worker("""
                    final java.util.ArrayList<String> log = new java.util.ArrayList<>();
                """, swapInFinally("s.send(log);")));
    }

    // ------------------------------------------------------------------ (c) the detail of an assert

    @Test
    void anAssertDetailWhoseToStringMayReadTheField() {
        assertRejected("SJ044", 15, msg("before this assert's detail becomes the message of its AssertionError "
                + "(which calls its toString())"), worker("", swapInFinally("assert n >= 0 : this;")));
    }

    @Test
    void anAssertDetailThatIsAStringOrPrimitiveIsAccepted() {
        assertAccepted(worker("", swapInFinally("assert n >= 0 : \"n = \" + n;")));
        assertAccepted(worker("", swapInFinally("assert n >= 0 : n;")));
    }

    @Test
    void aNoAliasThrowableAsAnAssertDetailBecomesTheCause() {
        assertRejected("SJ041", 7, msg("@NoAlias 'failure' is used after its value was moved into the AssertionError "
                + "of an assert (as its cause) on line 6"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Checks {
                    void check(boolean ok) {
                        @NoAlias IllegalStateException failure = new IllegalStateException("bad");
                        assert ok : failure;
                        throw failure;
                    }
                }
                """);
    }

    @Test
    void aNoAliasArrayAsAnAssertDetailIsOnlyRead() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.NoAlias;
                class Checks {
                    int check(boolean ok) {
                        @NoAlias int[] values = new int[2];
                        assert ok : values;
                        return values.length;
                    }
                }
                """);
    }
}
