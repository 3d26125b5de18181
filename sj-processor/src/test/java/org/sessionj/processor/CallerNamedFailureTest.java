package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv18 A3: a JDK call's undeclared unchecked failure ({@code LocalDate.parse}'s DateTimeParseException) that
 * leaves a method holding a plain-local session, taken by a catch in a <em>caller</em> that names it and goes
 * on. The same catch inside the method is SJ024 (adv16 A16: a catch that names an unchecked failure makes each
 * JDK call of its try block a throw point of it); split in two methods, the program compiled and the peer
 * waited for its date. The catch names the failure it expects from the calls of its try block, down to the
 * JDK calls that method makes with its session live.
 */
class CallerNamedFailureTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
            """;

    @Test
    void aCatchInTheCallerThatNamesTheFailureIsSJ024AtTheCall() {
        assertRejected("SJ024", 9, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 18 "
                + "throws an unchecked exception, which leaves 'book' and comes out of the call on line 9, where the "
                + "catch on line 10 takes it and goes on", ": !<java.time.LocalDate> remains"), HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String[] inputs) {
                    for (String input : inputs) {
                      try {
                        book(svc, input);
                      } catch (DateTimeParseException e) {
                        System.out.println("bad date, next");
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

    /** Followed on through a caller that does not take it, to the one that does. */
    @Test
    void throughAMiddleMethodToo() {
        assertRejected("SJ024", 8, msg("if, in 'book', the call of 'parse' on line 19 throws an unchecked exception, "
                + "which leaves 'book' and then 'middle' (through its call on line 14) and comes out of the call on line 8, "
                + "where the catch on line 9 takes it and goes on"), HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      middle(svc, input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                  }
                  static void middle(@Session(protocol = Booking.class) SJService svc, String input) {
                    book(svc, input);
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

    /**
     * The corrected twins: the date parsed before the session begins, or the session a try-with-resources
     * resource.
     */
    @Test
    void parsedFirstOrClosedOnEveryPathCompiles() {
        assertAccepted(HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String[] inputs) {
                    for (String input : inputs) {
                      try {
                        book(svc, input);
                        safe(svc, input);
                      } catch (DateTimeParseException e) {
                        System.out.println("bad date, next");
                      }
                    }
                  }
                  static void book(@Session(protocol = Booking.class) SJService svc, String input) {
                    LocalDate date = LocalDate.parse(input);
                    SJSocket s = svc.request();
                    s.send(1);
                    s.send(date);
                    s.close();
                  }
                  static void safe(@Session(protocol = Booking.class) SJService svc, String input) {
                    try (SJSocket s = svc.request()) {
                      s.send(1);
                      s.send(LocalDate.parse(input));
                    }
                  }
                }
                """);
    }

    /**
     * adv19 A9: a middle method that logs and rethrows what it took ({@code catch (RuntimeException e) { …; throw e; }})
     * passes the JDK's failure on to the caller's catch that names it; the way ended at any catch of
     * RuntimeException, and the program compiled while the peer waited.
     */
    @Test
    void throughAMiddleCatchThatRethrowsIt() {
        assertRejected("SJ024", 8, msg("if, in 'book', the call of 'parse' on line 24 throws an unchecked exception, "
                + "which leaves 'book' and then 'middle' (through its call on line 15) and comes out of the call on line 8, "
                + "where the catch on line 9 takes it and goes on"), HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      middle(svc, input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                  }
                  static void middle(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      book(svc, input);
                    } catch (RuntimeException e) {
                      System.out.println("booking failed: " + e);
                      throw e;
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

    /** adv19 A9, second form: the rethrowing catch around the socket's scope in the session's own method. */
    @Test
    void throughARethrowingCatchAroundTheSocketsScope() {
        assertRejected("SJ024", 8, msg("if, in 'book', the call of 'parse' on line 17 throws an unchecked exception, "
                + "which leaves 'book' and comes out of the call on line 8, where the catch on line 9 takes it and goes on"),
                HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      book(svc, input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                  }
                  static void book(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      SJSocket s = svc.request();
                      s.send(1);
                      s.send(LocalDate.parse(input));
                      s.close();
                    } catch (Exception e) {
                      System.out.println("booking failed: " + e);
                      throw e;
                    }
                  }
                }
                """);
    }

    /**
     * A catch of every unchecked exception that does not throw it on ends its way: one that wraps it throws
     * another exception, which the caller's catch does not name; one that goes on takes it itself (adv18 A12:
     * {@code catch (RuntimeException e)} takes the JDK's undeclared failures too), SJ024 at its own call.
     */
    @Test
    void aCatchOfEveryUncheckedThatWrapsEndsTheWayOneThatGoesOnTakesIt() {
        String wraps = """
                  static void wraps(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      book(svc, input);
                    } catch (RuntimeException e) {
                      throw new IllegalStateException("booking failed", e);
                    }
                  }
                """;
        String book = """
                  static void book(@Session(protocol = Booking.class) SJService svc, String input) {
                    SJSocket s = svc.request();
                    s.send(1);
                    s.send(LocalDate.parse(input));
                    s.close();
                  }
                }
                """;
        assertAccepted(HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      wraps(svc, input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                  }
                """ + wraps + book);
        assertRejected("SJ024", 16, msg("if, in 'book', the call of 'parse' on line 31 throws an unchecked exception, "
                + "which leaves 'book' and comes out of the call on line 16, where the catch on line 17 takes it and goes on"),
                HEAD + """
                  static void runAll(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      wraps(svc, input);
                      goesOn(svc, input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                  }
                  static void goesOn(@Session(protocol = Booking.class) SJService svc, String input) {
                    try {
                      book(svc, input);
                    } catch (RuntimeException e) {
                      System.out.println("booking failed: " + e);
                    }
                  }
                """ + wraps + book);
    }
}
