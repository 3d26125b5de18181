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
}
