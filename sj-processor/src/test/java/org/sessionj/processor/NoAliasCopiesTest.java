package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Adversarial pass 14, A4: copying a {@code @NoAlias} value before handing it over — the JDK's copy
 * constructors and {@code copyOf} factories, which keep no reference to their source — only reads it,
 * as {@code Arrays.copyOf} does; a stream consumed in the statement reads it too. The SJ041 message for
 * a value moved into a call suggests handing the call such a copy.
 */
class NoAliasCopiesTest {
    private static final String PROTOCOL = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Copies {
                @Protocol("cbegin.!<java.util.ArrayList<Integer>>") interface Lists {}
                @Protocol("cbegin.!<java.util.HashMap<String,Integer>>") interface Maps {}
                @Protocol("cbegin.!<char[]>") interface Chars {}
                @Protocol("cbegin.!<int[]>") interface Ints {}
            }
            """;

    private static final String ORDER = """
            package demo;
            public final class Order implements java.util.Comparator<Integer> {
                public int compare(Integer p, Integer q) { return Integer.compare(p, q); }
            }
            """;

    private static String run(String statements) {
        return """
                package demo;
                import java.util.*;
                import java.util.stream.*;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static void take(Object o) { kept = o; }
                    void run(@Session(protocol = Copies.Lists.class) SJService lists,
                            @Session(protocol = Copies.Maps.class) SJService maps,
                            @Session(protocol = Copies.Chars.class) SJService chars,
                            @Session(protocol = Copies.Ints.class) SJService ints) {
                        @NoAlias ArrayList<Integer> x = new ArrayList<>(List.of(1, 2));
                        @NoAlias HashMap<String, Integer> m = new HashMap<>();
                        @NoAlias char[] c = new char[3];
                        @NoAlias int[] a = new int[3];
                %s
                        try (SJSocket s = lists.request()) { s.pass(x); }
                        try (SJSocket s = maps.request()) { s.pass(m); }
                        try (SJSocket s = chars.request()) { s.pass(c); }
                        try (SJSocket s = ints.request()) { s.pass(a); }
                    }
                }
                """.formatted(statements);
    }

    @Test
    void copiesTakenBeforeThePassOnlyReadTheValue() {
        assertAccepted(PROTOCOL, run("""
                        List<Integer> backup = new ArrayList<>(x);
                        List<Integer> snapshot = List.copyOf(x);
                        Set<Integer> members = new HashSet<>(x);
                        Deque<Integer> queue = new ArrayDeque<>(x);
                        Set<Integer> sorted = new TreeSet<>(x);
                        Map<String, Integer> saved = new HashMap<>(m);
                        Map<String, Integer> frozen = Map.copyOf(m);
                        Set<String> keys = Set.copyOf(m.keySet());
                        String text = new String(c);
                        StringBuilder editable = new StringBuilder(new String(c, 0, 1));
                        int sum = Arrays.stream(a).sum() + IntStream.of(a).max().orElse(0);
                        take(backup); take(snapshot); take(members); take(queue); take(sorted);
                        take(saved); take(frozen); take(keys); take(text); take(editable);
                """));
    }

    @Test
    void aComparatorGivenToATreeSetIsKeptAndMoves() {
        assertRejected("SJ041", 18, msg("@NoAlias 'byLength' is used after its value was moved into a constructor call"),
                PROTOCOL, ORDER, run("""
                        @NoAlias Comparator<Integer> byLength = new Order();
                        Set<Integer> sorted = new TreeSet<>(byLength);
                        byLength.compare(1, 2);
                """));
    }

    @Test
    void anAnonymousSubclassOfACopyingClassMayKeepItsSource() {
        assertRejected("SJ041", 18, msg("@NoAlias 'x' is used after its value was moved into a constructor call"),
                PROTOCOL, run("""
                        List<Integer> keeper = new ArrayList<>(x) { };
                """));
    }

    @Test
    void aValueMovedIntoACallIsToldToHandTheCallACopy() {
        assertRejected("SJ041", 18, msg("@NoAlias 'x' is used after its value was moved into a call of 'take' on line 16; "
                + "if that call should not own the value, give it new ArrayList<>(x) or List.copyOf(x), which leaves 'x' its "
                + "value; else assign 'x' a new value first"), PROTOCOL, run("""
                        take(x);
                """));
    }

    @Test
    void anArrayMovedIntoACallIsToldToHandTheCallItsClone() {
        assertRejected("SJ041", 21, msg("give it a.clone(), which leaves 'a' its value"), PROTOCOL, run("""
                        take(a);
                """));
    }

    @Test
    void aValueMovedIntoAVariableIsStillToldToTakeANewValue() {
        assertRejected("SJ041", 18, msg("moved into 'y' on line 16; assign it a new value first"), PROTOCOL, run("""
                        List<Integer> y = x;
                """));
    }
}
