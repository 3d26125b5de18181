package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv18 A6: an unchecked exception that leaves a method with its plain local session live, out of a method
 * reference to it ({@code values.forEach(A::send)}) run inside a try statement whose catch takes it and goes
 * on. The method was followed to its calls only; the reference is run where the functional value is run, here
 * by the JDK call it is given to, inside the same try statement, so it counts as a call of the method there.
 */
class MethodReferenceExitTest {
    private static final String HEAD = """
            import java.util.List;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface Pair {}
              static final SJService svc = SJService.create(Pair.class, "localhost", 4000);
            """;

    @Test
    void aMethodReferenceRunInsideATryWhoseCatchGoesOnIsSJ024() {
        assertRejected("SJ024", 8, msg("session 's' is not complete if, in 'send', the call of 'checked' on line 16 "
                + "throws an unchecked exception, which leaves 'send' and comes out of the call on line 8, where the "
                + "catch on line 9 takes it and goes on"), HEAD + """
                  static void runAll(List<Integer> values) {
                    try {
                      values.forEach(A::send);
                    } catch (IllegalArgumentException e) {
                      System.out.println("stopped: " + e.getMessage());
                    }
                  }
                  static void send(int value) {
                    SJSocket s = svc.request();
                    s.send(1);
                    s.send(checked(value));
                    s.close();
                  }
                  static int checked(int value) {
                    if (value < 0) throw new IllegalArgumentException("negative");
                    return value;
                  }
                }
                """);
    }

    /** The corrected twin: the session closed on every path (a try-with-resources resource). */
    @Test
    void aSessionClosedOnEveryPathCompiles() {
        assertAccepted(HEAD + """
                  static void runAll(List<Integer> values) {
                    try {
                      values.forEach(A::send);
                    } catch (IllegalArgumentException e) {
                      System.out.println("stopped: " + e.getMessage());
                    }
                  }
                  static void send(int value) {
                    try (SJSocket s = svc.request()) {
                      s.send(1);
                      s.send(checked(value));
                    }
                  }
                  static int checked(int value) {
                    if (value < 0) throw new IllegalArgumentException("negative");
                    return value;
                  }
                }
                """);
    }
}
