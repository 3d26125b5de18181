package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv21 B9: a session inside a method that Java or the JDK calls where the source shows no call — a resource's
 * {@code close()}, an {@code Iterable}'s {@code iterator()}, a record pattern's accessor, {@code toString()} of a
 * concatenation's operand or of an object given to {@code String.valueOf}/{@code append}, {@code hashCode()} of a key
 * given to a {@code HashSet}, {@code compareTo} by {@code Collections.sort} — carried no unchecked exit to the caller's
 * catch, and the peer waited. A call Java or the JDK makes on a program object is a call of that method now: SJ024 at
 * the place that makes it. The corrected twin (the session in try-with-resources) compiles for each.
 */
class ImplicitCallExitsTest {
    private static String program(String caught, String driver, String type) {
        return """
                import java.time.LocalDate;
                import java.time.format.DateTimeParseException;
                import java.util.*;
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
                  static void run(String input) {
                    try {
                      %s
                    } catch (%s e) {
                      System.out.println("bad, next");
                    }
                  }
                  %s
                  static void book(String input) {
                    SJSocket s = SJService.create(Booking.class, "localhost", 1).request();
                    s.send(1);
                    s.send(LocalDate.parse(input));
                    s.close();
                  }
                }
                """.formatted(driver, caught, type);
    }

    private static void assertImplicitExit(String caught, String driver, String type) {
        String source = program(caught, driver, type);
        assertRejected("SJ024", 9, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 18 throws",
                "comes out of the call on line 9, where the catch on line 10 takes it and goes on"), source);
        assertAccepted(source.replace("SJSocket s = SJService.create(Booking.class, \"localhost\", 1).request();",
                "try (SJSocket s = SJService.create(Booking.class, \"localhost\", 1).request()) {")
                .replace("s.close();", "}"));
    }

    @Test
    void aResourcesCloseCarriesItsExit() {
        assertImplicitExit("DateTimeParseException", "try (Res r = new Res(input)) { System.out.println(\"using\"); }",
                "record Res(String in) implements AutoCloseable { public void close() { book(in); } }");
    }

    @Test
    void anIterablesIteratorCarriesItsExit() {
        assertImplicitExit("DateTimeParseException", "for (String x : new Src(input)) { System.out.println(x); }",
                "record Src(String in) implements Iterable<String> { public Iterator<String> iterator() "
                        + "{ book(in); return List.<String>of().iterator(); } }");
    }

    @Test
    void aRecordPatternsAccessorCarriesItsExit() {
        assertImplicitExit("RuntimeException", "Object o = new Pt(input); if (o instanceof Pt(String w)) { System.out.println(w); }",
                "record Pt(String in) { public String in() { book(in); return in; } }");
    }

    @Test
    void toStringByConcatenationCarriesItsExit() {
        assertImplicitExit("DateTimeParseException", "String t = \"r: \" + new Lazy(input); System.out.println(t);",
                Lazy.TYPE);
    }

    @Test
    void toStringByValueOfOrAppendCarriesItsExit() {
        assertImplicitExit("DateTimeParseException", "String t = String.valueOf(new Lazy(input)); System.out.println(t);",
                Lazy.TYPE);
        assertImplicitExit("DateTimeParseException", "StringBuilder b = new StringBuilder(); b.append(new Lazy(input));",
                Lazy.TYPE);
    }

    @Test
    void hashCodeByAHashSetCarriesItsExit() {
        assertImplicitExit("DateTimeParseException", "Set<Key> keys = new HashSet<>(); keys.add(new Key(input));",
                "record Key(String in) { public int hashCode() { book(in); return 1; } }");
    }

    @Test
    void compareToBySortCarriesItsExit() {
        assertImplicitExit("DateTimeParseException", "List<Key> keys = new ArrayList<>(); keys.add(new Key(input)); Collections.sort(keys);",
                "record Key(String in) implements Comparable<Key> { public int compareTo(Key o) "
                        + "{ book(in); return 0; } public int hashCode() { return 1; } }");
    }

    /** A method of the JDK's own (an Object's toString, a String's hashCode) runs no program code: no exit. */
    @Test
    void theJdksOwnMethodsCarryNothing() {
        assertAccepted(program("DateTimeParseException", "Set<String> keys = new HashSet<>(); keys.add(input + new Object());",
                "static void unused() {}"));
    }

    private static final class Lazy {
        static final String TYPE = "record Lazy(String in) { public String toString() { book(in); "
                + "return in; } }";
    }
}
