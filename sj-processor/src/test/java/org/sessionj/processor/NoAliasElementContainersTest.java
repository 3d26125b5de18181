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
 * Containers the program holds that a JDK call on a {@code @NoAlias} value fills with its elements (adv18 A1, A2):
 * a stream's {@code collect} into the collection a supplier returns, a collection's {@code toArray(T[])} into the
 * array it is given, the accumulator of a three-argument {@code collect}. Each writes the map's own nodes into the
 * program's container, which the program can change after the value was passed (confirmed at run time: the peer's
 * map changed). Collecting into a container the call makes stays a copy that is followed (SJ048).
 */
class NoAliasElementContainersTest {
    private static final String PASS_M = "        try (SJSocket s = svc.request()) { s.pass(m); }\n";
    private static final String KEEP = "        List<Map.Entry<String, Integer>> keep = new ArrayList<>();\n";

    @Test
    void aCollectorsSupplierThatReturnsTheProgramsCollectionKeepsTheEntries() {
        assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved into the collection the supplier "
                + "'()->keep' of 'toCollection' returns given its elements by 'collect' (they may be views of it)"),
                PROTOCOL, MORE, BUF, run(KEEP + """
                        m.entrySet().stream().collect(Collectors.toCollection(() -> keep));
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into the map the supplier '()->byKey' of 'groupingBy' returns"),
                PROTOCOL, MORE, BUF, run("""
                        Map<String, List<Map.Entry<String, Integer>>> byKey = new HashMap<>();
                        m.entrySet().stream().collect(Collectors.groupingBy(Map.Entry::getKey, () -> byKey, Collectors.toList()));
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into the collection the supplier '()->keep' of 'collect' returns"),
                PROTOCOL, MORE, BUF, run(KEEP + """
                        m.entrySet().stream().collect(() -> keep, List::add, List::addAll);
                """ + PASS_M));
    }

    @Test
    void aCollectorsLambdaThatKeepsAnEntryMovesTheValue() {
        assertRejected("SJ041", 19, msg("moved into a lambda (its parameter 'e' goes into a call of 'add' on line 18) "
                + "given its elements by 'collect'"), PROTOCOL, MORE, BUF, run(KEEP + """
                        m.entrySet().stream().collect(Collectors.toMap(e -> e.getKey(), e -> keep.add(e)));
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into the collector 'mine' (code the checker does not read"),
                PROTOCOL, MORE, BUF, run("""
                        Collector<Map.Entry<String, Integer>, ?, List<Map.Entry<String, Integer>>> mine = Collectors.toList();
                        m.entrySet().stream().collect(mine);
                """ + PASS_M));
    }

    @Test
    void toArrayIntoTheProgramsArrayKeepsTheEntries() {
        assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved into the array 'keep' "
                + "('toArray' stores the elements into the array it is given when they fit)"), PROTOCOL, MORE, BUF, run("""
                        Object[] keep = new Object[4];
                        m.entrySet().toArray(keep);
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into the array the generator '(n)->shared' of 'toArray' returns"),
                PROTOCOL, MORE, BUF, run("""
                        Object[] shared = new Object[4];
                        m.entrySet().toArray(n -> shared);
                """ + PASS_M));
        assertRejected("SJ041", 19, msg("moved into the array 'rows' ('toArray' stores"), PROTOCOL, MORE, BUF, run("""
                        @NoAlias ArrayList<int[]> lists = new ArrayList<>(List.of(new int[1])); int[][] rows = new int[1][];
                        lists.toArray(rows);
                        try (SJSocket s = svc.request()) { s.pass(lists); }
                """));
    }

    @Test
    void containersTheCallMakesAreCopiesThatAreFollowed() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> a1 = m.entrySet().stream().collect(Collectors.toCollection(ArrayList::new));
                        List<Map.Entry<String, Integer>> b1 = m.entrySet().stream().collect(ArrayList::new, ArrayList::add, ArrayList::addAll);
                        List<Map.Entry<String, Integer>> c2 = m.entrySet().stream().collect(ArrayList::new, (l, e) -> l.add(e), (l, r) -> l.addAll(r));
                        Object[] d = m.entrySet().toArray(new Object[0]);
                        Map.Entry<?, ?>[] e2 = m.entrySet().toArray(Map.Entry[]::new);
                        Map<String, List<Map.Entry<String, Integer>>> g = m.entrySet().stream().collect(
                                Collectors.groupingBy(Map.Entry::getKey, HashMap::new, Collectors.toList()));
                        List<Integer> counts = new ArrayList<>();
                        x.stream().collect(Collectors.toCollection(() -> counts));
                        System.out.println(a1.size() + b1.size() + c2.size() + d.length + e2.length + g.size());
                """ + PASS_M));
        assertRejected("SJ048", 19, msg("'b1' holds a copy of the elements of"), PROTOCOL, MORE, BUF, run("""
                        List<Map.Entry<String, Integer>> b1 = m.entrySet().stream().collect(ArrayList::new, ArrayList::add, ArrayList::addAll);
                """ + PASS_M + """
                        b1.get(0).setValue(99);
                """));
    }

    @Test
    void anUnboundMethodReferenceGivenAnElementAsItsArgumentKeepsIt() {
        assertRejected("SJ041", 19, msg("moved into the method reference 'Holder::with' given its elements by 'reduce'"),
                PROTOCOL, MORE, BUF, run("""
                        class Holder { final List<Object> l = new ArrayList<>(); Holder with(Object e) { l.add(e); return this; } }
                        Holder h = m.entrySet().stream().reduce(new Holder(), Holder::with, (p, q) -> p);
                """ + PASS_M));
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        StringBuilder text = m.entrySet().stream().reduce(new StringBuilder(), StringBuilder::append, StringBuilder::append);
                        Optional<String> key = m.entrySet().stream().map(Map.Entry::getKey).reduce(String::concat);
                        System.out.println(text + key.orElse(""));
                """ + PASS_M));
    }

    // adv18 A5: a copy whose elements may be views, used within its statement

    @Test
    void aCopyOfTheEntriesGivenToCodeThatKeepsItsElementsMovesTheValue() {
        String[] stores = {
            "Collections.copy(keep, new ArrayList<>(m.entrySet()));",
            "keep.addAll(new ArrayList<>(m.entrySet()));",
            "keep.addAll(Set.copyOf(m.entrySet()));",
            "keep.addAll(Collections.unmodifiableList(new ArrayList<>(m.entrySet())));",
            "keep.addAll(m.entrySet().stream().sorted(Map.Entry.comparingByValue()).collect(Collectors.toList()));",
            "keep.addAll(m.entrySet().stream().toList());",
            "Own.kept = new ArrayList<>(m.entrySet());",
            "Own.take(List.copyOf(m.entrySet()));",
        };
        for (String store : stores) {
            assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved"), PROTOCOL, MORE, BUF,
                    run(KEEP + "        keep.add(Map.entry(\"z\", 0)); " + store + "\n" + PASS_M));
        }
        assertRejected("SJ041", 19, msg("@NoAlias 'm' is used after its value was moved"), PROTOCOL, MORE, BUF, run("""
                        Object[] keep = new Object[1];
                        System.arraycopy(m.entrySet().toArray(), 0, keep, 0, 1);
                """ + PASS_M));
    }

    @Test
    void aCopyOfTheEntriesThatIsOnlyReadOrKeptInALocalStaysACopy() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int n = new ArrayList<>(m.entrySet()).size() + List.copyOf(m.entrySet()).size()
                                + m.entrySet().stream().toList().size();
                        System.out.println(n + " " + new ArrayList<>(m.entrySet()) + String.valueOf(List.copyOf(m.entrySet())));
                        List<Map.Entry<String, Integer>> local = new ArrayList<>(m.entrySet());
                        List<Integer> counts = new ArrayList<>();
                        counts.addAll(new ArrayList<>(m.values()));
                        System.out.println(local.size());
                """ + PASS_M));
    }
}
