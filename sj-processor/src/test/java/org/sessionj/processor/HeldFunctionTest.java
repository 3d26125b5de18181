package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv19 c8: a method reference or a lambda held in a local variable runs where the variable's functional method is
 * called ({@code Consumer<String> c = A::book; try { c.accept(in); } catch (DateTimeParseException e) { … }}), not
 * where it stands: an unchecked exit of its method or body comes out of that call, into the catch around it. The
 * program compiled, and the peer waited for its date.
 */
class HeldFunctionTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import java.util.function.Consumer;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
              static final SJService svc = SJService.create(Booking.class, "localhost", 4000);
            """;

    private static final String BOOK = """
              static void book(String input) {
                SJSocket s = svc.request();
                s.send(1);
                s.send(LocalDate.parse(input));
                s.close();
              }
            }
            """;

    private static String runAll(String held, String handler) {
        return HEAD + """
                  static void runAll(String in) {
                    Consumer<String> c = %s;
                    try {
                      c.accept(in);
                    } %s
                  }
                """.formatted(held, handler) + BOOK;
    }

    private static final String GOES_ON = "catch (DateTimeParseException e) {\n      System.out.println(\"bad date\");\n    }";

    @Test
    void aMethodReferenceHeldInALocalIsSJ024WhereItIsCalled() {
        assertRejected("SJ024", 11, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 19 throws "
                + "an unchecked exception, which leaves 'book' and comes out of the call on line 11, where the catch on "
                + "line 12 takes it and goes on"), runAll("A::book", GOES_ON));
    }

    @Test
    void aLambdaHeldInALocalIsSJ024WhereItIsCalled() {
        assertRejected("SJ024", 11, msg("if, in 'book', the call of 'parse' on line 19 throws an unchecked exception, which "
                + "leaves 'book' and then the lambda on line 9 and comes out of the call on line 11, where the catch on "
                + "line 12 takes it and goes on"), runAll("input -> book(input)", GOES_ON));
    }

    /** A broad catch takes it too (adv18 A12). */
    @Test
    void aBroadCatchAroundTheCallIsSJ024() {
        assertRejected("SJ024", 11, msg("comes out of the call on line 11, where the catch on line 12 takes it and goes on"),
                runAll("A::book", "catch (Exception e) {\n      System.out.println(\"failed\");\n    }"));
    }

    /** A session of the lambda's own. */
    @Test
    void aHeldLambdasOwnSessionIsSJ024WhereItIsCalled() {
        assertRejected("SJ024", 16, msg("the call of 'parse' on line 12 throws an unchecked exception, which leaves "
                + "'the lambda on line 9' and comes out of the call on line 16, where the catch on line 17 takes it and goes on"),
                HEAD + """
                  static void runAll(String in) {
                    Consumer<String> c = input -> {
                      SJSocket s = svc.request();
                      s.send(1);
                      s.send(LocalDate.parse(input));
                      s.close();
                    };
                    try {
                      c.accept(in);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                  }
                }
                """);
    }

    /** The corrected twins: the session a try-with-resources resource; a catch that rethrows. */
    @Test
    void theSessionAResourceOrACatchThatRethrowsCompiles() {
        String resource = BOOK.replace("""
                    SJSocket s = svc.request();
                    s.send(1);
                    s.send(LocalDate.parse(input));
                    s.close();
                """, """
                    try (SJSocket s = svc.request()) {
                      s.send(1);
                      s.send(LocalDate.parse(input));
                    }
                """);
        assertAccepted(runAll("A::book", GOES_ON).replace(BOOK, resource));
        assertAccepted(runAll("input -> book(input)", GOES_ON).replace(BOOK, resource));
        assertAccepted(runAll("A::book", "catch (DateTimeParseException e) {\n      throw new IllegalStateException(e);\n    }"));
    }

    /** Held but called outside the try: the catch is not around where it runs. */
    @Test
    void calledOutsideTheTryCompiles() {
        assertAccepted(HEAD + """
                  static void runAll(String in) {
                    Consumer<String> c = A::book;
                    try {
                      System.out.println("ready");
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date");
                    }
                    c.accept(in);
                  }
                """ + BOOK);
    }
}
