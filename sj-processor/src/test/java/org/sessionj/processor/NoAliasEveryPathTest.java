package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 6: {@code @NoAlias} moves seen on every path — finally blocks run by jumps, record
 * components, aliases of {@code this}, implicit calls of user code, and lambdas or method references
 * implementing {@code @NoAlias} methods. Each rejected program has a corrected twin that compiles.
 */
class NoAliasEveryPathTest {
    private static String body(String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Own {
                    static void keep(int[] a) {
                    }
                    void run(boolean c, List<String> names) {
                        @NoAlias int[] x = new int[3];
                %s
                    }
                }
                """.formatted(statements);
    }

    // ------------------------------------------------------------------ finally on jump paths

    @Test
    void finallyMovesOnTheBreakPath() {
        assertRejected("SJ041", 17, msg("@NoAlias 'x' is used after its value was moved into a call of 'keep' on line 13"),
                body("""
                        while (true) {
                            try {
                                if (c) break;
                            } finally {
                                keep(x);
                            }
                            x = new int[3];
                        }
                        x[0] = 1;
                """));
    }

    @Test
    void finallyThatRefillsOnTheBreakPathIsFine() {
        assertAccepted(body("""
                        while (true) {
                            try {
                                keep(x);
                                if (c) break;
                            } finally {
                                x = new int[3];
                            }
                        }
                        x[0] = 1;
                """));
    }

    @Test
    void finallyMovesOnTheContinuePath() {
        assertRejected("SJ041", 10, msg("moved into a call of 'keep' on line 14 (in an earlier iteration)"), body("""
                        for (int i = 0; i < 3; i++) {
                            x[0] = i;
                            try {
                                if (c) continue;
                            } finally {
                                if (c) keep(x);
                            }
                            x = new int[3];
                        }
                """));
    }

    @Test
    void finallyMovesOnALabelledBreakOutOfTheTry() {
        assertRejected("SJ041", 17, msg("moved into a call of 'keep' on line 13"), body("""
                        out: {
                            try {
                                if (c) break out;
                            } finally {
                                keep(x);
                            }
                            x = new int[2];
                        }
                        x[0] = 1;
                """));
    }

    @Test
    void nestedFinallyBlocksRunInnermostFirstOnTheBreakPath() {
        assertRejected("SJ041", 21, msg("moved into a call of 'keep' on line 17"), body("""
                        while (true) {
                            try {
                                try {
                                    if (c) break;
                                } finally {
                                    x = new int[1];
                                }
                            } finally {
                                keep(x);
                            }
                            x = new int[3];
                        }
                        x[0] = 1;
                """));
    }

    @Test
    void finallyMovingAFieldBeforeTheReturnLeavesItEmpty() {
        assertRejected("SJ044", 8, msg("@NoAlias field 'ghost' was moved out into 'sink'", "at this return"), """
                package demo;
                import org.sessionj.api.*;
                class Holder {
                    @NoAlias int[] ghost = new int[4];
                    int[] sink;
                    int count() {
                        try {
                            return 1;
                        } finally {
                            sink = ghost;
                        }
                    }
                }
                """);
    }

    @Test
    void finallyRefillingAFieldMovedByTheReturnIsFine() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Holder {
                    @NoAlias int[] ghost = new int[4];
                    @NoAlias int[] take() {
                        try {
                            return ghost;
                        } finally {
                            ghost = new int[4];
                        }
                    }
                }
                """);
    }

    @Test
    void aMoveInAFinallyRunByAReturnIsNotSeenByTheCatchBlocks() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Holder {
                    int[] sink;
                    int run(boolean c) {
                        @NoAlias int[] x = new int[1];
                        try {
                            if (c) return 0;
                            x[0] = 2;
                        } catch (RuntimeException e) {
                            x[0] = 1;
                        } finally {
                            sink = x;
                        }
                        return 1;
                    }
                }
                """);
    }

    // ------------------------------------------------------------------ records

    @Test
    void recordComponentWithTheAccessorJavacWritesHandsOutTheField() {
        assertRejected("SJ043", 3, msg("record component 'data' would return the field itself"), """
                package demo;
                import org.sessionj.api.*;
                record Box(@NoAlias int[] data) {
                }
                """);
    }

    @Test
    void recordComponentWithAnAccessorReturningACopyIsFine() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                record Box(@NoAlias int[] data) {
                    public int[] data() {
                        return data.clone();
                    }
                }
                """);
    }

    @Test
    void explicitAccessorReturningTheFieldLeavesItMoved() {
        assertRejected("SJ044", 5, msg("@NoAlias field 'data' was moved out by a return"), """
                package demo;
                import org.sessionj.api.*;
                record Box(@NoAlias int[] data) {
                    public int[] data() {
                        return data;
                    }
                }
                """);
    }

    @Test
    void recordConstructorTakesOwnership() {
        assertRejected("SJ040", 7, msg("@NoAlias 'data' may only hold a unique value", "found 'shared'"), """
                package demo;
                import org.sessionj.api.*;
                record Box(@NoAlias int[] data) {
                    public int[] data() {
                        return data.clone();
                    }
                    static Box of(int[] shared) { return new Box(shared); }
                }
                """);
    }

    // ------------------------------------------------------------------ this and implicit calls

    private static String holder(String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Holder implements AutoCloseable {
                    @NoAlias int[] ghost = new int[4];
                    @Override public String toString() { return "holder of " + ghost.length; }
                    @Override public void close() { }
                    void run(Holder other, List<String> names, Object o) {
                %s
                    }
                    record Pair(int a, int b) {}
                }
                """.formatted(statements);
    }

    @Test
    void readingAMovedFieldThroughAnAliasOfThis() {
        assertRejected("SJ044", 11, msg("before it is read through 'self', which may be this object"), holder("""
                        Holder self = this;
                        @NoAlias int[] out = ghost;
                        int n = self.ghost.length;
                        ghost = new int[4];
                """));
    }

    @Test
    void readingTheFieldThroughAnotherReferenceAfterRefillingIsFine() {
        assertAccepted(holder("""
                        @NoAlias int[] out = ghost;
                        ghost = new int[4];
                        int n = other.ghost.length + this.ghost.length;
                """));
    }

    @Test
    void stringConcatenationCallsToStringOfAMovedFieldsOwner() {
        assertRejected("SJ044", 10, msg("before this string concatenation (which calls toString())"), holder("""
                        @NoAlias int[] out = ghost;
                        String m = "now " + this;
                        ghost = new int[4];
                """));
    }

    @Test
    void compoundStringConcatenationToo() {
        assertRejected("SJ044", 11, msg("before this string concatenation"), holder("""
                        String m = "now ";
                        @NoAlias int[] out = ghost;
                        m += o;
                        ghost = new int[4];
                """));
    }

    @Test
    void concatenatingStringsAndNumbersCallsNoUserCode() {
        assertAccepted(holder("""
                        Integer three = 3;
                        String m = null;
                        @NoAlias int[] out = ghost;
                        try { // out.length and out[0] may throw: the field is refilled on that path too
                            m = "now " + out.length + out[0] + 'c' + three + 2.5 + true;
                        } finally {
                            ghost = new int[4];
                        }
                        String n = m + this;
                """));
    }

    @Test
    void enhancedForOverAnIterableCallsItsIterator() {
        assertRejected("SJ044", 10, msg("before the loop asks its Iterable for the next element"), holder("""
                        @NoAlias int[] out = ghost;
                        for (String name : names) {
                        }
                        ghost = new int[4];
                """));
    }

    @Test
    void enhancedForWhoseBodyMovesTheFieldAsksForTheNextElementAfterIt() {
        assertRejected("SJ044", 9, msg("before the loop asks its Iterable"), holder("""
                        for (String name : names) {
                            @NoAlias int[] out = ghost;
                        }
                        ghost = new int[4];
                """));
    }

    @Test
    void enhancedForOverAnArrayCallsNoUserCode() {
        assertAccepted(holder("""
                        @NoAlias int[] out = ghost;
                        for (int v : out) {
                        }
                        ghost = new int[4];
                """));
    }

    @Test
    void recordPatternCallsTheAccessors() {
        assertRejected("SJ044", 10, msg("before this record pattern"), holder("""
                        @NoAlias int[] out = ghost;
                        if (o instanceof Pair(int a, int b)) {
                        }
                        ghost = new int[4];
                """));
    }

    @Test
    void tryWithResourcesClosesItsResourcesWithTheFieldMoved() {
        assertRejected("SJ044", 9, msg("before the resources of this try statement are closed"), holder("""
                        try (Holder h = other) {
                            @NoAlias int[] out = ghost;
                        }
                        ghost = new int[4];
                """));
    }

    @Test
    void tryWithResourcesRefillingBeforeTheCloseIsFine() {
        assertAccepted(holder("""
                        try (Holder h = other) {
                            @NoAlias int[] out = ghost;
                            ghost = new int[4];
                        }
                """));
    }

    // ------------------------------------------------------------------ lambdas and method references

    private static String functional(String statements) {
        return """
                package demo;
                import java.util.function.*;
                import org.sessionj.api.*;
                interface Source {
                    @NoAlias int[] make();
                }
                class Maker {
                    int[] shared = new int[2];
                    int[] sharedResult() { return shared; }
                    @NoAlias static int[] fresh() { return new int[1]; }
                    static void own(@NoAlias int[] a) { }
                    void run() {
                %s
                    }
                }
                """.formatted(statements);
    }

    @Test
    void expressionLambdaReturningASharedValueFromANoAliasMethod() {
        assertRejected("SJ040", 13, msg("'make()'s result (the lambda implements Source.make)", "found 'shared'"),
                functional("""
                        Source s = () -> shared;
                """));
    }

    @Test
    void blockLambdaReturningASharedValueFromANoAliasMethod() {
        assertRejected("SJ040", 13, msg("the lambda implements Source.make"), functional("""
                        Source s = () -> { return shared; };
                """));
    }

    @Test
    void methodReferenceToAMethodWithASharedResult() {
        assertRejected("SJ040", 13, msg("the method reference implements Source.make", "found 'this::sharedResult'"),
                functional("""
                        Source s = this::sharedResult;
                """));
    }

    @Test
    void anonymousClassReturningASharedValue() {
        assertRejected("SJ045", 14, msg("'make' overrides the method of Source", "its result is not @NoAlias"),
                functional("""
                        Source s = new Source() {
                            @Override public int[] make() { return shared; }
                        };
                """));
    }

    @Test
    void lambdaStoringASharedValueInANoAliasField() {
        assertRejected("SJ040", 6, msg("@NoAlias 'ghost' may only hold a unique value"), """
                package demo;
                import org.sessionj.api.*;
                class Store {
                    @NoAlias int[] ghost = new int[1];
                    int[] shared = new int[1];
                    Runnable r = () -> { ghost = shared; };
                }
                """);
    }

    @Test
    void lambdaOrMethodReferenceOwningWhatTheInterfaceShares() {
        assertRejected("SJ045", 13, msg("the method reference Maker::own", "accept takes shared values"),
                functional("""
                        Consumer<int[]> c = Maker::own;
                """));
        assertRejected("SJ045", 13, msg("'the lambda'", "its parameter 'a' is @NoAlias"), functional("""
                        Consumer<int[]> c = (@NoAlias int[] a) -> { };
                """));
    }

    @Test
    void uniqueImplementationsAreFine() {
        assertAccepted(functional("""
                        Source a = () -> new int[2];
                        Source b = Maker::fresh;
                        Source c = () -> shared.clone();
                        Source d = () -> { @NoAlias int[] x = new int[1]; return x; };
                        Source e = new Source() {
                            @Override public @NoAlias int[] make() { return new int[3]; }
                        };
                        Consumer<int[]> f = v -> { };
                        Supplier<int[]> g = this::sharedResult;
                """));
    }
}
