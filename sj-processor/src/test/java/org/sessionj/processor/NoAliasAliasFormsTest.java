package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** Issue 12, class 6: aliases of {@code @NoAlias} values made by less common constructs, and overrides. */
class NoAliasAliasFormsTest {
    private static String run(String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Own {
                    static void keep(int[] a) {
                    }
                    void run(int k, List<int[]> all) {
                        @NoAlias int[] x = new int[3];
                %s
                    }
                }
                """.formatted(statements);
    }

    /** The value of an assignment is the value stored: using it copies the variable (adv8 finding 6). */
    @Test
    void theValueOfAnAssignmentToANoAliasLocalMovesIt() {
        assertRejected("SJ041", 10, msg("@NoAlias 'x' is used after its value was moved into 'shared'"), run("""
                        int[] shared = x = new int[1];
                        x[0] = 5;
                """));
    }

    @Test
    void anAssignmentToANoAliasLocalGivenAsAnArgumentMovesIt() {
        assertRejected("SJ041", 10, msg("moved into a call of 'keep'"), run("""
                        keep(x = new int[2]);
                        x[0] = 5;
                """));
    }

    @Test
    void anAssignmentToANoAliasLocalStoredInAFieldMovesIt() {
        assertRejected("SJ041", 11, msg("moved into 'o'"), run("""
                        Object o;
                        o = (x = new int[2]);
                        x[0] = 5;
                """));
    }

    @Test
    void anAssignmentToANoAliasFieldOfAnotherObjectUsedAsAValueIsRejected() {
        assertRejected("SJ043", 6, msg("@NoAlias field 'f' can only be read through"), """
                package demo;
                import org.sessionj.api.*;
                class Box {
                    @NoAlias int[] f;
                    static Object leak(Box other) {
                        return other.f = new int[1];
                    }
                }
                """);
    }

    /** Compared, not copied: (x = next()) != null reads the value. */
    @Test
    void anAssignmentToANoAliasLocalThatIsOnlyComparedKeepsIt() {
        assertAccepted(run("""
                        if ((x = new int[2]) != null) {
                            x[0] = 5;
                        }
                        x = new int[1];
                        x[0] = 1;
                """));
    }

    @Test
    void switchExpressionArmAliases() {
        assertRejected("SJ041", 10, msg("@NoAlias 'x' is used after its value was moved into 'y'"), run("""
                        int[] y = switch (k) { default -> x; };
                        x[0] = 1;
                """));
    }

    @Test
    void yieldOfASwitchExpressionAliases() {
        assertRejected("SJ041", 10, msg("@NoAlias 'x' is used after its value was moved into 'y'"), run("""
                        int[] y = switch (k) { case 1 -> new int[1]; default -> { yield x; } };
                        x[0] = 1;
                """));
    }

    @Test
    void instanceofBindingAliases() {
        assertRejected("SJ041", 11, msg("moved into a pattern variable"), run("""
                        Object o = new Object();
                        if (x instanceof int[] y) {
                            x[0] = y.length;
                        }
                """));
    }

    @Test
    void boundMethodReferenceCapturesTheValue() {
        assertRejected("SJ041", 10, msg("moved into a bound method reference"), run("""
                        java.util.function.Supplier<Object> copy = x::clone;
                        x[0] = 1;
                """));
    }

    @Test
    void noAliasForEachVariable() {
        assertRejected("SJ040", 9, msg("@NoAlias 'e' may only hold a unique value", "an element of all"), run("""
                        for (@NoAlias int[] e : all) {
                            keep(e);
                        }
                """));
    }

    @Test
    void readingInsideTheArmsIsFine() {
        assertAccepted(run("""
                        int n = switch (k) { default -> x.length; };
                        if (x instanceof int[]) {
                            x[0] = n;
                        }
                """));
    }

    @Test
    void overrideReturningASharedValue() {
        assertRejected("SJ045", 12, msg("'fresh' overrides the method of Source", "its result is not @NoAlias"), """
                package demo;
                import org.sessionj.api.*;
                class Source {
                    @NoAlias int[] fresh() {
                        return new int[4];
                    }
                }
                class Cached extends Source {
                    private final int[] cache = new int[4];

                    @Override
                    int[] fresh() {
                        return cache;
                    }
                }
                """);
    }

    @Test
    void overrideThatStartsOwningItsParameter() {
        assertRejected("SJ045", 8, msg("its parameter 'a' is @NoAlias where the overridden method takes shared"), """
                package demo;
                import org.sessionj.api.*;
                interface Sink {
                    void take(int[] a);
                }
                class Owning implements Sink {
                    @Override
                    public void take(@NoAlias int[] a) {
                    }
                }
                """);
    }

    @Test
    void overrideThatDropsNoAliasFromAParameterIsFine() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                interface Sink {
                    void take(@NoAlias int[] a);
                }
                class Sharing implements Sink {
                    @Override
                    public void take(int[] a) {
                    }
                }
                """);
    }
}
