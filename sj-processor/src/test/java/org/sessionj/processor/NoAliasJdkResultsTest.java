package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 7 (adversarial pass 10, F7): JDK methods whose result is their argument
 * ({@code Objects.requireNonNull}) or a new array ({@code Arrays.copyOf}) are read for what they
 * return, so that the idioms users write first with {@code @NoAlias} compile, while the value still
 * moves wherever the result goes.
 */
class NoAliasJdkResultsTest {
    private static String run(String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static void own(@NoAlias Object a) {
                        kept = a;
                    }
                    static void both(Object a, int n) {
                        kept = a;
                    }
                    void run(int[] shared) {
                        @NoAlias int[] x = new int[3];
                %s
                    }
                }
                """.formatted(statements);
    }

    @Test
    void aRequireNonNullPreconditionOnlyReadsTheValue() {
        assertAccepted(run("""
                        Objects.requireNonNull(x);
                        Objects.requireNonNull(x, "x");
                        own(x);
                """));
    }

    @Test
    void theConstructorIdiomStoresTheParameterInANoAliasField() {
        assertAccepted("""
                package demo;
                import java.util.Objects;
                import org.sessionj.api.*;
                class Holder {
                    @NoAlias private final int[] data;
                    Holder(@NoAlias int[] d) {
                        this.data = Objects.requireNonNull(d, "d");
                    }
                }
                """);
    }

    @Test
    void theResultOfRequireNonNullIsTheValueItself() {
        assertRejected("SJ041", 15, msg("@NoAlias 'x' is used after its value was moved into 'alias'"), run("""
                        int[] alias = Objects.requireNonNull(x);
                        x[0] = 1;
                """));
    }

    @Test
    void aCallTakesTheValueThroughRequireNonNullOnceAllArgumentsAreEvaluated() {
        assertRejected("SJ041", 15, msg("moved into a call of 'both'"), run("""
                        both(Objects.requireNonNull(x), x.length);
                        x[0] = 1;
                """));
    }

    @Test
    void requireNonNullOfASharedValueIsNotUnique() {
        assertRejected("SJ040", 14, msg("@NoAlias 'y' may only hold a unique value"), run("""
                        @NoAlias int[] y = Objects.requireNonNull(shared);
                """));
    }

    @Test
    void requireNonNullElseGetMayReturnWhatTheSupplierShares() {
        assertRejected("SJ040", 14, msg("@NoAlias 'y' may only hold a unique value"), run("""
                        @NoAlias int[] y = Objects.requireNonNullElseGet(x, () -> shared);
                """));
    }

    /** Only java.util.Objects' methods are known to keep nothing: a method of the same name may store it. */
    @Test
    void aUserMethodNamedRequireNonNullStillTakesTheValue() {
        assertRejected("SJ041", 13, msg("moved into a call of 'requireNonNull'"), """
                package demo;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static <T> T requireNonNull(T value) {
                        kept = value;
                        return value;
                    }
                    void run() {
                        @NoAlias int[] x = new int[3];
                        requireNonNull(x);
                
                        x[0] = 1;
                    }
                }
                """);
    }

    @Test
    void jdkMethodsThatReturnANewArrayGiveUniqueValues() {
        assertAccepted(run("""
                        @NoAlias int[] y = Arrays.copyOf(shared, 3);
                        @NoAlias int[] z = Arrays.copyOfRange(shared, 0, 1);
                        @NoAlias char[] c = "abc".toCharArray();
                        @NoAlias byte[] b = "abc".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                        own(y);
                        own(z);
                        own(c);
                        own(b);
                """));
    }

    @Test
    void aListsArrayIsNotKnownToBeNew() {
        assertRejected("SJ040", 14, msg("@NoAlias 'y' may only hold a unique value"), run("""
                        @NoAlias Object[] y = List.of(shared).toArray();
                """));
    }
}
