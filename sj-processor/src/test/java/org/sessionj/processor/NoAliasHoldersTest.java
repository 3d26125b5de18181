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
 * Holders of elements that may be views, closed by a rule rather than a list (adv19 A12 followed up): a value whose
 * generic type has a type argument that may be a view ({@code CompletableFuture<Map.Entry<K, V>>},
 * {@code Supplier<Map.Entry<K, V>>}, a program's {@code Box<Map.Entry<K, V>>}) may hold one. Before, only
 * {@code Optional}, {@code AtomicReference} and the {@code Reference}s were; {@code map(CompletableFuture::completedFuture)}
 * and {@code map(e -> () -> e)} kept the map's own nodes unseen.
 */
class NoAliasHoldersTest {
    private static final String PASS_M = "        try (SJSocket s = svc.request()) { s.pass(m); }\n";

    @Test
    void aJdkFutureOfTheEntriesHoldsTheMapsNodes() {
        assertRejected("SJ048", 19, msg("'t' holds a copy of the elements of"), PROTOCOL, MORE, BUF, run("""
                        var t = m.entrySet().stream().map(java.util.concurrent.CompletableFuture::completedFuture).toList();
                """ + PASS_M + """
                        t.get(0).join().setValue(99);
                """));
        assertRejected("SJ041", 18, msg("moved into the method reference 'Own::take' given its elements by 'forEach'"),
                PROTOCOL, MORE, BUF, run("""
                        m.entrySet().stream().map(java.util.concurrent.CompletableFuture::completedFuture).forEach(Own::take);
                """ + PASS_M));
    }

    /** A lambda the map's lambda returns keeps the element it captures, whatever its type says. */
    @Test
    void aLambdaCapturingTheEntryKeepsTheMapsNode() {
        assertRejected("SJ041", 18, msg("moved into a lambda (its parameter 'e' goes out of a lambda on line 17)"),
                PROTOCOL, MORE, BUF, run("""
                        var t = m.entrySet().stream().map(e -> (java.util.function.Supplier<Map.Entry<String, Integer>>) () -> e).toList();
                """ + PASS_M));
        assertRejected("SJ041", 18, msg("moved into a lambda (its parameter 'e' goes into code it returns (a lambda or class "
                + "that captures it) on line 17)"), PROTOCOL, MORE, BUF, run("""
                        var t = m.entrySet().stream().map(e -> (java.util.function.IntSupplier) () -> e.getValue()).toList();
                """ + PASS_M));
    }

    /** Corrected: holders of what cannot be a view (a value, a key), and code that captures only those. */
    @Test
    void holdersOfValuesOrCopiesCompile() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        var values = m.entrySet().stream().map(e -> java.util.concurrent.CompletableFuture.completedFuture(e.getValue())).toList();
                        var keys = m.keySet().stream().map(java.util.concurrent.CompletableFuture::completedFuture).toList();
                        var copies = m.entrySet().stream().map(e -> e.getValue()).map(v -> (java.util.function.Supplier<Integer>) () -> v).toList();
                """ + PASS_M + """
                        System.out.println(values.get(0).join() + keys.get(0).join() + copies.size());
                """));
    }

    /** A raw functional type is given anything, as a raw container holds anything (adv19 A3's sibling). */
    @Test
    void aRawConsumerGivenTheEntriesMovesTheValue() {
        assertRejected("SJ041", 18, msg("moved into the method reference 'Own::take' given its elements by 'forEach'"),
                PROTOCOL, MORE, BUF, run("""
                        m.entrySet().forEach((java.util.function.Consumer) Own::take);
                """ + PASS_M));
        assertRejected("SJ041", 21, msg("moved into an object of 'Raw' (its method 'accept' lets its parameter 'o' go into "
                + "a call of 'take' on line 18)"), PROTOCOL, MORE, BUF, run("""
                        class Raw implements java.util.function.Consumer {
                            public void accept(Object o) { Own.take(o); }
                        }
                        m.entrySet().forEach(new Raw());
                """ + PASS_M));
    }

    /** Corrected: a typed consumer that only reads what it is given. */
    @Test
    void aTypedConsumerThatOnlyReadsCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        class Raw implements java.util.function.Consumer<Object> {
                            int n;
                            public void accept(Object o) { n += o.hashCode(); }
                        }
                        m.entrySet().forEach(new Raw());
                """ + PASS_M));
    }

    /**
     * A JDK constructor reference whose class keeps its argument and is no generic holder (views report20: {@code
     * map(EventObject::new)} kept each entry as the event's source, and compiled): as a lambda that keeps the element.
     */
    @Test
    void aJdkObjectMadeFromTheEntryKeepsTheMapsNode() {
        assertRejected("SJ041", 18, msg("moved into the method reference 'java.util.EventObject::new' (what it returns, "
                + "of a class of the JDK that is neither generic nor a copy, may keep what it is given) given its elements"
                + " by 'map'"), PROTOCOL, MORE, BUF, run("""
                        var t = m.entrySet().stream().map(java.util.EventObject::new).toList();
                """ + PASS_M));
    }

    /** Corrected: the same made from what cannot be a view (a key), a copy of the entry ({@code String::valueOf}). */
    @Test
    void jdkFunctionsOfKeysOrCopiesCompile() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        var sources = m.keySet().stream().map(java.util.EventObject::new).toList();
                        var texts = m.entrySet().stream().map(String::valueOf).toList();
                """ + PASS_M + """
                        System.out.println(sources.size() + texts.size());
                """));
    }

    /** Corrected: a stream made from each row is consumed where it is made (flatMap), not kept. */
    @Test
    void aStreamOfEachRowCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        @NoAlias double[][] g = new double[2][2];
                        double sum = Arrays.stream(g).flatMapToDouble(Arrays::stream).sum();
                        try (SJSocket s = grids.request()) { s.pass(g); }
                        System.out.println(sum);
                """));
    }

    /**
     * A consumer held in a local variable that always holds one lambda is read as that lambda (it was code the
     * checker does not read, SJ041, a false alarm for a read-only one): the same reading as {@code forEach(e -> …)}.
     */
    @Test
    void aReadOnlyConsumerHeldInAVariableCompiles() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int[] total = {0};
                        java.util.function.Consumer<Map.Entry<String, Integer>> sink = e -> total[0] += e.getValue();
                        m.entrySet().forEach(sink);
                """ + PASS_M + """
                        System.out.println(total[0]);
                """));
    }

    /** A held consumer that keeps the entry, a held method reference, and a variable assigned again: SJ041. */
    @Test
    void aKeepingOrReassignedConsumerInAVariableMovesTheValue() {
        assertRejected("SJ041", 19, msg("moved into a lambda (its parameter 'e' goes into a call of 'take' on line 17) "
                + "given its elements by 'forEach'"), PROTOCOL, MORE, BUF, run("""
                        java.util.function.Consumer<Map.Entry<String, Integer>> sink = e -> Own.take(e);
                        m.entrySet().forEach(sink);
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into the method reference 'Own::take' given its elements by 'forEach'"),
                PROTOCOL, MORE, BUF, run("""
                        java.util.function.Consumer<Object> sink = Own::take;
                        m.entrySet().forEach(sink);
                """ + PASS_M));
        assertRejected("SJ041", 20, msg("moved into 'sink' (code the checker does not read"), PROTOCOL, MORE, BUF, run("""
                        java.util.function.Consumer<Map.Entry<String, Integer>> sink = e -> { };
                        sink = Own::take;
                        m.entrySet().forEach(sink);
                """ + PASS_M));
    }
}
