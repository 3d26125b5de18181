package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Adversarial pass 14, A1: a method called on a {@code @NoAlias} value may return the value itself or a
 * view of it ({@code append}, {@code subList}, {@code keySet}, {@code iterator}, a fluent setter). Stored
 * in a local, the result is tracked as a view: using it after the value was passed is SJ048; handing it
 * anywhere else moves the value (SJ041 at the pass). Reads and results used in the statement stay
 * accepted.
 */
class NoAliasViewsTest {
    static final String PROTOCOL = """
            package demo;
            import java.util.*;
            import org.sessionj.api.Protocol;
            @Protocol("cbegin.!<Object>") public interface Hand {}
            """;
    static final String MORE = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface More {
                @Protocol("cbegin.!<int[]>") interface Ints {}
                @Protocol("cbegin.!<demo.Buf>") interface Bufs {}
                @Protocol("cbegin.!<double[][]>") interface Grids {}
            }
            """;
    static final String BUF = """
            package demo;
            public final class Buf implements java.io.Serializable {
                final int[] a = new int[1];
                public Buf set(int v) { a[0] = v; return this; }
                public int get() { return a[0]; }
            }
            """;

    /**
     * {@code x} an owned list, {@code b} an owned builder, {@code m} an owned map, {@code a} an owned array, {@code f} a
     * fluent Buf; the statements start on line 17 (shared with NoAliasElementsTest).
     */
    static String run(String statements) {
        return """
                package demo;
                import java.util.*;
                import java.util.stream.*;
                import org.sessionj.api.*;
                class Own {
                    static Object kept;
                    static StringBuilder keep;
                    static void take(Object o) { kept = o; }
                    void run(@Session(protocol = Hand.class) SJService svc, boolean c, List<Integer> other,
                            @Session(protocol = More.Ints.class) SJService ints,
                            @Session(protocol = More.Bufs.class) SJService bufs, @Session(protocol = More.Grids.class) SJService grids) {
                        @NoAlias ArrayList<Integer> x = new ArrayList<>(List.of(1, 2, 3));
                        @NoAlias StringBuilder b = new StringBuilder();
                        @NoAlias HashMap<String, Integer> m = new HashMap<>();
                        @NoAlias int[] a = new int[3];
                        @NoAlias Buf f = new Buf();
                %s
                    }
                }
                """.formatted(statements);
    }

    private static final String PASS_X = "        try (SJSocket s = svc.request()) { s.pass(x); }\n";

    @Test
    void aSubListUsedAfterThePassIsRejected() {
        assertRejected("SJ048", 19, msg("'view' holds the result of 'subList' on line 17, which may be @NoAlias 'x' "
                + "itself or a view of it, and is used after that value was moved into a call of 'pass'"),
                PROTOCOL, MORE, BUF, run("""
                        List<Integer> view = x.subList(0, 1);
                """ + PASS_X + """
                        view.set(0, 99);
                """));
    }

    @Test
    void aBuilderReturnedByAppendUsedAfterThePassIsRejected() {
        assertRejected("SJ048", 19, msg("'alias' holds the result of 'append' on line 17", "@NoAlias 'b'"),
                PROTOCOL, MORE, BUF, run("""
                        StringBuilder alias = b.append("mine");
                        try (SJSocket s = svc.request()) { s.pass(b); }
                        alias.append("+sender-wrote-this");
                """));
    }

    @Test
    void aListIteratorUsedAfterThePassIsRejected() {
        assertRejected("SJ048", 19, msg("'it' holds the result of 'listIterator' on line 17"), PROTOCOL, MORE, BUF, run("""
                        ListIterator<Integer> it = x.listIterator();
                """ + PASS_X + """
                        it.next();
                        it.set(99);
                """));
    }

    @Test
    void aKeySetUsedAfterThePassIsRejected() {
        assertRejected("SJ048", 19, msg("'ks' holds the result of 'keySet' on line 17", "@NoAlias 'm'"), PROTOCOL, MORE, BUF,
                run("""
                        Set<String> ks = m.keySet();
                        try (SJSocket s = svc.request()) { s.pass(m); }
                        ks.clear();
                """));
    }

    @Test
    void aFluentSetterOfTheProgramsOwnClassReturnsTheValue() {
        assertRejected("SJ048", 19, msg("'y' holds the result of 'set' on line 17", "@NoAlias 'f'"), PROTOCOL, MORE, BUF, run("""
                        Buf y = f.set(1);
                        try (SJSocket s = bufs.request()) { s.pass(f); }
                        y.set(2);
                """));
    }

    @Test
    void aResultStoredInAStaticFieldMovesTheValue() {
        assertRejected("SJ041", 18, msg("@NoAlias 'b' is used after its value was moved into 'keep' (as the result "
                + "of 'append', which may be the value itself or a view of it) on line 17"), PROTOCOL, MORE, BUF, run("""
                        keep = b.append(1).append(2);
                        try (SJSocket s = svc.request()) { s.pass(b); }
                        keep.append(3);
                """));
    }

    @Test
    void aViewThroughATernaryIsAView() {
        assertRejected("SJ048", 19, msg("'v' holds the result of 'subList' on line 17"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> v = c ? x.subList(0, 1) : other;
                """ + PASS_X + """
                        v.clear();
                """));
    }

    @Test
    void aViewInALocalOfTypeObjectIsAView() {
        assertRejected("SJ048", 19, msg("'o' holds the result of 'subList' on line 17"), PROTOCOL, MORE, BUF, run("""
                        Object o = x.subList(0, 1);
                """ + PASS_X + """
                        take(o);
                """));
    }

    @Test
    void aViewCopiedIntoAnotherLocalIsAViewToo() {
        assertRejected("SJ048", 20, msg("'w' holds the result of 'subList' on line 17"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> v = x.subList(0, 1);
                        List<Integer> w = v;
                """ + PASS_X + """
                        w.clear();
                """));
    }

    @Test
    void aViewCapturedByALambdaMovesTheValueIntoIt() {
        assertRejected("SJ041", 19, msg("@NoAlias 'x' is used after its value was moved into a lambda (through 'view'"),
                PROTOCOL, MORE, BUF, run("""
                        List<Integer> view = x.subList(0, 1);
                        Runnable r = () -> view.set(0, 99);
                """ + PASS_X + """
                        r.run();
                """));
    }

    @Test
    void aViewGivenToAMethodMovesTheValueIntoIt() {
        assertRejected("SJ041", 19, msg("@NoAlias 'x' is used after its value was moved into a call of 'take' through "
                + "'view' (the result of 'subList' on line 17"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> view = x.subList(0, 1);
                        take(view);
                """ + PASS_X));
    }

    @Test
    void aViewGivenDirectlyToAMethodMovesTheValueIntoIt() {
        assertRejected("SJ041", 18, msg("@NoAlias 'x' is used after its value was moved into a call of 'take' (as "
                + "the result of 'listIterator'", "if that call should not own the value"), PROTOCOL, MORE, BUF, run("""
                        take(x.listIterator());
                """ + PASS_X));
    }

    @Test
    void aViewAssignedLaterIsAViewToo() {
        assertRejected("SJ048", 20, msg("'v' holds the result of 'subList' on line 18"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> v = null;
                        v = x.subList(0, 2);
                """ + PASS_X + """
                        v.size();
                """));
    }

    @Test
    void aViewOfAValueMovedOnOnePathIsMovedAfterTheJoin() {
        assertRejected("SJ048", 19, msg("'it' holds the result of 'iterator' on line 17"), PROTOCOL, MORE, BUF, run("""
                        Iterator<Integer> it = x.iterator();
                        if (c) { try (SJSocket s = svc.request()) { s.pass(x); } }
                        it.next();
                """));
    }

    @Test
    void aStreamOfAnArrayStoredAndUsedAfterThePassIsRejected() {
        assertRejected("SJ048", 19, msg("'st' holds the result of 'stream' on line 17", "@NoAlias 'a'"), PROTOCOL, MORE, BUF,
                run("""
                        IntStream st = Arrays.stream(a);
                        try (SJSocket s = ints.request()) { s.pass(a); }
                        int sum = st.sum();
                """));
    }

    @Test
    void naturalReadsAndResultsUsedInTheStatementAreAccepted() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int n = x.size();
                        Integer first = x.get(0);
                        String text = b.toString();
                        b.append(1);
                        b.append(1).append(2);
                        x.subList(0, 1).clear();
                        int sum = Arrays.stream(a).sum() + x.stream().mapToInt(i -> i).sum();
                        List<Integer> copy = x.stream().map(i -> i + 1).collect(Collectors.toList());
                        String listed = String.valueOf(x.subList(0, 1));
                        for (Map.Entry<String, Integer> e : m.entrySet()) { n += e.getValue(); }
                        Object cloned = x.clone();
                        int got = f.set(3).get();
                        Iterator<Integer> it = x.iterator();
                        while (it.hasNext()) { n += it.next(); }
                """ + PASS_X + """
                        n += copy.size() + cloned.hashCode() + first + text.length() + listed.length() + got;
                """));
    }

    @Test
    void aViewUsedBeforeThePassAndNeverAfterIsAccepted() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Integer> view = x.subList(0, 1);
                        view.set(0, 7);
                """ + PASS_X));
    }

    @Test
    void aViewOfTheOldValueIsFineOnceTheVariableHoldsANewOne() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Integer> view = x.subList(0, 1);
                        x = new ArrayList<>();
                """ + PASS_X + """
                        view.set(0, 7);
                """));
    }

    @Test
    void aViewAssignedAnotherValueIsNoLongerAView() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Integer> view = x.subList(0, 1);
                        view = other;
                """ + PASS_X + """
                        view.clear();
                """));
    }

    @Test
    void aViewsReceiverMovedByAnArgumentIsUsedAfterTheMove() {
        assertRejected("SJ041", 18, msg("@NoAlias 'x' is used after its value was moved into a call of 'own'"),
                PROTOCOL, MORE, BUF, run("""
                        x.subList(0, 1).set(0, own(x));
                """).replace("void run(", "static int own(@NoAlias Object o) { return 0; }\n    void run("));
    }

    @Test
    void aLoopOverAViewGoesOnOverAMovedValue() {
        assertRejected("SJ041", 17, msg("the enhanced for loop on line 17 reads its next element"), PROTOCOL, MORE, BUF,
                run("""
                        for (Integer v : x.subList(0, 2)) {
                            try (SJSocket s = svc.request()) { s.pass(x); }
                            x = new ArrayList<>();
                        }
                """));
    }

    @Test
    void aViewThroughASwitchExpressionIsAView() {
        assertRejected("SJ048", 22, msg("'v' holds the result of 'subList' on line 18"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> v = switch (other.size()) {
                            case 0 -> x.subList(0, 1);
                            default -> other;
                        };
                """ + PASS_X + """
                        v.clear();
                """));
    }

    @Test
    void aViewBoundToAMethodReferenceMovesTheValue() {
        assertRejected("SJ041", 19, msg("moved into a bound method reference through 'view'"), PROTOCOL, MORE, BUF,
                run("""
                        List<Integer> view = x.subList(0, 1);
                        Runnable r = view::clear;
                """ + PASS_X));
    }

    @Test
    void aViewOfAValueMovedInAnEarlierIterationIsUsedAfterTheMove() {
        assertRejected("SJ048", 19, msg("'v' holds the result of 'subList' on line 20"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> v = null;
                        for (int i = 0; i < 2; i++) {
                            if (i > 0) v.clear();
                            v = x.subList(0, 1);
                            try (SJSocket s = svc.request()) { s.pass(x); }
                            x = new ArrayList<>();
                        }
                """));
    }

    @Test
    void aViewOfAnotherObjectsNoAliasFieldIsAWholeValueRead() {
        assertRejected("SJ043", 6, msg("@NoAlias field 'data' can only be read through"), """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Holder {
                    @NoAlias ArrayList<Integer> data = new ArrayList<>();
                    static List<Integer> peek(Holder other) { List<Integer> v = other.data.subList(0, 1); return v; }
                }
                """);
    }

    @Test
    void aViewOfTheClassesOwnFieldEndsWhenTheFieldIsPassed() {
        assertRejected("SJ048", 12, msg("'head' holds the result of 'subList' on line 8", "@NoAlias 'data'"),
                PROTOCOL, """
                package demo;
                import java.util.*;
                import org.sessionj.api.*;
                class Holder {
                    @NoAlias ArrayList<Integer> data = new ArrayList<>();
                    void send(@Session(protocol = Hand.class) SJService svc) {
                        @NoAlias ArrayList<Integer> next = new ArrayList<>();
                        List<Integer> head = data.subList(0, 0);
                        try (SJSocket s = svc.request()) {
                            try { s.pass(data); } finally { data = next; }
                        }
                        head.clear();
                    }
                }
                """);
    }

    // adv16 A1: an element read by an enhanced for is a view as the same element read by next() is.

    @Test
    void anEntryOfEntrySetKeptFromAnEnhancedForIsAView() {
        assertRejected("SJ048", 20, msg("'keep' holds an element of 'm.entrySet()' read by the enhanced for loop on"
                + " line 18", "@NoAlias 'm'"), PROTOCOL, MORE, BUF, run("""
                        Map.Entry<String, Integer> keep = null;
                        for (Map.Entry<String, Integer> e : m.entrySet()) keep = e;
                        try (SJSocket s = svc.request()) { s.pass(m); }
                        keep.setValue(99);
                """));
    }

    @Test
    void theLoopVariableItselfUsedAfterThePassIsRejected() {
        assertRejected("SJ048", 19, msg("'e' holds an element of 'm.entrySet()'"), PROTOCOL, MORE, BUF, run("""
                        for (Map.Entry<String, Integer> e : m.entrySet()) {
                            try (SJSocket s = svc.request()) { s.pass(m); }
                            e.setValue(3);
                            break;
                        }
                """));
    }

    @Test
    void aViewAssignedInALoopIsStillAViewAfterIt() {
        assertRejected("SJ048", 20, msg("'keep' holds the result of 'entrySet' on line 18"), PROTOCOL, MORE, BUF, run("""
                        Map.Entry<String, Integer> keep = null;
                        while (c) { keep = m.entrySet().iterator().next(); c = false; }
                        try (SJSocket s = svc.request()) { s.pass(m); }
                        keep.setValue(99);
                """));
    }

    @Test
    void elementsThatCannotBeViewsAndReadsInTheLoopAreAccepted() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        int sum = 0;
                        for (Integer v : x) sum += v;
                        for (Map.Entry<String, Integer> e : m.entrySet()) e.setValue(e.getValue() + 1);
                        for (String k : m.keySet()) System.out.println(k);
                        for (int v : a) sum += v;
                        try (SJSocket s = svc.request()) { s.pass(m); }
                """ + PASS_X));
    }

    // adv16 A3: a JDK copy of elements that may be views (a map's entries) holds the same entries.

    @Test
    void aCopyOfEntrySetIsAView() {
        for (String copy : new String[] {"List<Map.Entry<String, Integer>> es = new ArrayList<>(m.entrySet());",
                "Object[] es = m.entrySet().toArray();", "List<Map.Entry<String, Integer>> es = m.entrySet().stream().toList();",
                "List<Map.Entry<String, Integer>> es = List.copyOf(m.entrySet());"}) {
            assertRejected("SJ048", 19, msg("'es' holds a copy of the elements of 'm.entrySet()", "@NoAlias 'm'"),
                    PROTOCOL, MORE, BUF, run("        " + copy + "\n" + """
                            try (SJSocket s = svc.request()) { s.pass(m); }
                            System.out.println(es);
                    """));
        }
    }

    @Test
    void copiesOfElementsThatCannotBeViewsAreNewValues() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Integer> copy = new ArrayList<>(x);
                        Object[] arr = x.toArray();
                        List<Integer> l2 = List.copyOf(x);
                        List<Integer> l3 = x.stream().toList();
                        Map<String, Integer> m2 = new HashMap<>(m);
                        Set<String> keys = new HashSet<>(m.keySet());
                """ + PASS_X + """
                        try (SJSocket s = svc.request()) { s.pass(m); }
                        copy.add(3); m2.put("b", 2); keys.add("c");
                        System.out.println(arr[0] + " " + l2 + l3);
                """));
    }

    // adv16 A2: an inner class of the value's class keeps the value.

    @Test
    void anInnerClassInstanceOfTheValueIsAView() {
        String grid = """
                package demo;
                public class Grid {
                    public int[] cells = new int[4];
                    public class Row { public void set(int i, int v) { cells[i] = v; } }
                    public static class Cell { public int v; }
                    public Row row() { return new Row(); }
                    public Cell cell() { return new Cell(); }
                }
                """;
        String use = """
                package demo;
                import org.sessionj.api.*;
                class UseGrid {
                    void run(@Session(protocol = Grids.class) SJService svc) {
                        @NoAlias Grid g = new Grid();
                        Grid.Row r = g.row();
                        Grid.Cell cell = g.cell();
                        r.set(1, 2);
                        try (SJSocket s = svc.request()) { s.pass(g); }
                        cell.v = 3;
                        r.set(0, 99);
                    }
                }
                """;
        String protocol = """
                package demo;
                import org.sessionj.api.Protocol;
                @Protocol("cbegin.!<demo.Grid>") public interface Grids {}
                """;
        assertRejected("SJ048", 11, msg("'r' holds the result of 'row' on line 6", "@NoAlias 'g'"), use, protocol, grid);
    }

    // adv16 A11: the JDK's fill, reorder and read methods borrow their argument.

    @Test
    void fillingOrReorderingWithTheJdkIsARead() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        java.util.Collections.sort(x);
                        java.util.Collections.reverse(x);
                        java.util.Collections.addAll(x, 4, 5);
                        other.addAll(x);
                        other.containsAll(x);
                        int max = java.util.Collections.max(x);
                """ + PASS_X));
        assertAccepted(PROTOCOL, MORE, BUF, """
                package demo;
                import java.io.*;
                import org.sessionj.api.*;
                class Fill {
                    void run(@Session(protocol = More.Ints.class) SJService svc, InputStream in, DataInputStream din,
                            java.nio.ByteBuffer bb, Reader r) throws IOException {
                        @NoAlias byte[] buf = new byte[64];
                        int n = in.read(buf);
                        in.readNBytes(buf, 0, 4);
                        din.readFully(buf);
                        new java.security.SecureRandom().nextBytes(buf);
                        bb.get(buf);
                        @NoAlias char[] cs = new char[3];
                        r.read(cs);
                        "abc".getChars(0, 3, cs, 0);
                        @NoAlias int[] ints = new int[] {buf[0]};
                        try (SJSocket s = svc.request()) { s.pass(ints); }
                    }
                }
                """);
    }

    @Test
    void storingTheValueInACollectionIsStillAMove() {
        assertRejected("SJ041", 19, msg("@NoAlias 'x' is used after its value was moved into a call of 'add'"),
                PROTOCOL, MORE, BUF, run("""
                        List<Object> all = new ArrayList<>();
                        all.add(x);
                """ + PASS_X));
    }

    // adv16 A12: a stream's or a collection's new collection is a unique value; not one of a map's entries.

    @Test
    void aCollectionAStreamMakesInitialisesANoAliasLocal() {
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        @NoAlias ArrayList<Integer> y = other.stream().filter(v -> v > 0)
                                .collect(Collectors.toCollection(ArrayList::new));
                        @NoAlias ArrayList<Integer> z = other.stream().collect(Collectors.toCollection(() -> new ArrayList<>()));
                        @NoAlias List<Integer> l = other.stream().toList();
                        @NoAlias List<Integer> w = other.stream().collect(Collectors.toList());
                        @NoAlias Object[] arr = other.stream().toArray();
                        try (SJSocket s = svc.request()) { s.pass(y); }
                """));
        assertRejected("SJ040", 18, msg("@NoAlias 'es' may only hold a unique value", "found 'm.entrySet().stream().toList()'"),
                PROTOCOL, MORE, BUF, run("""
                        ArrayList<Integer> shared = new ArrayList<>();
                        @NoAlias List<Map.Entry<String, Integer>> es = m.entrySet().stream().toList();
                """));
        assertRejected("SJ040", 18, msg("found 'other.stream().collect(Collectors.toCollection(()->shared))'"),
                PROTOCOL, MORE, BUF, run("""
                        ArrayList<Integer> shared = new ArrayList<>();
                        @NoAlias ArrayList<Integer> y = other.stream().collect(Collectors.toCollection(() -> shared));
                """));
    }

    // adv16 A17: an enhanced for over a view local reads through it on every round.

    @Test
    void anEnhancedForOverAViewLocalEndsWithTheValuesMove() {
        assertRejected("SJ048", 18, msg("'h' holds the result of 'subList' on line 17", "(the enhanced for loop on line 18"
                + " reads its next element through it)"), PROTOCOL, MORE, BUF, run("""
                        List<Integer> h = x.subList(0, 3);
                        for (Integer v : h) {
                            if (v == 1) { try (SJSocket s = svc.request()) { s.pass(x); } x = new ArrayList<>(); }
                        }
                """));
        assertAccepted(PROTOCOL, MORE, BUF, run("""
                        List<Integer> h = x.subList(0, 3);
                        for (Integer v : h) {
                            if (v == 1) { try (SJSocket s = svc.request()) { s.pass(x); } break; }
                        }
                """));
    }
}
