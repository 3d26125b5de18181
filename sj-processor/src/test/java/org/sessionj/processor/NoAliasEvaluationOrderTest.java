package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 6 (adversarial pass 10, F15): Java evaluates an expression's operands left to right
 * and only then performs it, so a {@code @NoAlias} value read early in an expression (an argument, the
 * receiver of a call, the array or object of an assignment's target) and moved by a later operand
 * ({@code f(x, g(x))}) is used after the move when the expression finally takes it: two owners of one
 * value. Reading it only ({@code f(x, x.length)}) stays legal.
 */
class NoAliasEvaluationOrderTest {
    /** {@code statements} in a method with a {@code @NoAlias int[] x} (line 29 is the first statement). */
    private static String run(String statements) {
        return """
                package demo;
                import java.util.*;
                import java.util.function.*;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static int g(@NoAlias int[] a) {
                        kept = a;
                        return 0;
                    }
                    static void f(@NoAlias int[] a, Object k) {
                        a[0] = 99;
                    }
                    static int[] box(@NoAlias int[] a) {
                        return a;
                    }
                    static int apply(IntSupplier s) {
                        return s.getAsInt();
                    }
                    static class Holder {
                        int[] data;
                        int v;
                        Holder(@NoAlias int[] a, int k) {
                            data = a;
                        }
                    }
                    void run(int k, Holder h) {
                        @NoAlias int[] x = new int[3];
                %s
                    }
                }
                """.formatted(statements);
    }

    private static final String[] MOVED_BY_G = msg("@NoAlias 'x' is used after its value was moved into a call of 'g'",
            "before the call of 'f' takes it");

    // ------------------------------------------------------------------ a later argument moves it

    @Test
    void aLaterArgumentThatMovesTheValueBeforeTheCallTakesIt() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(x, g(x));
                """));
    }

    @Test
    void theMoveInsideATernaryOfALaterArgument() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(x, k > 0 ? g(x) : 0);
                """));
    }

    @Test
    void theReadInsideATernaryOfAnEarlierArgument() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(k > 0 ? x : new int[1], g(x));
                """));
    }

    @Test
    void aLambdaArgumentThatCapturesTheValue() {
        assertRejected("SJ041", 29, msg("@NoAlias 'x' is used after its value was moved into a lambda",
                "before the call of 'f' takes it"), run("""
                        f(x, apply(() -> x.length));
                """));
    }

    @Test
    void theMoveInsideAnArrayInitializerOfALaterArgument() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(x, new int[] {1, g(x)});
                """));
    }

    @Test
    void theMoveInsideAStringConcatenationOfALaterArgument() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(x, "n=" + g(x));
                """));
    }

    @Test
    void theMoveInsideAMethodChainOfALaterArgument() {
        assertRejected("SJ041", 29, msg("moved into a call of 'box'", "before the call of 'f' takes it"), run("""
                        f(x, box(x).clone().length);
                """));
    }

    @Test
    void theMoveInsideASwitchExpressionOfALaterArgument() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(x, switch (k) {
                            case 1 -> g(x);
                            default -> 0;
                        });
                """));
    }

    @Test
    void theValueReadThroughRequireNonNullIsTakenByTheOuterCall() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(Objects.requireNonNull(x), g(x));
                """));
    }

    @Test
    void aLaterArgumentOfAConstructorCall() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before the constructor call takes it"), run("""
                        h = new Holder(x, g(x));
                """));
    }

    @Test
    void theInnerCallIsNestedTwoLevelsDeep() {
        assertRejected("SJ041", 29, MOVED_BY_G, run("""
                        f(x, List.of(Math.max(1, g(x))));
                """));
    }

    // ------------------------------------------------------------------ a receiver or assignment target held

    @Test
    void theReceiverOfACallWhoseArgumentMovesIt() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before the call of 'equals' runs on it"),
                run("""
                        boolean same = x.equals(g(x));
                """));
    }

    @Test
    void theReceiverChosenByAConditional() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before the call of 'equals' runs on it"),
                run("""
                        boolean same = (k > 0 ? x : new int[0]).equals(g(x));
                """));
    }

    @Test
    void theArrayOfAnAssignmentWhoseRightHandSideMovesIt() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this assignment stores into it"), run("""
                        x[0] = g(x);
                """));
    }

    /** adv13 A11: Objects.requireNonNull(x) and a switch expression's arm are x's value too. */
    @Test
    void theArrayOfAnAssignmentSeenThroughRequireNonNullOrASwitchArm() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this assignment stores into it"), run("""
                        Objects.requireNonNull(x)[0] = g(x);
                """));
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this assignment stores into it"), run("""
                        Objects.requireNonNullElse(x, new int[1])[1] += g(x);
                """));
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this assignment stores into it"), run("""
                        (switch (k) { case 1 -> new int[2]; default -> { yield x; } })[0] = g(x);
                """));
        assertAccepted(run("""
                        Objects.requireNonNull(x)[0] = x.length;
                        (switch (k) { default -> x; })[1] = 2;
                """));
    }

    @Test
    void theArrayOfACompoundAssignmentWhoseRightHandSideMovesIt() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this assignment stores into it"), run("""
                        x[1] += g(x);
                """));
    }

    @Test
    void theArrayOfAnAccessWhoseIndexMovesIt() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this array access uses it"), run("""
                        x[g(x)] = 5;
                """));
    }

    @Test
    void theArrayOfAReadWhoseIndexMovesIt() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g'", "before this array access uses it"), run("""
                        int v = x[g(x)];
                """));
    }

    @Test
    void theObjectOfAFieldAssignmentWhoseRightHandSideMovesIt() {
        assertRejected("SJ041", 12, msg("moved into a call of 'take'", "before this assignment stores into it"), """
                package demo;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    int v;
                    static int take(@NoAlias Own a) {
                        kept = a;
                        return 0;
                    }
                    static void run() {
                        @NoAlias Own p = new Own();
                        p.v = take(p);
                    }
                }
                """);
    }

    // ------------------------------------------------------------------ reads before the call stay legal

    @Test
    void readsThatEndBeforeTheMoveAreLegal() {
        assertAccepted(run("""
                        f(x, x.length);
                        x = new int[2];
                        f(Objects.requireNonNull(x), x[0] + x.length);
                        x = new int[2];
                        x[0] = x.length;
                        x[x[1]] = g(new int[1]);
                        int v = x[0] + g(new int[1]);
                        x[1] += x[0];
                        boolean same = x.equals(new int[1]);
                        f(x, apply(() -> 1));
                """));
    }

    /** The receiver given as an argument too is one value taken by one call, as in {@code f(x)}. */
    @Test
    void theReceiverGivenToItsOwnCallIsTakenOnce() {
        assertAccepted(run("""
                        boolean same = x.equals(x);
                """));
    }

    /** The same value twice to one call stays SJ041 (the existing rule). */
    @Test
    void theSameValueGivenTwiceToOneCallStaysRejected() {
        assertRejected("SJ041", 29, msg("@NoAlias 'x' is used after its value was moved into a call of 'f'"), run("""
                        f(x, x);
                """));
    }

    // Issue 12 (adversarial pass 12): an array a JDK method borrows (reads or writes, keeps nothing) is
    // used by the call after all its arguments are evaluated too.

    @Test
    void aBorrowedArrayMovedByALaterArgument() {
        assertRejected("SJ041", 29, msg("moved into a call of 'g' on line 29",
                "a later argument, evaluated before 'arraycopy' reads or writes the array given here"), run("""
                        System.arraycopy(new int[1], 0, x, 0, g(x));
                """));
    }

    @Test
    void aBorrowedArrayCapturedByALaterLambda() {
        assertRejected("SJ041", 29, msg("moved into a lambda on line 29", "before 'setAll' reads or writes"), run("""
                        Arrays.setAll(x, i -> { kept = x; return i; });
                """));
    }

    @Test
    void aBorrowedArrayAlsoGivenToKeep() {
        assertRejected("SJ041", 30, msg("moved into 'fill' on line 30, which also reads or writes it as an array",
                "one call cannot both borrow a value and keep it"), run("""
                        @NoAlias Object[] all = new Object[2];
                        Arrays.fill(all, all);
                """));
    }

    @Test
    void borrowingTwiceOrWithUnrelatedArgumentsIsLegal() {
        assertAccepted(run("""
                        System.arraycopy(x, 0, x, 1, 2);
                        Arrays.fill(x, x.length);
                        boolean same = Arrays.equals(x, x);
                        Arrays.setAll(x, i -> i);
                        Object[] all = new Object[2];
                        Arrays.fill(all, new int[1]);
                        g(x);
                """));
    }
}
