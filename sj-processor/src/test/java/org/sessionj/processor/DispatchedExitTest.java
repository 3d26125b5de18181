package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv19 A2: an unchecked exception that leaves a method with its plain local session live comes out of the calls
 * of every method it implements or overrides too: {@code booker.book(input)} on an interface may run
 * {@code Impl.book}. The programs below compiled (SJ024 only when {@code Impl.book} was called by its own name),
 * and the peer waited for its second message.
 */
class DispatchedExitTest {
    private static final String HEAD = """
            import java.time.LocalDate;
            import java.time.format.DateTimeParseException;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<LocalDate>") interface Booking {}
              interface Booker { void book(String input); }
            """;

    private static final String IMPL = """
              static final class Impl implements Booker {
                @Override
                public void book(String input) {
                  SJSocket s = SJService.create(Booking.class, "localhost", 4000).request();
                  s.send(1);
                  s.send(LocalDate.parse(input));
                  s.close();
                }
              }
            """;

    /** The adversary's program: the caller calls the interface method, and its catch names the JDK's failure. */
    @Test
    void throughAnInterfaceIsSJ024() {
        assertRejected("SJ024", 18, msg("session 's' is not complete if, in 'book', the call of 'parse' on line 12 throws "
                + "an unchecked exception, which leaves 'book' (as 'Booker.book', which it implements) and comes out of "
                + "the call on line 18, where the catch on line 19 takes it and goes on"), HEAD + IMPL + """
                  static void runAll(Booker booker, String input) {
                    try {
                      booker.book(input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** An abstract class's method overridden, the program's own helper throwing (adv19 c11). */
    @Test
    void throughAnAbstractMethodIsSJ024() {
        assertRejected("SJ024", 14, msg("which leaves 'go' (as 'Base.go', which it implements) and comes out of the call "
                + "on line 14, where the catch on line 14 takes it and goes on"), """
                import org.sessionj.api.*;
                class C11 {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static abstract class Base { abstract void go(int v); }
                  static final class Impl extends Base {
                    void go(int v) {
                      SJSocket s = SJService.create(Pair.class, "localhost", 1).request();
                      s.send(1);
                      s.send(check(v));
                      s.close();
                    }
                  }
                  static void runAll(Base st) {
                    try { st.go(-1); } catch (IllegalStateException e) { System.out.println("skip"); }
                  }
                  static int check(int v) { if (v < 0) throw new IllegalStateException("neg"); return v; }
                }
                """);
    }

    /** A superclass's concrete method overridden: a call of the superclass's method may run the override. */
    @Test
    void throughAnOverriddenMethodIsSJ024() {
        assertRejected("SJ024", 16, msg("which leaves 'go' (as 'Base.go', which it overrides) and comes out of the call "
                + "on line 16, where the catch on line 16 takes it and goes on"), """
                import org.sessionj.api.*;
                class C {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  static class Base { void go(int v) { } }
                  static final class Impl extends Base {
                    @Override
                    void go(int v) {
                      SJSocket s = SJService.create(Pair.class, "localhost", 1).request();
                      s.send(1);
                      s.send(check(v));
                      s.close();
                    }
                  }
                  static int check(int v) { if (v < 0) throw new IllegalStateException("neg"); return v; }
                  static void runAll(Base st) {
                    try { st.go(-1); } catch (IllegalStateException e) { System.out.println("skip"); }
                  }
                }
                """);
    }

    /** The corrected twin: the implementation's session a try-with-resources resource. */
    @Test
    void theImplementationsSessionAResourceCompiles() {
        assertAccepted(HEAD + IMPL.replace("SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request();",
                "try (SJSocket s = SJService.create(Booking.class, \"localhost\", 4000).request()) {")
                .replace("s.close();", "}") + """
                  static void runAll(Booker booker, String input) {
                    try {
                      booker.book(input);
                    } catch (DateTimeParseException e) {
                      System.out.println("bad date, next");
                    }
                  }
                }
                """);
    }

    /** A caller's catch that rethrows does not go on. */
    @Test
    void aCatchThatRethrowsCompiles() {
        assertAccepted(HEAD + IMPL + """
                  static void runAll(Booker booker, String input) {
                    try {
                      booker.book(input);
                    } catch (DateTimeParseException e) {
                      throw new IllegalArgumentException("bad date", e);
                    }
                  }
                }
                """);
    }
}
