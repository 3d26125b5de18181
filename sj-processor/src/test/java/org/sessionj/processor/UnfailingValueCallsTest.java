package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv21 B11: under a caller's broad catch that goes on (adv18 A12), every JDK call between two actions of a plain local
 * session counts as a failure unless it cannot fail. The queries and factories of the JDK's value classes that take no
 * index, count, range, pattern or function, unwrap no empty value and do not overflow can fail by a null check only
 * ({@code o.orElse("d")}, {@code Arrays.toString(arr)}, {@code Duration.ofSeconds(5)}, {@code Map.of("k", 1)}), and were
 * SJ024. Each has a twin that still counts: the form that unwraps, takes a range, refuses an invalid code point,
 * overflows or refuses a duplicate.
 */
class UnfailingValueCallsTest {
    /** {@code statement} declares {@code Object v}, sent after it. */
    private static String client(String statement) {
        return """
                import java.util.*;
                import java.time.*;
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<Object>") interface Pair {}
                  static void main(@Session(protocol = Pair.class) SJService svc, int n) {
                    try {
                      client(svc, n, Optional.of("x"), "text", new int[] {1}, 'c');
                    } catch (Exception e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                  static void client(@Session(protocol = Pair.class) SJService svc, int n, Optional<String> o,
                      String text, int[] arr, char c) {
                    SJSocket a = svc.request();
                    a.send(n);
                    %s
                    a.send(v);
                    a.close();
                  }
                }
                """.formatted(statement);
    }

    private static void assertCounted(String statement) {
        assertRejected("SJ024", 8, msg("session 'a' is not complete if, in 'client', the call of"), client(statement));
    }

    @Test
    void optionalQueriesAndFactoriesCannotFail() {
        assertAccepted(client("Object v = o.orElse(\"d\");"));
        assertAccepted(client("Object v = o.isPresent() || o.isEmpty();"));
        assertAccepted(client("Object v = Optional.ofNullable(text);"));
        assertAccepted(client("Object v = OptionalInt.of(n);"));
    }

    @Test
    void unwrappingAnOptionalStillCounts() {
        assertCounted("Object v = o.get();");
        assertCounted("Object v = o.orElseThrow();");
    }

    @Test
    void objectsNullChecksCannotFail() {
        assertAccepted(client("Object v = Objects.requireNonNullElse(text, \"d\");"));
        assertAccepted(client("Object v = Objects.requireNonNull(text, \"text\");"));
    }

    @Test
    void objectsIndexChecksStillCount() {
        assertCounted("Object v = Objects.checkIndex(n, 3);");
    }

    @Test
    void arraysOfWholeArraysCannotFail() {
        assertAccepted(client("Object v = Arrays.toString(arr);"));
        assertAccepted(client("Object v = Arrays.equals(arr, new int[] {1}) && Arrays.hashCode(arr) > 0;"));
        assertAccepted(client("Object v = Arrays.asList(\"a\", \"b\");"));
    }

    @Test
    void arraysOfARangeStillCount() {
        assertCounted("Object v = Arrays.equals(arr, 0, n, arr, 0, 1);");
        assertCounted("Object v = Arrays.copyOfRange(arr, 0, n);");
    }

    @Test
    void characterClassificationsAndCaseMappingsCannotFail() {
        assertAccepted(client("Object v = Character.toUpperCase(c);"));
        assertAccepted(client("Object v = Character.isDigit(c) || Character.isLetter(c);"));
        assertAccepted(client("Object v = Character.toString(c) + Character.valueOf(c);"));
    }

    @Test
    void aCodePointToStringStillCounts() {
        assertCounted("Object v = Character.toString(n);");
    }

    @Test
    void durationsThatCannotOverflowCannotFail() {
        assertAccepted(client("Object v = Duration.ofSeconds(5);"));
        assertAccepted(client("Object v = Duration.ofMillis(n).getSeconds();"));
    }

    @Test
    void durationsThatMayOverflowStillCount() {
        assertCounted("Object v = Duration.ofMinutes(n);");
        assertCounted("Object v = Duration.ofSeconds(n).toMillis();");
    }

    @Test
    void immutableCollectionsOfOneKeyCannotFail() {
        assertAccepted(client("Object v = Map.of(\"k\", 1);"));
        assertAccepted(client("Object v = List.of(\"a\", text);"));
        assertAccepted(client("Object v = Set.of(text);"));
    }

    @Test
    void immutableCollectionsThatMayMeetADuplicateStillCount() {
        assertCounted("Object v = Map.of(\"k\", 1, text, 2);");
        assertCounted("Object v = Set.of(\"k\", text);");
    }

    /** A receiver or argument that may be the program's runs program code: counted, whatever the method. */
    @Test
    void anArgumentOfTheProgramStillCounts() {
        assertCounted("Object v = Arrays.toString(new Object[] {o});");
    }
}
