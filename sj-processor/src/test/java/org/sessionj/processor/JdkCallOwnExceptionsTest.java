package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A3 (a false alarm): a catch names the failure it expects of the JDK calls of its try block
 * ({@code catch (DateTimeParseException e)} around {@code LocalDate.parse}), but a JDK call that runs no code of the
 * program throws only the JDK's own exception classes: a caller's {@code catch (SJIOException e)} ("connection
 * lost, next") or {@code catch (BookingException e)} (the program's own) made every JDK call between two actions of
 * a plain local session a throw point, {@code Duration.ofMillis(200).toMillis()} included ({@code toMillis} may
 * overflow; {@code ofMillis} cannot fail, adv21 B11).
 */
class JdkCallOwnExceptionsTest {
    private static final String HEAD = """
            import java.time.Duration;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<Long>") interface Pair {}
              static class BookingException extends RuntimeException {
                BookingException(String m) { super(m); }
              }
            """;

    /** The caller's catch, and the same catch inside one method (left out, commented, for the failures that count). */
    private static String program(String caught) {
        return HEAD + """
                  static void main(@Session(protocol = Pair.class) SJService svc, int[] values) {
                    try {
                      client(svc, values);
                    } catch (%s e) {
                      System.out.println("failed, next");
                    }
                  }
                  static void client(@Session(protocol = Pair.class) SJService svc, int[] values) {
                    SJSocket a = svc.request();
                    a.send(values.length);
                    Long wait = Duration.ofMillis(200).toMillis();
                    a.send(wait);
                    a.close();
                    if (values.length > 9) throw new BookingException("too many");
                  }
                %s
                  static void inOne(@Session(protocol = Pair.class) SJService svc, int[] values) {
                    try {
                      SJSocket a = svc.request();
                      a.send(values.length);
                      Long wait = Duration.ofMillis(200).toMillis();
                      a.send(wait);
                      a.close();
                    } catch (%s e) {
                      System.out.println("failed, next");
                    }
                  }
                %s
                }
                """.formatted(caught, caught.equals("SJIOException") || caught.equals("BookingException") ? "" : "/*", caught,
                        caught.equals("SJIOException") || caught.equals("BookingException") ? "" : "*/");
    }

    @Test
    void aCatchOfSJIOExceptionDoesNotMakeJdkCallsThrowPoints() {
        assertAccepted(program("SJIOException"));
    }

    @Test
    void aCatchOfTheProgramsOwnExceptionDoesNotMakeJdkCallsThrowPoints() {
        assertAccepted(program("BookingException"));
    }

    /** The JDK's own exception named, or every one taken (adv18 A12), still counts. */
    @Test
    void aCatchOfAJdkFailureStillCounts() {
        assertRejected("SJ024", 10, msg("if, in 'client', the call of 'toMillis' on line 18 throws an unchecked exception, "
                + "which leaves 'client' and comes out of the call on line 10, where the catch on line 11 takes it and goes on"),
                program("java.time.DateTimeException"));
        assertRejected("SJ024", 10, msg("the call of 'toMillis' on line 18"), program("RuntimeException"));
    }
}
