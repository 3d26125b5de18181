package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 6 (adversarial pass 9): constructs that hand a {@code @NoAlias} value on without an
 * assignment or an argument in the source — a switch's type pattern, {@code throw}, the outer instance
 * of {@code o.new Inner()}, the value argument of {@code Arrays.fill}, the implicit close of a
 * try-with-resources resource — and places that look like a fresh owner but hold a shared value
 * (a catch parameter, a pattern variable over a shared value). Each was observed at run time as two
 * references to one value before these rules.
 */
class NoAliasHiddenMovesTest {
    private static String run(String statements) {
        return """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static void keep(Object a) {
                        kept = a;
                    }
                    static void own(@NoAlias Object a) {
                        kept = a;
                    }
                    void run(int k, Object shared) {
                        @NoAlias int[] x = new int[3];
                %s
                    }
                }
                """.formatted(statements);
    }

    // ------------------------------------------------------------------ adv9-2: switch type patterns

    @Test
    void aTypePatternOfASwitchStatementMovesTheSelector() {
        assertRejected("SJ041", 18, msg("@NoAlias 'x' is used after its value was moved into a pattern variable"), run("""
                        switch (x) {
                            case int[] f when f.length > 0 -> keep(f);
                            default -> { }
                        }
                        x[0] = 5;
                """));
    }

    @Test
    void aTypePatternOfASwitchExpressionMovesTheSelector() {
        assertRejected("SJ041", 18, msg("moved into a pattern variable"), run("""
                        int n = switch ((Object) x) {
                            case int[] f -> f.length;
                            default -> 0;
                        };
                        x[0] = n;
                """));
    }

    @Test
    void theSelectorIsMovedInsideTheArmsToo() {
        assertRejected("SJ041", 15, msg("moved into a pattern variable"), run("""
                        switch (x) {
                            case int[] f -> x[0] = f.length;
                        }
                """));
    }

    @Test
    void aPatternVariableOfAMovedSelectorOwnsTheValue() {
        assertAccepted(run("""
                        switch (x) {
                            case @NoAlias int[] f -> own(f);
                        }
                        x = new int[1];
                        x[0] = 1;
                """));
    }

    /** An unnamed pattern ({@code case int[] _}) binds nothing: the selector is only tested. */
    @Test
    void anUnnamedTypePatternOnlyTestsTheSelector() {
        assertAccepted(run("""
                        switch (x) {
                            case int[] _ -> { }
                        }
                        if (x instanceof int[] _) {
                            x[0] = 1;
                        }
                        own(x);
                """));
    }

    /** A switch over constants only compares the value: it stays owned. */
    @Test
    void aSwitchWithoutPatternsOnlyReadsTheSelector() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Own {
                    enum Colour { RED, GREEN }
                    void run() {
                        @NoAlias Colour c = null;
                        switch (c) {
                            case RED -> { }
                            default -> { }
                        }
                        c = null;
                    }
                }
                """);
    }

    /** A record pattern reads the components through the accessors, as {@code b.data()} would. */
    @Test
    void aRecordPatternReadsThroughTheValue() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Own {
                    record Pair(int a, int b) {
                    }
                    int run() {
                        @NoAlias Pair p = new Pair(1, 2);
                        int sum = p instanceof Pair(int a, int b) ? a + b : 0;
                        sum += switch (p) {
                            case Pair(int a, int b) -> a * b;
                        };
                        return sum + p.a();
                    }
                }
                """);
    }

    // ------------------------------------------------------------------ adv9-4: throw

    @Test
    void throwMovesTheException() {
        assertRejected("SJ041", 12, msg("@NoAlias 'x' is used after its value was moved in the try block"), """
                package demo;
                import org.sessionj.api.*;
                class Thrower {
                    static class Boom extends RuntimeException {
                        int n;
                    }
                    void run() {
                        @NoAlias Boom x = new Boom();
                        try {
                            throw x;
                        } catch (Boom e) {
                            x.n = 7;
                        }
                    }
                }
                """);
    }

    @Test
    void throwingANoAliasFieldCopiesItOutWhileTheObjectStillHoldsIt() {
        assertRejected("SJ044", 8, msg("@NoAlias field 'failure' was moved out by a throw"), """
                package demo;
                import org.sessionj.api.*;
                class Thrower {
                    static class Boom extends RuntimeException {
                    }
                    @NoAlias Boom failure = new Boom();
                    void run() {
                        throw failure;
                    }
                }
                """);
    }

    @Test
    void throwingAFreshExceptionAndUsingTheCaughtOneIsFine() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Thrower {
                    static class Boom extends RuntimeException {
                        int n;
                    }
                    int run() {
                        @NoAlias Boom x = new Boom();
                        x.n = 1;
                        try {
                            throw x;
                        } catch (Boom e) {
                            return e.n;
                        }
                    }
                }
                """);
    }

    // ------------------------------------------------------------------ adv9-5: try-with-resources

    private static final String RESOURCE = """
            package demo;
            import org.sessionj.api.*;
            class Res {
                static class R implements AutoCloseable {
                    public void close() {
                    }
                }
                static Object kept;
                static void pass(@NoAlias R r) {
                    kept = r;
                }
                void run() {
            %s
                }
            }
            """;

    @Test
    void movingATryWithResourcesResourceIsRejected() {
        assertRejected("SJ046", 14, msg("@NoAlias 'r' is a resource of the try-with-resources statement on line 13",
                "cannot be moved into a call of 'pass'"), RESOURCE.formatted("""
                        try (@NoAlias R r = new R()) {
                            pass(r);
                        }
                """));
    }

    @Test
    void movingAnExistingVariableNamedAsAResourceIsRejected() {
        assertRejected("SJ046", 15, msg("@NoAlias 'r' is a resource of the try-with-resources statement on line 14"),
                RESOURCE.formatted("""
                        @NoAlias R r = new R();
                        try (r) {
                            Object o = r;
                        }
                """));
    }

    /** Both resources are closed at the end: the later one would close the value the earlier still names. */
    @Test
    void movingAResourceIntoALaterResourceIsRejected() {
        assertRejected("SJ046", 13, msg("cannot be moved into 'q'"), RESOURCE.formatted("""
                        try (@NoAlias R r = new R(); R q = r) {
                        }
                """));
    }

    @Test
    void returningATryWithResourcesResourceIsRejected() {
        assertRejected("SJ046", 6, msg("cannot be moved by a return"), """
                package demo;
                import org.sessionj.api.*;
                class Res {
                    @NoAlias AutoCloseable open(@NoAlias AutoCloseable fresh) throws Exception {
                        try (@NoAlias AutoCloseable r = fresh) {
                            return r;
                        }
                    }
                }
                """);
    }

    @Test
    void capturingATryWithResourcesResourceIsRejected() {
        assertRejected("SJ046", 14, msg("cannot be moved into a lambda"), RESOURCE.formatted("""
                        try (@NoAlias R r = new R()) {
                            Runnable later = () -> r.close();
                        }
                """));
    }

    @Test
    void aResourceUsedThroughAndAnOwnedValueMovedWithoutTryWithResourcesAreFine() {
        assertAccepted(RESOURCE.formatted("""
                        try (@NoAlias R r = new R()) {
                            r.close();
                        }
                        @NoAlias R owned = new R();
                        pass(owned);
                """));
    }

    // ------------------------------------------------------------------ adv9-6: o.new Inner()

    private static final String OUTER = """
            package demo;
            import org.sessionj.api.*;
            class Outer {
                int[] data = new int[1];
                class Inner {
                    int peek() {
                        return data[0];
                    }
                }
                static void run() {
            %s
                }
            }
            """;

    @Test
    void aQualifiedInnerCreationMovesTheOuterInstance() {
        assertRejected("SJ041", 13, msg("@NoAlias 'o' is used after its value was moved into the new object "
                + "(as its enclosing instance)"), OUTER.formatted("""
                        @NoAlias Outer o = new Outer();
                        Inner in = o.new Inner();
                        o.data[0] = 9;
                """));
    }

    /** {@code o.super()} in a subclass of an inner class makes {@code o} the new object's enclosing instance. */
    @Test
    void aQualifiedSuperclassConstructorCallMovesTheOuterInstance() {
        assertRejected("SJ041", 11, msg("moved into the new object (as its enclosing instance)"), """
                package demo;
                import org.sessionj.api.*;
                class Outer {
                    int[] data = new int[1];
                    class Inner {
                    }
                }
                class Sub extends Outer.Inner {
                    Sub(@NoAlias Outer o) {
                        o.super();
                        o.data[0] = 4;
                    }
                }
                """);
    }

    @Test
    void aQualifiedInnerCreationFromAnOwnedValueAfterItsLastUseIsFine() {
        assertAccepted(OUTER.formatted("""
                        @NoAlias Outer o = new Outer();
                        o.data[0] = 9;
                        Inner in = o.new Inner();
                        in.peek();
                """));
    }

    // ------------------------------------------------------------------ compact constructors

    private static final String COMPACT = """
            package demo;
            import java.util.Objects;
            import org.sessionj.api.*;
            record Box(@NoAlias int[] d) {
                static Object kept;
                static void keep(@NoAlias int[] a) {
                    kept = a;
                }
                Box {
            %s
                }
                @Override
                public int[] d() {
                    return d.clone();
                }
            }
            """;

    /** The compact constructor assigns the field from the parameter after its body: a use. */
    @Test
    void aCompactConstructorThatMovesItsParameterIsRejected() {
        assertRejected("SJ041", 9, msg("@NoAlias 'd' is used after its value was moved into a call of 'keep' on "
                + "line 10 (the compact constructor stores it in field 'd' at its end)"), COMPACT.formatted("""
                        keep(d);
                """));
    }

    @Test
    void aCompactConstructorThatReadsOrReplacesItsParameterIsFine() {
        assertAccepted(COMPACT.formatted("""
                        Objects.requireNonNull(d);
                        keep(d);
                        d = new int[1];
                """));
    }

    // ------------------------------------------------------------------ adv9-7: JDK methods that store

    @Test
    void theValueArgumentOfArraysFillIsStored() {
        assertRejected("SJ041", 16, msg("moved into a call of 'fill'"), run("""
                        Object[] all = new Object[2];
                        Arrays.fill(all, x);
                        x[0] = 3;
                """));
    }

    @Test
    void theRangeFormOfArraysFillStoresItsValueToo() {
        assertRejected("SJ041", 16, msg("moved into a call of 'fill'"), run("""
                        Object[] all = new Object[2];
                        Arrays.fill(all, 0, 1, x);
                        x[0] = 3;
                """));
    }

    /** The key goes to the elements' compareTo (user code), which may keep it. */
    @Test
    void theKeyOfABinarySearchIsHandedToTheElements() {
        assertRejected("SJ041", 13, msg("moved into a call of 'binarySearch'"), """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Own {
                    record Key(int v) implements Comparable<Key> {
                        public int compareTo(Key o) {
                            return Integer.compare(v, o.v);
                        }
                    }
                    void run(Key[] keys) {
                        @NoAlias Key k = new Key(1);
                        Arrays.binarySearch(keys, k);
                        k.v();
                    }
                }
                """);
    }

    @Test
    void theArraysTheJdkMethodsReadOrWriteAreOnlyBorrowed() {
        assertAccepted(run("""
                        int[] other = new int[3];
                        Arrays.fill(x, 7);
                        System.arraycopy(x, 0, other, 0, 3);
                        System.arraycopy(other, 0, x, 0, 3);
                        Arrays.sort(x);
                        Arrays.setAll(x, i -> i);
                        int at = Arrays.binarySearch(x, 3) + Arrays.hashCode(x) + Arrays.mismatch(x, other);
                        x[0] = at + Arrays.copyOf(x, 2).length;
                """));
    }

    /** adv13 A5: the JDK's text, hash and comparison helpers only read a value (they call its own methods). */
    @Test
    void theJdkTextHelpersOnlyReadTheValue() {
        assertAccepted(run("""
                        String a = String.valueOf(x) + String.format("%s", x) + "%s".formatted(x);
                        StringBuilder b = new StringBuilder().append(x).insert(0, x);
                        boolean same = Objects.equals(x, b) || Objects.deepEquals(x, b) || Objects.isNull(x);
                        int h = Objects.hashCode(x) + Objects.hash(x, a) + Objects.toString(x).length();
                        own(x);
                """));
    }

    /** Their other positions still move: a.equals(b) is b's owner's code, toString(o, d) may return d. */
    @Test
    void theSecondArgumentOfObjectsEqualsStillMoves() {
        assertRejected("SJ041", 16, msg("moved into a call of 'equals'"), run("""
                        Object other = new Object();
                        boolean same = Objects.equals(other, x);
                        own(x);
                """));
    }

    /** A PrintStream may be the program's (System.setOut): println moves, and the message says what to print. */
    @Test
    void printingTheValueMovesItAndTheMessageSaysWhatToPrint() {
        assertRejected("SJ041", 15, msg("moved into a call of 'println'", "print String.valueOf(it)"), run("""
                        System.out.println(x);
                        own(x);
                """));
        assertAccepted(run("""
                        System.out.println(String.valueOf(x));
                        own(x);
                """));
    }

    // ------------------------------------------------------------------ adv9-8: shared values named @NoAlias

    @Test
    void aNoAliasCatchParameterIsRejected() {
        assertRejected("SJ040", 12, msg("@NoAlias 'e' may only hold a unique value", "a caught exception"), """
                package demo;
                import org.sessionj.api.*;
                class Catcher {
                    static class Boom extends RuntimeException {
                    }
                    static final Boom SHARED = new Boom();
                    static void own(@NoAlias Object v) {
                    }
                    void run() {
                        try {
                            throw SHARED;
                        } catch (@NoAlias Boom e) {
                            own(e);
                        }
                    }
                }
                """);
    }

    @Test
    void aNoAliasPatternVariableOverASharedValueIsRejected() {
        assertRejected("SJ040", 14, msg("@NoAlias 'p' may only hold a unique value", "shared"), run("""
                        if (shared instanceof @NoAlias int[] p) {
                            own(p);
                        }
                """));
    }

    @Test
    void aNoAliasCaseVariableOverASharedValueIsRejected() {
        assertRejected("SJ040", 15, msg("@NoAlias 'p' may only hold a unique value"), run("""
                        switch (shared) {
                            case @NoAlias int[] p -> own(p);
                            default -> { }
                        }
                """));
    }

    @Test
    void aNoAliasRecordComponentPatternVariableIsRejected() {
        assertRejected("SJ040", 9, msg("@NoAlias 'data' may only hold a unique value", "a component of"), """
                package demo;
                import org.sessionj.api.*;
                class Own {
                    record Box(int[] data) {
                    }
                    static void own(@NoAlias int[] a) {
                    }
                    void run(Object o) {
                        if (o instanceof Box(@NoAlias int[] data)) {
                            own(data);
                        }
                    }
                }
                """);
    }

    @Test
    void aNoAliasPatternVariableOverAMovedValueOwnsIt() {
        assertAccepted(run("""
                        if (x instanceof @NoAlias int[] p) {
                            own(p);
                        }
                """));
    }
}
