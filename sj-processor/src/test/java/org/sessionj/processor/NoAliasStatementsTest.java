package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 6 (adversarial pass 11, construct by construct over JLS chapters 14 and 15): a case
 * guard that moves a {@code @NoAlias} value and is false hands the value's absence on to the cases
 * tried after it; a variable-arity call gives a {@code @NoAlias} varargs parameter a new array; an
 * enhanced for loop keeps the value it iterates over until it ends.
 */
class NoAliasStatementsTest {
    /** {@code statements} in a method with a {@code @NoAlias int[] x} (line 17 is the first statement). */
    private static String run(String statements) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static int g(@NoAlias int[] a) {
                        kept = a;
                        return 0;
                    }
                    static void va(@NoAlias int[]... arrays) {
                        kept = arrays;
                    }
                    static void keep(Object o) {
                        kept = o;
                    }
                    void run(Object o, int[] shared) {
                        @NoAlias int[] x = new int[3];
                %s
                    }
                }
                """.formatted(statements);
    }

    // ------------------------------------------------------------------ case guards

    @Test
    void aGuardThatMovedTheValueIsFollowedByTheNextCasesGuard() {
        assertRejected("SJ041", 19, msg("@NoAlias 'x' is used after its value was moved into a call of 'g' on line 18"),
                run("""
                        switch (o) {
                            case String s when g(x) > 0 -> { }
                            case String s when g(x) > 1 -> { }
                            default -> { }
                        }
                """));
    }

    @Test
    void aGuardThatMovedTheValueIsFollowedByTheDefault() {
        assertRejected("SJ041", 19, msg("moved into a call of 'g' on line 18"), run("""
                        switch (o) {
                            case String s when g(x) > 0 -> { }
                            default -> x[0] = 1;
                        }
                """));
    }

    @Test
    void aGuardOfASwitchExpressionIsFollowedByTheNextCase() {
        assertRejected("SJ041", 19, msg("moved into a call of 'g' on line 18"), run("""
                        int n = switch (o) {
                            case String s when g(x) > 0 -> 1;
                            case Integer i -> x[0];
                            default -> 0;
                        };
                """));
    }

    @Test
    void aGuardOfAnOldStyleCaseIsFollowedByTheNextCase() {
        assertRejected("SJ041", 21, msg("moved into a call of 'g' on line 18"), run("""
                        switch (o) {
                            case String s when g(x) > 0:
                                break;
                            case Integer i:
                                x[0] = i;
                                break;
                            default:
                        }
                """));
    }

    /** The case's own body runs after its guard was true: the move is seen there already. */
    @Test
    void theBodyOfTheGuardedCaseSeesTheMove() {
        assertRejected("SJ041", 18, msg("moved into a call of 'g' on line 18"), run("""
                        switch (o) {
                            case String s when g(x) > 0 -> x[0] = 1;
                            default -> { }
                        }
                """));
    }

    /** A guard can name only effectively final locals, so a local it moves is gone for good; reads are fine. */
    @Test
    void guardsThatOnlyReadAreLegal() {
        assertAccepted(run("""
                        switch (o) {
                            case String s when x.length > s.length() -> x[0] = 1;
                            case Integer i when x[0] == i -> x[1] = i;
                            default -> x[2] = 1;
                        }
                        g(x);
                """));
    }

    // ------------------------------------------------------------------ variable-arity calls

    /** The call creates the array the parameter owns; its elements are shared, as in {@code new int[][] {shared}}. */
    @Test
    void aVariableArityCallGivesTheParameterANewArray() {
        assertAccepted(run("""
                        va(shared);
                        va(shared, new int[1]);
                        va();
                """));
    }

    @Test
    void anArrayGivenAsTheVarargsArrayItselfMustBeUnique() {
        assertRejected("SJ040", 17, msg("@NoAlias 'arrays' may only hold a unique value", "found 'grid'"), run("""
                        int[][] grid = {shared}; va(grid);
                """));
    }

    @Test
    void aNoAliasValueInAVariableArityCallIsMovedIntoTheArray() {
        assertRejected("SJ041", 18, msg("@NoAlias 'x' is used after its value was moved into a call of 'va'"), run("""
                        va(x, shared);
                        x[0] = 1;
                """));
    }

    // ------------------------------------------------------------------ enhanced for over a @NoAlias value

    /** javac iterates over its own copy of the reference: after the move it reads an array g kept. */
    @Test
    void aMovedArrayReassignedInsideTheLoopOverIt() {
        assertRejected("SJ041", 17, msg("@NoAlias 'x' is used after its value was moved into a call of 'g' on line 19",
                "the enhanced for loop on line 17 reads its next element from the value it started with"), run("""
                        for (int v : x) {
                            if (v == 0) {
                                g(x);
                                x = new int[1];
                            }
                        }
                """));
    }

    /** adv13 A11: the loop over Objects.requireNonNull(x) or a switch arm yielding x iterates x's value too. */
    @Test
    void aMovedArrayReassignedInsideALoopOverRequireNonNullOrASwitchArm() {
        assertRejected("SJ041", 17, msg("moved into a call of 'g' on line 19", "the enhanced for loop on line 17"),
                run("""
                        for (int v : java.util.Objects.requireNonNull(x)) {
                            if (v == 0) {
                                g(x);
                                x = new int[1];
                            }
                        }
                """));
        assertRejected("SJ041", 17, msg("moved into a call of 'g' on line 19", "the enhanced for loop on line 17"),
                run("""
                        for (int v : switch (x.length) { case 0 -> new int[2]; default -> x; }) {
                            if (v == 0) {
                                g(x);
                                x = new int[1];
                            }
                        }
                """));
    }

    @Test
    void aMovedIterableReassignedInsideTheLoopOverIt() {
        assertRejected("SJ041", 18, msg("moved into a call of 'keep' on line 19", "the enhanced for loop on line 18"),
                run("""
                        @NoAlias java.util.List<Integer> xs = new java.util.ArrayList<>();
                        for (int v : xs) {
                            keep(xs);
                            xs = new java.util.ArrayList<>();
                        }
                """));
    }

    @Test
    void leavingTheLoopAfterTheMoveOrReplacingAValueNotMovedIsLegal() {
        assertAccepted(run("""
                        for (int v : x) {
                            if (v == 0) {
                                g(x);
                                break;
                            }
                        }
                        x = new int[1];
                        for (int v : x) {
                            x = new int[v + 1];
                        }
                """));
    }

    // Issue 12: the value the loop reads is tracked on its own (IteratedValues), so only a path that goes
    // round with it moved is rejected.

    @Test
    void movingReassigningAndLeavingTheLoopIsLegal() {
        assertAccepted(run("""
                        for (int v : x) {
                            if (v == 0) {
                                g(x);
                                x = new int[1];
                                return;
                            }
                        }
                """));
    }

    @Test
    void movingAValueAssignedInsideTheLoopIsLegal() {
        assertAccepted(run("""
                        for (int v : x) {
                            x = new int[v + 1];
                            g(x);
                        }
                """));
    }

    @Test
    void movingReassigningAndBreakingIsLegal() {
        assertAccepted(run("""
                        for (int v : x) {
                            if (v == 0) {
                                g(x);
                                x = new int[1];
                                break;
                            }
                        }
                        g(x);
                """));
    }

    @Test
    void movingReassigningAndContinuingGoesRound() {
        assertRejected("SJ041", 17, msg("moved into a call of 'g' on line 19", "the enhanced for loop on line 17"),
                run("""
                        for (int v : x) {
                            if (v == 0) {
                                g(x);
                                x = new int[1];
                                continue;
                            }
                        }
                """));
    }

    /** Reassigned on one path only: on the other the variable still is the loop's value when it moves. */
    @Test
    void reassignedOnSomePathsBeforeTheMoveGoesRound() {
        assertRejected("SJ041", 17, msg("moved into a call of 'g' on line 21", "the enhanced for loop on line 17"),
                run("""
                        for (int v : x) {
                            if (v == 0) {
                                x = new int[1];
                            }
                            g(x);
                            x = new int[2];
                        }
                """));
    }

    /** A catch block may follow the move: the value the loop reads may be gone there too. */
    @Test
    void aMoveInATryBlockReassignedInTheCatchGoesRound() {
        assertRejected("SJ041", 17, msg("the enhanced for loop on line 17"), run("""
                        for (int v : x) {
                            try {
                                g(x);
                                x = new int[1];
                            } catch (RuntimeException e) {
                                x = new int[2];
                            }
                        }
                """));
    }

    @Test
    void anInnerLoopOverTheSameValueIsTrackedOnItsOwn() {
        assertAccepted(run("""
                        for (int v : x) {
                            for (int w : x) {
                                x[0] = w;
                            }
                            g(x);
                            x = new int[1];
                            return;
                        }
                """));
        assertRejected("SJ041", 18, msg("the enhanced for loop on line 18"), run("""
                        for (int v : x) {
                            for (int w : x) {
                                g(x);
                                x = new int[1];
                            }
                            break;
                        }
                """));
    }

    @Test
    void eitherValueOfAConditionalIsTracked() {
        assertRejected("SJ041", 18, msg("moved into a call of 'g' on line 19", "the enhanced for loop on line 18"), run("""
                        @NoAlias int[] y = new int[2];
                        for (int v : o != null ? x : y) {
                            g(y);
                            y = new int[1];
                        }
                """));
    }
}
