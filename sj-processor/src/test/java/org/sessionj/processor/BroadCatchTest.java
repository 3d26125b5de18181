package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv18 A12: {@code catch (Exception e)}, {@code catch (RuntimeException e)} and {@code catch (Throwable e)} take
 * every failure of a JDK call, the undeclared ones too ({@code LocalDate.parse}'s DateTimeParseException): a
 * broad catch that goes on, outside a plain local session's scope, abandons the session half done as the
 * narrower {@code catch (DateTimeParseException e)} does (SJ024 already). The program below compiled, and the
 * peer waited for its date.
 */
class BroadCatchTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
            """;

    private static String booking(String handler) {
        return HEAD + """
                  static void run(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      SJSocket s = svc.request();
                      s.send(1);
                      s.send(LocalDate.parse(input));
                      s.close();
                    } %s {
                      System.out.println("failed, next: " + e);
                    }
                  }
                }
                """.formatted(handler);
    }

    @Test
    void aCatchOfExceptionThatGoesOnIsSJ024() {
        assertRejected("SJ024", 9, msg("session 's' is not complete if the call of 'parse' on line 9 throws an unchecked "
                + "exception, which the catch on line 11 takes and goes on"), booking("catch (Exception e)"));
    }

    @Test
    void aCatchOfRuntimeExceptionThatGoesOnIsSJ024() {
        assertRejected("SJ024", 9, msg("the catch on line 11 takes and goes on"), booking("catch (RuntimeException e)"));
    }

    @Test
    void aCatchOfThrowableThatGoesOnIsSJ024() {
        assertRejected("SJ024", 9, msg("the catch on line 11 takes and goes on"), booking("catch (Throwable e)"));
    }

    /** The corrected twin: the session a try-with-resources resource (closed, and its peer told, on the way out). */
    @Test
    void theSessionAResourceCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Booking.class) SJService svc, String input) {
                    try (SJSocket s = svc.request()) {
                      s.send(1);
                      s.send(LocalDate.parse(input));
                    } catch (Exception e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                }
                """);
    }

    /** The date parsed before the session begins: no JDK call while it is live. */
    @Test
    void theInputParsedFirstCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      LocalDate date = LocalDate.parse(input);
                      SJSocket s = svc.request();
                      s.send(1);
                      s.send(date);
                      s.close();
                    } catch (Exception e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                }
                """);
    }

    /** A broad catch that rethrows does not go on: the failure ends the program (or is its callers' affair). */
    @Test
    void aBroadCatchThatRethrowsCompiles() {
        assertAccepted(booking("catch (RuntimeException e)").replace("System.out.println(\"failed, next: \" + e);",
                "throw new IllegalStateException(e);"));
    }
    /** A call that cannot fail for any argument ({@code println}, {@code String.valueOf}: UnfailingJdkCalls) is no throw point. */
    @Test
    void unfailingJdkCallsUnderABroadCatchCompile() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Booking.class) SJService svc, LocalDate date, int n) {
                    try {
                      SJSocket s = svc.request();
                      s.send(Math.max(n, 1));
                      System.out.println("sent " + String.valueOf(n) + new StringBuilder().append(n).toString());
                      s.send(date);
                      s.close();
                    } catch (Exception e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                }
                """);
    }

    /** A JDK call not on the list counts: {@code substring} fails on a short input. */
    @Test
    void aSubstringBetweenTwoActionsUnderABroadCatchIsSJ024() {
        assertRejected("SJ024", 9, msg("if the call of 'substring' on line 9 throws an unchecked exception, which the "
                + "catch on line 12 takes and goes on"), HEAD + """
                  static void run(@Session(protocol = Booking.class) SJService svc, String input, LocalDate date) {
                    try {
                      SJSocket s = svc.request();
                      s.send(1);
                      System.out.println(input.substring(3));
                      s.send(date);
                      s.close();
                    } catch (RuntimeException e) {
                      System.out.println("failed, next: " + e);
                    }
                  }
                }
                """);
    }

    /** adv18 A3 with a broad catch: the caller's {@code catch (Exception e)} takes the JDK failure out of {@code book}. */
    @Test
    void aBroadCatchInTheCallerIsSJ024AtTheCall() {
        assertRejected("SJ024", 8, msg("if, in 'book', the call of 'parse' on line 17 throws an unchecked exception, "
                + "which leaves 'book' and comes out of the call on line 8, where the catch on line 9 takes it and goes on"),
                HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String[] inputs) {
                    for (String input : inputs) {
                      try {
                        book(svc, input);
                      } catch (Exception e) {
                        System.out.println("failed, next");
                      }
                    }
                  }
                  static void book(@Session(protocol = Booking.class) SJService svc, String input) {
                    SJSocket s = svc.request();
                    s.send(1);
                    s.send(LocalDate.parse(input));
                    s.close();
                  }
                }
                """);
    }

    /** The corrected twin: {@code book}'s session a try-with-resources resource. */
    @Test
    void theCalleesSessionAResourceCompiles() {
        assertAccepted(HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String[] inputs) {
                    for (String input : inputs) {
                      try {
                        book(svc, input);
                      } catch (Exception e) {
                        System.out.println("failed, next");
                      }
                    }
                  }
                  static void book(@Session(protocol = Booking.class) SJService svc, String input) {
                    try (SJSocket s = svc.request()) {
                      s.send(1);
                      s.send(LocalDate.parse(input));
                    }
                  }
                }
                """);
    }
}
