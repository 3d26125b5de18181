package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv19 A1: a lambda's body runs where the lambda stands (in the call it is given to, as a method reference does:
 * adv18 A6), so an unchecked exception that leaves it, or a method it calls, with a plain local session live meets
 * the catch around that call. The programs below compiled (the same code in a {@code for} loop was SJ024) and the
 * peer waited.
 */
class LambdaExitTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import java.util.List;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
              static void book(String input) {
                SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                s.send(1);
                s.send(LocalDate.parse(input));
                s.close();
              }
            """;

    /** The adversary's program: the lambda calls the method that holds the session; a catch around forEach names the failure. */
    @Test
    void aLambdaThatCallsTheSessionsMethodIsSJ024() {
        assertRejected("SJ024", 15, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 10 throws an "
                + "unchecked exception, which leaves 'book' and comes out of the call on line 15, where the catch on line "
                + "16 takes it and goes on"), HEAD + """
                  static void runAll(List<String> inputs) {
                    try {
                      inputs.forEach(input -> book(input));
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** The session is the lambda's own; the program's helper throws (adv19 A1b). */
    @Test
    void aSessionInTheLambdaIsSJ024() {
        assertRejected("SJ024", 8, msg("session 's' is not complete if, in 'the lambda on line 8', the call of 'check' on "
                + "line 11 throws an unchecked exception, which leaves 'the lambda on line 8' and comes out of the call on "
                + "line 8, where the catch on line 14 takes it and goes on"), """
                import java.util.List;
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static int check(int v) { if (v < 0) throw new IllegalArgumentException("negative: " + v); return v; }
                  static void runAll(List<Integer> values) {
                    try {
                      values.forEach(v -> {
                        SJSocket s = SJService.create(Pair.class, "localhost", 4000).request();
                        s.send(1);
                        s.send(check(v));
                        s.close();
                      });
                    } catch (IllegalArgumentException e) {
                      System.out.println("skipped: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** The corrected twin: the session a try-with-resources resource in the method the lambda calls. */
    @Test
    void theSessionAResourceCompiles() {
        assertAccepted(HEAD.replace("SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request();",
                "try (SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request()) {")
                .replace("s.close();", "}") + """
                  static void runAll(List<String> inputs) {
                    try {
                      inputs.forEach(input -> book(input));
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** The lambda's own session a resource: closed on the way out of the lambda. */
    @Test
    void theLambdasSessionAResourceCompiles() {
        assertAccepted("""
                import java.util.List;
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static int check(int v) { if (v < 0) throw new IllegalArgumentException("negative: " + v); return v; }
                  static void runAll(List<Integer> values) {
                    try {
                      values.forEach(v -> {
                        try (SJSocket s = SJService.create(Pair.class, "localhost", 4000).request()) {
                          s.send(1);
                          s.send(check(v));
                        }
                      });
                    } catch (IllegalArgumentException e) {
                      System.out.println("skipped: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** No catch around the lambda goes on: the exception ends the program (or is its callers' affair). */
    @Test
    void noCatchAroundTheLambdaCompiles() {
        assertAccepted(HEAD + """
                  static void runAll(List<String> inputs) {
                    inputs.forEach(input -> book(input));
                  }
                }
                """);
    }
}
