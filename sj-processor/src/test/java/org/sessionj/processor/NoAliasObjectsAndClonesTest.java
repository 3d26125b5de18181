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
 * not read. A10: a collection's {@code clone()} was taken as a new value, but it is shallow: its elements are
 * the value's, followed now as {@code new ArrayList<>(x)} is.
 */
class NoAliasObjectsAndClonesTest {
    private static final String KEEP = "        List<Map.Entry<String, Integer>> keep = new ArrayList<>();\n";
    private static final String PASS_M = "        try (SJSocket s = svc.request()) { s.pass(m); }\n";

    @Test
    void anAnonymousConsumerGivenTheEntriesMovesTheValue() {
        assertRejected("SJ041", 21, msg("@NoAlias 'm' is used after its value was moved into an anonymous "
                + "java.util.function.Consumer<Map.Entry<String, Integer>> (code the checker does not read: give a lambda or a method "
                + "reference) given its elements by 'forEach'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        m.entrySet().forEach(new java.util.function.Consumer<Map.Entry<String, Integer>>() {
                            public void accept(Map.Entry<String, Integer> e) { keep.add(e); }
                        });
                """ + PASS_M));
    }

    @Test
    void anObjectOfAClassImplementingTheFunctionalInterfaceMovesTheValue() {
        assertRejected("SJ041", 22, msg("moved into the object 'new Keeper()' (code the checker does not read"),
                PROTOCOL, MORE, BUF, run(KEEP + """
                        class Keeper implements java.util.function.Consumer<Map.Entry<String, Integer>> {
                            public void accept(Map.Entry<String, Integer> e) { keep.add(e); }
                        }
                        m.entrySet().forEach(new Keeper());
                """ + PASS_M));
        assertRejected("SJ041", 20, msg("moved into an anonymous Comparator<Map.Entry<String, Integer>>",
                "given its elements by 'sorted'"), PROTOCOL, MORE, BUF, run("""
                        m.entrySet().stream().sorted(new Comparator<Map.Entry<String, Integer>>() {
                            public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) { return 0; }
                        }).count();
                """ + PASS_M));
    }

    /** Corrected: a lambda that only reads through the entries. */
    @Test
    void aLambdaThatReadsTheEntriesCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int[] total = new int[1];
                        m.entrySet().forEach(e -> total[0] += e.getValue());
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
