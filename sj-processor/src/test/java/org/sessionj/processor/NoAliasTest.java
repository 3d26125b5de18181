package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** @NoAlias unique ownership with move semantics (issue 4). */
class NoAliasTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Ghosts {
                @Protocol("cbegin.![!<double[]>.?(double[])]*") interface Exchange {}
            }
            """;

    private static String program(String members, String statements) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Owner {
                %s
                    void run(boolean c, int n) {
                        try (SJSocket s = SJService.create(Ghosts.Exchange.class, "h", 1).request()) {
                            @NoAlias double[] x = new double[n];
                %s
                        }
                    }
                    static void consume(double[] values) { }
                    static double[] shared() { return null; }
                }
                """.formatted(members, statements);
    }

    private static final String EXCHANGE = """
                            while (s.outwhile(n-- > 0)) {
                                s.pass(x);
                                x = s.receive();
                            }
            """;

    @Test
    void exchangeLoopWithReadsThroughAndMovesBetweenNoAliasVariables() {
        assertAccepted(PROTOCOLS, program("""
                    @NoAlias static double[] fresh(int n) { return new double[n]; }
                """, """
                            x[0] = x.length;
                            @NoAlias double[] prev = x;
                            x = fresh(n);
                            while (s.outwhile(n-- > 0)) {
                                double sum = 0;
                                for (double v : prev) sum += v;
                                s.pass(prev);
                                prev = x;
                                x = s.receive();
                                x[0] = sum;
                            }
                """));
    }

    @Test
    void useAfterPass() {
        assertRejected("SJ041", 10, msg("@NoAlias 'x' is used after its value was moved into a call of 'pass' on "
                + "line 9"), program("", """
                            while (s.outwhile(n-- > 0)) {
                                s.pass(x);
                                x[0] = 1;
                                x = s.receive();
                            }
                """), PROTOCOLS);
    }

    @Test
    void aliasingByAssignmentMovesTheValue() {
        assertRejected("SJ041", 9, msg("@NoAlias 'x' is used after its value was moved into 'y' on line 8"),
                program("", """
                            double[] y = x;
                            x[0] = 1;
                """ + EXCHANGE), PROTOCOLS);
    }

    @Test
    void aliasingThroughAMethodReturn() {
        assertRejected("SJ040", 8, msg("@NoAlias 'y' may only hold a unique value", "found 'shared()'"),
                program("", """
                            @NoAlias double[] y = shared();
                """ + EXCHANGE), PROTOCOLS);
    }

    @Test
    void noAliasMethodMustReturnAUniqueValue() {
        assertRejected("SJ040", 4, msg("@NoAlias 'leak()'s result' may only hold a unique value", "found 'cache'"), """
                package demo;
                class Leaky {
                    double[] cache = new double[4];
                    @org.sessionj.api.NoAlias double[] leak() { return cache; }
                }
                """);
    }

    /** A @NoAlias field's initializer must give it a unique value, as a local's does (adv8 finding 7). */
    @Test
    void aNoAliasFieldInitializedWithASharedArrayIsRejected() {
        assertRejected("SJ040", 5, msg("@NoAlias 'f' may only hold a unique value", "found 'SHARED'"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    static final int[] SHARED = new int[4];
                    @NoAlias int[] f = SHARED;
                }
                """);
    }

    @Test
    void aStaticNoAliasFieldInitializedWithASharedArrayIsRejected() {
        assertRejected("SJ040", 5, msg("@NoAlias 'f' may only hold a unique value"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    static final int[] SHARED = new int[4];
                    static @NoAlias int[] f = SHARED;
                }
                """);
    }

    @Test
    void aNoAliasFieldInitializedWithThisIsRejected() {
        assertRejected("SJ040", 4, msg("@NoAlias 'me' may only hold a unique value", "found 'this'"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    @NoAlias Holder me = this;
                }
                """);
    }

    @Test
    void noAliasFieldsInitializedWithUniqueValuesCompile() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    @NoAlias int[] a = new int[4];
                    @NoAlias int[] b = null;
                    @NoAlias int[] c = fresh();
                    static @NoAlias int[] d = new int[2];
                    @NoAlias int[] e;
                    static @NoAlias int[] fresh() { return new int[1]; }
                }
                """);
    }

    private static String worker(String members, String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    @NoAlias double[] ghost = new double[4];
                %s
                    void run(int n) {
                        try (SJSocket s = SJService.create(Ghosts.Exchange.class, "h", 1).request()) {
                %s
                        }
                    }
                    void log() { }
                }
                """.formatted(members, body);
    }

    @Test
    void noAliasFieldMovedOutAndRefilledInItsOwnMethod() {
        assertAccepted(PROTOCOLS, worker("""
                    @NoAlias double[] swap(@NoAlias double[] next) {
                        @NoAlias double[] old = this.ghost;
                        this.ghost = next;
                        return old;
                    }
                """, """
                            while (s.outwhile(n-- > 0)) {
                                ghost[0] = n;
                                @NoAlias double[] next = null;
                                try {
                                    s.pass(this.ghost);
                                    next = s.receive();
                                } finally {
                                    this.ghost = next;
                                }
                                log();
                            }
                """));
    }

    @Test
    void noAliasFieldUsedAfterItWasMovedOut() {
        assertRejected("SJ041", 12, msg("@NoAlias 'ghost' is used after its value was moved into a call of 'pass' "
                + "on line 11"), worker("", """
                            while (s.outwhile(n-- > 0)) {
                                @NoAlias double[] next = null;
                                try {
                                    s.pass(ghost);
                                    ghost[0] = 1;
                                    next = s.receive();
                                } finally {
                                    ghost = next;
                                }
                            }
                """), PROTOCOLS);
    }

    @Test
    void noAliasFieldNotRefilledBeforeACall() {
        assertRejected("SJ044", 12, msg("@NoAlias field 'ghost' was moved out into a call of 'pass' on line 11 "
                + "and must be assigned a new value before the call of 'log' (which may read it)"), worker("", """
                            while (s.outwhile(n-- > 0)) {
                                @NoAlias double[] next = null;
                                try {
                                    s.pass(ghost);
                                    log();
                                    next = s.receive();
                                } finally {
                                    ghost = next;
                                }
                            }
                """), PROTOCOLS);
    }

    @Test
    void noAliasFieldNotRefilledBeforeAReturn() {
        assertRejected("SJ044", 7, msg("@NoAlias field 'grid' was moved out into 'g' on line 6 and must be assigned "
                + "a new value at this return"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    @NoAlias double[] grid = new double[4];
                    double[] copy() {
                        double[] g = grid;
                        return g;
                    }
                }
                """);
    }

    @Test
    void noAliasFieldMovedOnOnePathIsNotRefilledAtTheEnd() {
        assertRejected("SJ044", 5, msg("@NoAlias field 'grid' was moved out into 'g' on line 7 and must be "
                + "assigned a new value at the end of method 'drop'"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    @NoAlias static double[] grid = new double[4];
                    static void drop(boolean c) {
                        if (c) {
                            double[] g = grid;
                        }
                    }
                }
                """);
    }

    @Test
    void noAliasFieldOfAnotherObjectCannotBeCopiedOut() {
        assertRejected("SJ043", 6, msg("@NoAlias field 'grid' can only be read through"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    @NoAlias double[] grid = new double[4];
                    void take(Holder other) {
                        double[] g = other.grid;
                        grid[0] = other.grid[0] + other.grid.length;
                        other.grid = new double[8];
                    }
                }
                """);
    }

    @Test
    void noAliasFieldInALambdaCanOnlyBeReadThrough() {
        assertRejected("SJ043", 5, msg("@NoAlias field 'grid' can only be read through"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Holder {
                    @NoAlias double[] grid = new double[4];
                    Runnable reader() { return () -> System.out.println(grid.length + java.util.Arrays.toString(grid)); }
                }
                """);
    }

    @Test
    void elementsOfANoAliasArrayAreNotOwned() {
        assertRejected("SJ042", 10, msg("session 's': pass() hands over ownership", "found 'rows[0]'"),
                program("", """
                            while (s.outwhile(n-- > 0)) {
                                @NoAlias double[][] rows = new double[2][4]; // (a row given away moves rows: NoAliasElementsTest)
                                s.pass(rows[0]);
                                x = s.receive();
                            }
                """), PROTOCOLS);
    }

    @Test
    void anElementOfANoAliasArrayIsNotAUniqueValue() {
        assertRejected("SJ040", 9, msg("@NoAlias 'row' may only hold a unique value", "found 'rows[0]'"),
                program("", """
                            @NoAlias double[][] rows = new double[2][4];
                            @NoAlias double[] row = rows[0];
                """ + EXCHANGE), PROTOCOLS);
    }

    @Test
    void storingIntoAnArrayMovesTheValue() {
        assertRejected("SJ041", 9, msg("@NoAlias 'x' is used after its value was moved into an array on line 8"),
                program("", """
                            double[][] rows = {x};
                            x[0] = rows.length;
                """ + EXCHANGE), PROTOCOLS);
    }

    private static String jumps(String body) {
        return """
                package demo;
                import org.sessionj.api.NoAlias;
                class Jumps {
                    static void consume(@NoAlias double[] values) { }
                    void run(boolean c, int n) {
                        @NoAlias double[] x = new double[n];
                %s
                    }
                }
                """.formatted(body);
    }

    @Test
    void movedBeforeABreakIsMovedAfterTheLoop() {
        assertRejected("SJ041", 14, msg("@NoAlias 'x' is used after its value was moved into a call of 'consume' on "
                + "line 9"), jumps("""
                        for (int i = 0; i < n; i++) {
                            if (c) {
                                consume(x);
                                break;
                            }
                            x[0] = i;
                        }
                        x[0] = 1;
                """));
    }

    @Test
    void movedBeforeAContinueIsMovedInTheNextIteration() {
        assertRejected("SJ041", 8, msg("@NoAlias 'x' is used after its value was moved into a call of 'consume' on "
                + "line 10 (in an earlier iteration)"), jumps("""
                        for (int i = 0; i < n; i++) {
                            x[0] = i;
                            if (c) {
                                consume(x);
                                continue;
                            }
                            x[1] = i;
                        }
                """));
    }

    @Test
    void earlyReturnsAndReassignmentAfterAMoveAreAccepted() {
        assertAccepted(jumps("""
                        if (c) {
                            consume(x);
                            return;
                        }
                        x[0] = 1;
                        while (n-- > 0) {
                            consume(x);
                            if (c) {
                                x = new double[1];
                                continue;
                            }
                            x = new double[2];
                        }
                        x[0] = 2;
                        try {
                            consume(x);
                            x = new double[3];
                        } finally {
                            System.out.println("done");
                        }
                        x[0] = 3;
                """));
    }

    @Test
    void movedInATryBlockIsMaybeMovedInItsFinallyBlock() {
        assertRejected("SJ041", 11, msg("@NoAlias 'x' is used after its value was moved in the try block starting on "
                + "line 7 (an exception may follow the move)"), jumps("""
                        try {
                            consume(x);
                            x = new double[1];
                        } finally {
                            x[0] = 1;
                        }
                """));
    }

    @Test
    void movedInALoopWithoutReassignment() {
        assertRejected("SJ041", 9, msg("@NoAlias 'x' is used after its value was moved into a call of 'pass' on "
                + "line 9 (in an earlier iteration)"), program("", """
                            while (s.outwhile(n-- > 0)) {
                                s.pass(x);
                                double[] back = s.receive();
                            }
                """), PROTOCOLS);
    }

    @Test
    void movedInOneBranchAndUsedAfterTheJoin() {
        assertRejected("SJ041", 11, msg("@NoAlias 'x' is used after its value was moved into a call of 'consume' on "
                + "line 9"), program("", """
                            if (c) {
                                consume(x);
                            }
                            x[0] = 1;
                """ + EXCHANGE), PROTOCOLS);
    }

    @Test
    void capturedByALambda() {
        assertRejected("SJ041", 10, msg("@NoAlias 'y' is used after its value was moved into a lambda on line 9"),
                program("", """
                            @NoAlias double[] y = new double[1];
                            Runnable r = () -> System.out.println(y.length);
                            y[0] = 1;
                """ + EXCHANGE), PROTOCOLS);
    }

    @Test
    void passOfAValueThatIsNotNoAlias() {
        assertRejected("SJ042", 10, msg("session 's': pass() hands over ownership", "found 'y'"), program("", """
                            double[] y = new double[1];
                            while (s.outwhile(n-- > 0)) {
                                s.pass(y);
                                x = s.receive();
                            }
                """), PROTOCOLS);
    }

    @Test
    void jacobiGhostPointUsedAfterPass() {
        assertRejected("SJ041", 29, msg("@NoAlias 'ghost1' is used after its value was moved into a call of 'pass'"),
                PaperProgramsTest.mutant("JacobiFig5",
                        "                mw2.pass(ghost2);                               //     similarly for mw2 (elided in the paper)",
                        "                mw2.pass(ghost2); ghost1[0] = 0;"));
    }

    @Test
    void nBodyCurrentUsedAfterForwarding() {
        assertRejected("SJ041", 42, msg("@NoAlias 'current' is used after its value was moved into a call of 'pass'"),
                PaperProgramsTest.mutant("NBodyWorker",
                        "                        s_r.pass(current);                     // (ii) Forward the current data set (current becomes dead).",
                        "                        s_r.pass(current); current[0] = null;"));
    }

    @Test
    void movedInATryBlockIsMovedInItsCatchBlocks() {
        assertRejected("SJ041", 12, msg("@NoAlias 'x' is used after its value was moved in the try block starting on "
                + "line 8"), program("", """
                            try {
                                consume(x);
                                x = new double[1];
                            } catch (RuntimeException e) {
                                x[0] = 1;
                            }
                """ + EXCHANGE), PROTOCOLS);
    }

    @Test
    void noAliasParameterNeedsAUniqueArgument() {
        assertRejected("SJ040", 7, msg("@NoAlias 'values' may only hold a unique value", "found 'shared'"), """
                package demo;
                import org.sessionj.api.NoAlias;
                class Calls {
                    static void keep(@NoAlias double[] values) { values[0] = 1; }
                    void run(double[] shared) {
                        keep(new double[2]);
                        keep(shared);
                    }
                }
                """);
    }
}
