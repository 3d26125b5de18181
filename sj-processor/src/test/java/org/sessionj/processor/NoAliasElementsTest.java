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
 * The elements of a {@code @NoAlias} value that may be views of it (adv16 A3's addendum, and array rows): one
 * read by a stream's {@code findFirst}/{@code min}/{@code reduce}, by {@code Collections.max}, from an array
 * copy of a map's entries, or a row of an array of arrays is a view; a lambda or method reference a call on
 * the value gives its elements to moves the value when it lets one escape. Reads stay accepted.
 */
class NoAliasElementsTest {
    private static final String PASS_M = "        try (SJSocket s = svc.request()) { s.pass(m); }\n";
    private static final String GRID = "        @NoAlias double[][] g = new double[3][4];\n";
    private static final String PASS_G = "        try (SJSocket s = grids.request()) { s.pass(g); }\n";

    @Test
    void anEntryAStreamFindsIsOneOfTheMapsNodes() {
        assertRejected("SJ048", 19, msg("'e' holds the result of 'entrySet' on line 17", "@NoAlias 'm'"), PROTOCOL, MORE, BUF,
                run("""
                        Map.Entry<String, Integer> e = m.entrySet().stream().findFirst().get();
                """ + PASS_M + """
                        e.setValue(99);
                """));
        assertRejected("SJ048", 19, msg("'e' holds the result of 'entrySet' on line 17"), PROTOCOL, MORE, BUF, run("""
                        Map.Entry<String, Integer> e = m.entrySet().stream().reduce((p, q) -> p).orElseThrow();
                """ + PASS_M + """
                        e.setValue(99);
                """));
    }

    @Test
    void anEntryCollectionsMaxReturnsIsOneOfTheMapsNodes() {
        assertRejected("SJ048", 19, msg("'e' holds the result of 'entrySet' on line 17"), PROTOCOL, MORE, BUF, run("""
                        Map.Entry<String, Integer> e = Collections.max(m.entrySet(), Map.Entry.comparingByValue());
                """ + PASS_M + """
                        e.setValue(99);
                """));
        assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved into a call of 'add'"),
                PROTOCOL, MORE, BUF, run("""
                        List<Object> keep = new ArrayList<>();
                        keep.add(Collections.max(m.entrySet(), Map.Entry.comparingByValue()));
                """ + PASS_M));
    }

    @Test
    void anElementOfAnArrayCopyOfTheEntriesIsOneOfTheMapsNodes() {
        assertRejected("SJ048", 20, msg("'e' holds a copy of the elements of 'm.entrySet()' on line 17"), PROTOCOL, MORE, BUF,
                run("""
                        Object[] all = m.entrySet().toArray();
                        Object e = all[0];
                        try (SJSocket s = svc.request()) { s.pass(m); }
                        ((Map.Entry<?, ?>) e).hashCode();
                """));
    }

    @Test
    void aMethodReferenceGivenTheEntriesKeepsThem() {
        assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved into the method reference "
                + "'keep::add' given its elements by 'forEach' (they may be views of it)"), PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> keep = new ArrayList<>();
                        m.entrySet().forEach(keep::add);
                """ + PASS_M));
    }

    @Test
    void aLambdaThatKeepsAnElementMovesTheValue() {
        assertRejected("SJ041", 19, msg("moved into a lambda (its parameter 'e' goes into a call of 'add' on line 18) "
                + "given its elements by 'filter'"), PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> keep = new ArrayList<>();
                        m.entrySet().stream().filter(e -> keep.add(e)).count();
                """ + PASS_M));
        assertRejected("SJ041", 20, msg("moved into a lambda (its parameter 'e' goes into a call of 'add' on line 19) "
                + "given its elements by 'forEach'", "through 'es'"), PROTOCOL, MORE, BUF, run("""
                        Set<Map.Entry<String, Integer>> es = m.entrySet();
                        List<Map.Entry<String, Integer>> keep = new ArrayList<>();
                        es.forEach(e -> keep.add(e));
                """ + PASS_M));
        assertRejected("SJ041", 20, msg("@NoAlias 'rows' is used after its value was moved into a call of 'sort'"),
                PROTOCOL, MORE, BUF, run("""
                        @NoAlias ArrayList<List<Integer>> rows = new ArrayList<>(List.of(new ArrayList<>(List.of(1))));
                        List<List<Integer>> keep = new ArrayList<>();
                        Collections.sort(rows, (p, q) -> { keep.add(p); return 0; });
                        try (SJSocket s = svc.request()) { s.pass(rows); }
                """));
    }

    @Test
    void codeThatOnlyReadsTheElementsLeavesTheValueOwned() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int[] total = {0};
                        m.entrySet().forEach(e -> total[0] += e.getValue());
                        m.entrySet().removeIf(e -> e.getValue() < 0);
                        List<String> keys = m.entrySet().stream().sorted(Map.Entry.comparingByValue())
                                .map(Map.Entry::getKey).toList();
                        String best = m.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                                .orElse("");
                        m.replaceAll((k, v) -> v + 1);
                        @NoAlias ArrayList<List<Integer>> rows = new ArrayList<>(List.of(new ArrayList<>(List.of(1))));
                        Collections.sort(rows, (p, q) -> Integer.compare(p.size(), q.size()));
                        rows.sort(Comparator.comparingInt(List::size));
                """ + PASS_M + """
                        System.out.println(keys + best + total[0]);
                """));
    }

    @Test
    void aMapsOwnMethodsMayStoreWhatTheirLambdaReturnsBack() {
        String map = "        @NoAlias HashMap<String, ArrayList<Integer>> lists = new HashMap<>();\n";
        String pass = "        try (SJSocket s = svc.request()) { s.pass(lists); }\n";
        assertAccepted(PROTOCOL, MORE, BUF, run(map + """
                        lists.computeIfAbsent("a", k -> new ArrayList<>()).add(1);
                        lists.computeIfPresent("a", (k, v) -> { v.add(2); return v; });
                        lists.merge("a", new ArrayList<>(), (p, q) -> p);
                        List<Integer> sizes = lists.values().stream().map(v -> v).map(List::size).toList();
                """ + pass + """
                        System.out.println(sizes);
                """));
        assertRejected("SJ041", 20, msg("moved into a lambda (its parameter 'v' goes into a call of 'add' on line 19) given "
                + "its elements by 'computeIfPresent'"), PROTOCOL, MORE, BUF, run(map + """
                        List<List<Integer>> keep = new ArrayList<>();
                        lists.computeIfPresent("a", (k, v) -> { keep.add(v); return v; });
                """ + pass));
    }

    @Test
    void aRowOfAnArrayOfArraysIsAView() {
        assertRejected("SJ048", 20, msg("'row' holds the element 'g[0]' on line 18"), PROTOCOL, MORE, BUF, run(GRID + """
                        double[] row = g[0];
                """ + PASS_G + """
                        row[0] = 9;
                """));
        assertRejected("SJ048", 21, msg("'last' holds an element of 'g' read by the enhanced for loop on line 19"),
                PROTOCOL, MORE, BUF, run(GRID + """
                        double[] last = null;
                        for (double[] row : g) { last = row; }
                """ + PASS_G + """
                        last[0] = 9;
                """));
        assertRejected("SJ041", 20, msg("@NoAlias 'g' is used after its value was moved into a call of 'add' (as its "
                + "element 'g[0]', which may be the value itself or a view of it)"), PROTOCOL, MORE, BUF, run(GRID + """
                        List<double[]> keep = new ArrayList<>();
                        keep.add(g[0]);
                """ + PASS_G));
    }

    @Test
    void readingAndWritingRowsBeforeThePassIsAccepted() {
        assertAccepted(PROTOCOL, MORE, BUF, run(GRID + """
                        Arrays.fill(g[0], 1.0);
                        System.arraycopy(g[0], 0, g[1], 0, 4);
                        for (double[] row : g) { Arrays.fill(row, 2.0); row[0] = 1; }
                        double[] r = g[2];
                        r[1] = 3;
                        g[2][3] = 4;
                        double sum = 0;
                        for (int i = 0; i < g.length; i++) { for (int j = 0; j < g[i].length; j++) { sum += g[i][j]; } }
                        System.out.println(Arrays.toString(g[0]) + sum + Arrays.deepToString(g));
                        g[1] = new double[4];
                """ + PASS_G));
    }

    @Test
    void shallowCopiesShareTheRowsAndTheMapsValues() {
        String lists = "        @NoAlias HashMap<String, ArrayList<Integer>> lists = new HashMap<>();\n";
        String pass = "        try (SJSocket s = svc.request()) { s.pass(lists); }\n";
        assertRejected("SJ048", 20, msg("'copy' holds a copy of the elements of 'lists' on line 18"), PROTOCOL, MORE, BUF,
                run(lists + """
                        Map<String, ArrayList<Integer>> copy = new HashMap<>(lists);
                """ + pass + """
                        copy.get("a").add(9);
                """));
        assertRejected("SJ048", 20, msg("'copy' holds a copy of the elements of 'lists' on line 18"), PROTOCOL, MORE, BUF,
                run(lists + """
                        Map<String, ArrayList<Integer>> copy = Map.copyOf(lists);
                """ + pass + """
                        copy.get("a").add(9);
                """));
        assertRejected("SJ048", 20, msg("'copy' holds a copy of the elements of 'g' on line 18"), PROTOCOL, MORE, BUF,
                run(GRID + """
                        double[][] copy = Arrays.copyOf(g, 3);
                """ + PASS_G + """
                        copy[0][0] = 9;
                """));
        assertRejected("SJ040", 18, msg("@NoAlias 'y' may only hold a unique value", "found 'g.clone()'"),
                PROTOCOL, MORE, BUF, run(GRID + """
                        @NoAlias double[][] y = g.clone();
                """));
        assertRejected("SJ041", 20, msg("@NoAlias 'g' is used after its value was moved into a call of 'arraycopy'",
                "give it a copy of each of its elements (g.clone() would still share them)"), PROTOCOL, MORE, BUF,
                run(GRID + """
                        double[][] copy = new double[3][];
                        System.arraycopy(g, 0, copy, 0, 3);
                """ + PASS_G));
        assertRejected("SJ041", 20, msg("@NoAlias 'rows' is used after its value was moved into a call of 'addAll'"),
                PROTOCOL, MORE, BUF, run("""
                        @NoAlias ArrayList<List<Integer>> rows = new ArrayList<>(List.of(new ArrayList<>(List.of(1))));
                        List<List<Integer>> keep = new ArrayList<>();
                        keep.addAll(rows);
                        try (SJSocket s = svc.request()) { s.pass(rows); }
                """));
    }

    @Test
    void copiesOfElementsThatCannotBeViewsStayNewValues() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        @NoAlias int[] y = a.clone();
                        @NoAlias int[] z = Arrays.copyOf(a, 4);
                        int[] copy = new int[3];
                        System.arraycopy(a, 0, copy, 0, 3);
                        List<Integer> k = new ArrayList<>();
                        k.addAll(x);
                        Map<String, Integer> cm = Map.copyOf(m);
                        try (SJSocket s = ints.request()) { s.pass(a); }
                """ + PASS_M + """
                        try (SJSocket s = svc.request()) { s.pass(x); }
                        copy[0] = 1;
                        System.out.println(k + " " + cm + y.length + z.length);
                """));
    }

    @Test
    void anArrayAMethodReturnsMayBeTheValuesOwn() {
        assertRejected("SJ048", 19, msg("'mine' holds the result of 'data' on line 17", "@NoAlias 'f'"), PROTOCOL, MORE,
                """
                package demo;
                public final class Buf implements java.io.Serializable {
                    final int[] a = new int[1];
                    public Buf set(int v) { a[0] = v; return this; }
                    public int get() { return a[0]; }
                    public int[] data() { return a; }
                }
                """, run("""
                        int[] mine = f.data();
                        try (SJSocket s = bufs.request()) { s.pass(f); }
                        mine[0] = 9;
                """));
    }

    // adv17 A4: the array a buffer view wraps, given back by array()

    @Test
    void theArrayOfABufferViewIsTheValue() {
        assertRejected("SJ048", 19, msg("'y' holds the result of 'wrap' on line 17", "@NoAlias 'a'"), PROTOCOL, MORE, BUF,
                run("""
                        int[] y = java.nio.IntBuffer.wrap(a).array();
                        try (SJSocket s = ints.request()) { s.pass(a); }
                        y[0] = 97;
                """));
    }

    // adv17 A5: a snapshot of a map's entries is a new value; the hint names copies that work

    @Test
    void aSnapshotOfTheEntriesIsANewValue() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> snap = m.entrySet().stream().map(Map.Entry::copyOf).toList();
                        List<AbstractMap.SimpleEntry<String, Integer>> snap2 = m.entrySet().stream()
                                .map(e -> new AbstractMap.SimpleEntry<>(e)).toList();
                        List<Map.Entry<String, Integer>> snap3 = m.entrySet().stream()
                                .map(e -> Map.entry(e.getKey(), e.getValue())).toList();
                """ + PASS_M + """
                        System.out.println(snap + " " + snap2 + snap3);
                """));
        assertRejected("SJ048", 20, msg("'snap' holds a copy of the elements of", "for elements that are views "
                + "themselves, copies of them: map(Map.Entry::copyOf), row.clone())"), PROTOCOL, MORE, BUF, run("""
                        @NoAlias HashMap<String, ArrayList<Integer>> lists = new HashMap<>();
                        List<Map.Entry<String, ArrayList<Integer>>> snap = lists.entrySet().stream().map(Map.Entry::copyOf).toList();
                        try (SJSocket s = svc.request()) { s.pass(lists); }
                        snap.get(0).getValue().add(9);
                """));
    }

    @Test
    void aSnapshotOfTheEntriesGivenToCodeThatKeepsItIsANewValue() {
        // the copy SJ041's own hint suggests, kept through addAll and a field (was SJ041: taken as a copy of views)
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> ko = new ArrayList<>();
                        ko.addAll(m.entrySet().stream().map(Map.Entry::copyOf).toList());
                        ko.addAll(m.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue())).collect(Collectors.toList()));
                """ + PASS_M + """
                        System.out.println(ko);
                """));
        assertRejected("SJ041", 19, msg("through a copy of its elements"), PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> ko = new ArrayList<>();
                        ko.addAll(m.entrySet().stream().toList());
                """ + PASS_M));
    }

    /** adv19 A12: a JDK holder (Optional, AtomicReference, a Reference) of an element holds the element itself. */
    @Test
    void holdersOfTheEntriesHoldTheMapsNodes() {
        assertRejected("SJ048", 19, msg("'t' holds a copy of the elements of"), PROTOCOL, MORE, BUF, run("""
                        List<Optional<Map.Entry<String, Integer>>> t = m.entrySet().stream().map(Optional::of).toList();
                """ + PASS_M + """
                        t.get(0).get().setValue(99);
                """));
        assertRejected("SJ048", 19, msg("'r' holds a copy of the elements of"), PROTOCOL, MORE, BUF, run("""
                        var r = m.entrySet().stream().map(java.util.concurrent.atomic.AtomicReference::new).toList();
                """ + PASS_M + """
                        r.get(0).get().setValue(99);
                """));
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Optional<String>> names = m.keySet().stream().map(Optional::of).toList();
                """ + PASS_M + """
                        System.out.println(names);
                """));
    }

    // adv17 A11: a stream's toArray returns the generator's array

    @Test
    void aStreamsToArrayIsNewOnlyWithANewArrayGenerator() {
        assertRejected("SJ040", 18, msg("@NoAlias 'y' may only hold a unique value", "found 'other.stream().toArray((n)->shared)'"),
                PROTOCOL, MORE, BUF, run("""
                        Integer[] shared = new Integer[3];
                        @NoAlias Integer[] y = other.stream().toArray(n -> shared);
                """));
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        @NoAlias Integer[] y = other.stream().toArray(Integer[]::new);
                        @NoAlias Integer[] z = other.stream().toArray(n -> new Integer[n]);
                        @NoAlias Object[] w = other.stream().toArray();
                        System.out.println(y.length + z.length + w.length);
                """));
    }

    // adv18 A10: a functional value the JDK builds from the program's lambda runs that lambda on the elements

    @Test
    void aLambdaInsideAJdkBuiltFunctionalValueIsReadAsIfGivenDirectly() {
        String keep = "        List<Map.Entry<String, Integer>> keep = new ArrayList<>();\n";
        String[] keeps = {
            "Collections.max(m.entrySet(), Comparator.comparing(e -> { keep.add(e); return e.getKey(); }));",
            "m.entrySet().stream().sorted(Comparator.comparing((Map.Entry<String, Integer> e) -> e.getKey())"
                    + ".thenComparing(e -> keep.add(e))).count();",
            "m.entrySet().stream().filter(Predicate.not(keep::add)).count();",
            "m.entrySet().forEach(((java.util.function.Consumer<Map.Entry<String, Integer>>) e -> { }).andThen(keep::add));",
            "m.entrySet().stream().collect(Collectors.groupingBy(e -> { keep.add(e); return e.getKey(); }));",
            "m.entrySet().stream().collect(Collectors.mapping(e -> e, Collectors.toCollection(() -> keep)));",
        };
        for (String kept : keeps) {
            assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved into"), PROTOCOL, MORE, BUF,
                    run(keep + "        " + kept.replace("Predicate.", "java.util.function.Predicate.") + "\n" + PASS_M));
        }
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        Map.Entry<String, Integer> top = Collections.max(m.entrySet(), Comparator.comparing(e -> e.getValue()));
                        long n = m.entrySet().stream().sorted(Comparator.comparing(Map.Entry<String, Integer>::getKey)
                                .thenComparing(Map.Entry.comparingByValue())).count();
                        System.out.println(top.getKey() + n);
                """ + PASS_M));
    }
}
