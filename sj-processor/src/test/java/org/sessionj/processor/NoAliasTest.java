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

    @Test
    void noAliasFieldCannotBeCopiedOut() {
        assertRejected("SJ043", 5, msg("@NoAlias field 'grid' can only be read through"), """
                package demo;
                class Holder {
                    @org.sessionj.api.NoAlias double[] grid = new double[4];
                    double[] copy() {
                        double[] g = grid;
                        return g;
                    }
                    void update() { grid[0] = 1; grid = new double[8]; }
                }
                """);
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
