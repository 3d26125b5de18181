package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;
import static org.sessionj.processor.NoAliasViewsTest.BUF;
import static org.sessionj.processor.NoAliasViewsTest.MORE;
import static org.sessionj.processor.NoAliasViewsTest.PROTOCOL;
import static org.sessionj.processor.NoAliasViewsTest.run;

import org.junit.jupiter.api.Test;

/**
 * Two ways a {@code @NoAlias} value's elements were kept unseen (adv19, confirmed at run time: the sender wrote
 * the peer's data after the pass). A8: an object of a class given the elements — an anonymous
 * {@code new Consumer<>() {…}} or {@code new Keeper()} of a class implementing the functional interface, the
 * pre-lambda spelling of {@code forEach(e -> keep.add(e))} — was neither read nor taken as code the checker does
 * not read; its method is now read as a lambda's body is, so one that only reads compiles. A10: a collection's {@code clone()} was taken as a new value, but it is shallow: its elements are
 * the value's, followed now as {@code new ArrayList<>(x)} is.
 */
class NoAliasObjectsAndClonesTest {
    private static final String KEEP = "        List<Map.Entry<String, Integer>> keep = new ArrayList<>();\n";
    private static final String PASS_M = "        try (SJSocket s = svc.request()) { s.pass(m); }\n";

    @Test
    void anAnonymousConsumerGivenTheEntriesMovesTheValue() {
        assertRejected("SJ041", 21, msg("@NoAlias 'm' is used after its value was moved into an anonymous class (its "
                + "method 'accept' lets its parameter 'e' go into a call of 'add' on line 19) given its elements by "
                + "'forEach'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        m.entrySet().forEach(new java.util.function.Consumer<Map.Entry<String, Integer>>() {
                            public void accept(Map.Entry<String, Integer> e) { keep.add(e); }
                        });
                """ + PASS_M));
    }

    /** adv19 A8 left over: the anonymous class's method is read as a lambda's body is, so one that only reads compiles. */
    @Test
    void anAnonymousConsumerThatOnlyReadsTheEntriesCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int[] total = new int[1];
                        m.entrySet().forEach(new java.util.function.Consumer<Map.Entry<String, Integer>>() {
                            public void accept(Map.Entry<String, Integer> e) { total[0] += e.getValue(); }
                        });
                """ + PASS_M));
    }

    @Test
    void anObjectOfAClassImplementingTheFunctionalInterfaceMovesTheValue() {
        assertRejected("SJ041", 22, msg("moved into an object of 'Keeper' (its method 'accept' lets its parameter 'e' go "
                + "into a call of 'add' on line 19)"), PROTOCOL, MORE, BUF, run(KEEP + """
                        class Keeper implements java.util.function.Consumer<Map.Entry<String, Integer>> {
                            public void accept(Map.Entry<String, Integer> e) { keep.add(e); }
                        }
                        m.entrySet().forEach(new Keeper());
                """ + PASS_M));
        // the receiver of a JDK builder (reversed) runs on the elements too
        assertRejected("SJ041", 20, msg("moved into an anonymous class (its method 'compare' lets its parameter 'a' go into "
                + "'Own.kept' on line 18)", "given its elements by 'sorted'"), PROTOCOL, MORE, BUF, run("""
                        m.entrySet().stream().sorted(new Comparator<Map.Entry<String, Integer>>() {
                            public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) { Own.kept = a; return 0; }
                        }.reversed()).count();
                """ + PASS_M));
        // an anonymous class that does not declare the functional method itself runs a superclass's, not read
        assertRejected("SJ041", 22, msg("moved into an anonymous Base (code the checker does not read"), PROTOCOL, MORE, BUF,
                run(KEEP + """
                        abstract class Base implements java.util.function.Consumer<Map.Entry<String, Integer>> {
                            public void accept(Map.Entry<String, Integer> e) { keep.add(e); }
                        }
                        m.entrySet().forEach(new Base() { });
                """ + PASS_M));
    }

    /** Corrected: a local class whose method only reads, and an anonymous comparator that compares. */
    @Test
    void anObjectOfAClassThatOnlyReadsCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        class Summer implements java.util.function.Consumer<Map.Entry<String, Integer>> {
                            final List<Object> log;
                            int total;
                            Summer(List<Object> log) { this.log = log; } // not given the elements: not a move
                            static void note(List<Object> to, Object o) { to.add(o); }
                            public void accept(Map.Entry<String, Integer> e) { total += e.getValue(); }
                        }
                        m.entrySet().forEach(new Summer(new ArrayList<>()));
                        m.entrySet().stream().sorted(new Comparator<Map.Entry<String, Integer>>() {
                            public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) {
                                return Integer.compare(a.getValue(), b.getValue());
                            }
                        }).count();
                """ + PASS_M));
    }

    /**
     * adv19 A8 left over (A8/V1): an enum constant, a field or a variable of a class implementing the functional
     * interface is code the checker does not read (it may be of a subclass, or its class's source is elsewhere).
     */
    @Test
    void anEnumConstantGivenTheEntriesMovesTheValue() {
        assertRejected("SJ041", 21, msg("moved into 'Keeper.INSTANCE' (code the checker does not read: give a lambda "
                + "or a method reference) given its elements by 'forEach'"), PROTOCOL, MORE, BUF, run("""
                        enum Keeper implements java.util.function.Consumer<Map.Entry<String, Integer>> {
                            INSTANCE; public void accept(Map.Entry<String, Integer> e) { Own.kept = e; }
                        }
                        m.entrySet().forEach(Keeper.INSTANCE);
                """ + PASS_M));
    }

    /** Corrected: a lambda that reads the entries, or a new object of a class whose method only reads. */
    @Test
    void aNewObjectInsteadOfTheConstantCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int[] sum = new int[1];
                        m.entrySet().forEach(e -> sum[0] += e.getValue());
                        final class Summer implements java.util.function.Consumer<Map.Entry<String, Integer>> {
                            int total;
                            public void accept(Map.Entry<String, Integer> e) { total += e.getValue(); }
                        }
                        m.entrySet().forEach(new Summer());
                """ + PASS_M));
    }

    /**
     * A return is no escape only from the code read itself: an anonymous class or a lambda inside it that returns
     * the element hands it out ({@code map(e -> new Getter() { get() { return e; } })}).
     */
    @Test
    void anElementReturnedByCodeInsideTheLambdaMovesTheValue() {
        assertRejected("SJ041", 19, msg("moved into a lambda (its parameter 'e' goes by a return on line 18)"),
                PROTOCOL, MORE, BUF, run("""
                        interface Getter { Map.Entry<String, Integer> get(); }
                        Own.kept = m.entrySet().stream().map(e -> new Getter() { public Map.Entry<String, Integer> get() { return e; } }).toList();
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into a lambda (its parameter 'e' goes out of a lambda on line 18)"),
                PROTOCOL, MORE, BUF, run("""
                        interface Getter { Map.Entry<String, Integer> get(); }
                        Own.kept = m.entrySet().stream().map(e -> (Getter) () -> e).toList();
                """ + PASS_M));
    }

    /** Corrected: code inside the lambda that reads the element, or a map's lambda that returns it itself. */
    @Test
    void anElementReadByCodeInsideTheLambdaCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        interface Counter { int get(); }
                        Own.kept = m.entrySet().stream().map(e -> { int v = e.getValue(); return (Counter) () -> v; }).toList();
                        long n = m.entrySet().stream().map(e -> e).count();
                """ + PASS_M));
    }

    private static final String ROWS = """
            import java.util.*;
            import org.sessionj.api.*;
            class Rows {
                @Protocol("cbegin.!<ArrayList<int[]>>") interface P {}
                static Object saved;
                @SuppressWarnings("unchecked")
                void run(@Session(protocol = P.class) SJService svc) {
                    @NoAlias ArrayList<int[]> x = new ArrayList<>(List.of(new int[] {1, 2}));
            %s
                }
            }
            """;

    @Test
    void aCollectionsCloneSharesItsElements() {
        assertRejected("SJ048", 11, msg("'c' holds a copy of the elements of 'x' on line 9"), ROWS.formatted("""
                        ArrayList<int[]> c = (ArrayList<int[]>) x.clone();
                        try (SJSocket s = svc.request()) { s.pass(x); }
                        c.get(0)[0] = 99;
                """));
        assertRejected("SJ041", 10, msg("@NoAlias 'x' is used after its value was moved into 'saved' (through a copy of "
                + "its elements, which may be views of it) on line 9"), ROWS.formatted("""
                        saved = x.clone();
                        try (SJSocket s = svc.request()) { s.pass(x); }
                """));
    }

    /** Corrected: a copy of each row (or the clone used before the pass) compiles. */
    @Test
    void aCloneUsedBeforeThePassCompiles() {
        assertAccepted(ROWS.formatted("""
                        ArrayList<int[]> c = (ArrayList<int[]>) x.clone();
                        c.get(0)[0] = 99;
                        try (SJSocket s = svc.request()) { s.pass(x); }
                """));
    }
}
