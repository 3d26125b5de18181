package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A11's rest: under a caller's broad catch that goes on (adv18 A12), every JDK call between two actions of a
 * plain local session counts as a failure unless it cannot fail. The everyday methods of a concrete JDK collection
 * ({@code items.add("x")}, {@code items.size()}, {@code m.get("k")}, {@code m.put("i", i)} on an {@code ArrayList} or
 * a {@code HashMap}) cannot: they take no index, refuse no element and run no code but the looked-up argument's
 * {@code hashCode}/{@code equals}. They were SJ024 (programs F09, F20, F21). What can fail still counts: an index
 * ({@code get(int)}), an empty deque's {@code pop()}, {@code add} on a {@code List} (it may be unmodifiable), a
 * {@code TreeMap} (its comparator), a key of the program's class (its {@code hashCode} is the program's code).
 */
class JdkCollectionCallsTest {
    private static String client(String statement) {
        return """
                import java.util.*;
                import java.util.concurrent.*;
                import org.sessionj.api.*;
                class A {
                  record Key(String name) {}
                  enum Color { RED, GREEN }
                  static final Key KEY = new Key("k");
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static void main(@Session(protocol = Pair.class) SJService svc, int n) {
                    try {
                      client(svc, n);
                    } catch (Exception e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                  static void client(@Session(protocol = Pair.class) SJService svc, int n) {
                    SJSocket a = svc.request();
                    a.send(n);
                    %s
                    a.send(v);
                    a.close();
                  }
                }
                """.formatted(statement);
    }

    private static void rejectedAt(String call, String statement) {
        assertRejected("SJ024", 11, msg("session 'a' is not complete if, in 'client', the call of '" + call
                + "' on line 19 throws an unchecked exception, which leaves 'client' and comes out of the call on line"
                + " 11, where the catch on line 12 takes it and goes on"), client(statement));
    }

    /** adv20 F20, F21, F09: a list's add and size, a map's get and put. */
    @Test
    void theEverydayMethodsOfAConcreteCollectionCannotFail() {
        assertAccepted(client("ArrayList<String> items = new ArrayList<>(); items.add(\"x\"); int v = items.size();"));
        assertAccepted(client("HashMap<String, Integer> m = new HashMap<>(); Integer g = m.get(\"k\");"
                + " int v = g == null ? 0 : 1;"));
        assertAccepted(client("HashMap<String, Integer> m = new HashMap<>(); m.put(\"i\", n); int v = m.size();"));
        assertAccepted(client("HashSet<Integer> seen = new HashSet<>(); seen.add(n); int v = seen.contains(n) ? 1 : 0;"));
        assertAccepted(client("ArrayDeque<String> q = new ArrayDeque<>(); q.offer(\"x\"); String p = q.poll();"
                + " int v = q.isEmpty() ? 0 : 1;"));
        assertAccepted(client("ConcurrentHashMap<Long, String> m = new ConcurrentHashMap<>(); m.putIfAbsent(1L, \"x\");"
                + " int v = m.containsKey(1L) ? 1 : 0;"));
    }

    /** What a collection only stores may be the program's; an enum key's hashCode and equals are Enum's, final. */
    @Test
    void aStoredValueOfTheProgramOrAnEnumKeyRunsNoCodeOfIt() {
        assertAccepted(client("ArrayList<Key> keys = new ArrayList<>(); keys.add(KEY); int v = keys.size();"));
        assertAccepted(client("HashMap<String, Key> m = new HashMap<>(); m.put(\"k\", KEY); int v = m.size();"));
        assertAccepted(client("HashMap<Color, Integer> m = new HashMap<>();"
                + " m.put(Color.RED, n); int v = m.getOrDefault(Color.GREEN, 0);"));
    }

    /** An index, an empty deque, a list that may be unmodifiable, a comparator, a key of the program's class count. */
    @Test
    void whatCanFailOrRunTheProgramsCodeStillCounts() {
        rejectedAt("get", "ArrayList<Integer> items = new ArrayList<>(); int v = items.get(0);");
        rejectedAt("remove", "ArrayList<Integer> items = new ArrayList<>(); int v = items.remove(0);");
        rejectedAt("pop", "ArrayDeque<Integer> q = new ArrayDeque<>(); int v = q.pop();");
        rejectedAt("add", "List<Integer> items = List.of(); items.add(n); int v = 1;");
        rejectedAt("put", "TreeMap<String, Integer> m = new TreeMap<>(); m.put(\"k\", n); int v = 1;");
        rejectedAt("get", "HashMap<Key, Integer> m = new HashMap<>(); Integer g = m.get(KEY); int v = g == null ? 0 : 1;");
    }
}
