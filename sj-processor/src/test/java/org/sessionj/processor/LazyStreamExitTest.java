package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A4: a lambda or method reference given to a lazy stream operation ({@code map}, {@code filter}…) runs in the
 * terminal operation that consumes the stream, which may be a later statement: an unchecked exit of a live plain local
 * session out of it meets the handlers around that operation (a local variable consumed once), or, where that is not
 * known (the stream given away, returned, an iterator pulled later), is taken as met by a catch that goes on. The
 * rejected programs compiled (a catch around the terminal operation took the failure), and the peer waited.
 */
class LazyStreamExitTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import java.util.Iterator;
            import java.util.List;
            import java.util.stream.Stream;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
              static int book(String input) {
                SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                s.send(1);
                s.send(LocalDate.parse(input));
                s.close();
                return 1;
              }
            """;

    /** The same method with its session a try-with-resources resource. */
    private static final String SAFE_HEAD = HEAD.replace(
            "SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request();",
            "try (SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request()) {")
            .replace("s.close();", "}");

    /** The adversary's T5: the stream is built in one statement and consumed inside the try of the next. */
    @Test
    void aStreamConsumedUnderACatchIsSJ024() {
        assertRejected("SJ024", 17, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 12 throws an "
                + "unchecked exception, which leaves 'book' and comes out of the call on line 17, where the catch on line 20 "
                + "takes it and goes on"), HEAD + """
                  static void runAll(List<String> inputs) {
                    Stream<Integer> booked = inputs.stream().map(input -> book(input));
                    try {
                      System.out.println("booked " + booked.toList());
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** The same with a method reference, and a step between. */
    @Test
    void aMethodReferenceConsumedUnderACatchIsSJ024() {
        assertRejected("SJ024", 19, msg("comes out of the call on line 19, where the catch on line 20 takes it and goes on"),
                HEAD + """
                  static void runAll(List<String> inputs) {
                    Stream<Integer> booked = inputs.stream().filter(in -> !in.isEmpty()).map(A::book);
                    try {
                      System.out.println("booked " + booked.mapToInt(i -> i).sum());
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** The adversary's L06: an iterator pulls the elements later; where is not followed: taken as a catch that goes on. */
    @Test
    void anIteratorOfTheStreamIsSJ024() {
        assertRejected("SJ024", 17, msg("comes out of the call on line 17, where 'map' on line 17 only records it, and its "
                + "stream is consumed where the checker does not follow it"), HEAD + """
                  static void runAll(List<String> inputs) {
                    Iterator<Integer> it = inputs.stream().map(in -> book(in)).iterator();
                    try {
                      while (it.hasNext()) {
                        it.next();
                      }
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** A stream returned to a caller: consumed where the checker does not follow it. */
    @Test
    void aReturnedStreamIsSJ024() {
        assertRejected("SJ024", 17, msg("where 'map' on line 17 only records it"), HEAD + """
                  static Stream<Integer> booked(List<String> inputs) {
                    return inputs.stream().map(in -> book(in));
                  }
                }
                """);
    }

    /** The corrected twin: the session a resource, the same streams. */
    @Test
    void theSessionAResourceCompiles() {
        assertAccepted(SAFE_HEAD + """
                  static void runAll(List<String> inputs) {
                    Stream<Integer> booked = inputs.stream().map(input -> book(input));
                    try {
                      System.out.println("booked " + booked.toList());
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                    Iterator<Integer> it = inputs.stream().map(in -> book(in)).iterator();
                    it.next();
                  }
                  static Stream<Integer> booked(List<String> inputs) {
                    return inputs.stream().map(in -> book(in));
                  }
                }
                """);
    }

    /** A stream consumed once, with no catch around it that goes on: the failure is the callers' affair. */
    @Test
    void aStreamConsumedWithNoCatchCompiles() {
        assertAccepted(HEAD + """
                  static int runAll(List<String> inputs) {
                    Stream<Integer> booked = inputs.stream().map(input -> book(input));
                    int n = 0;
                    try {
                      n = inputs.size();
                    } catch (RuntimeException e) {
                      n = -1;
                    }
                    return n + booked.mapToInt(i -> i).sum();
                  }
                }
                """);
    }
}
