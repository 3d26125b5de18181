package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A8: {@code catch (ArithmeticException e)} names the failure of {@code Math.toIntExact} (and {@code addExact},
 * {@code BigDecimal.divide}), which the JDK documents; it was taken as a JVM check (a division by zero) that names
 * no particular failure, and {@code s.send(Math.toIntExact(total))} between two actions under a caller's such catch
 * that goes on compiled while the peer waited.
 */
class ArithmeticFailureTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<String>.!<int>") interface Report {}
            """;

    private static String program(String send) {
        return HEAD + """
                  static void main(@Session(protocol = Report.class) SJService svc, long total) {
                    try {
                      report(svc, "sum", total);
                    } catch (ArithmeticException e) {
                      System.out.println("too big, skipped");
                    }
                  }
                  static void report(@Session(protocol = Report.class) SJService svc, String name, long total) {
                    SJSocket s = svc.request();
                    s.send(name);
                    %s
                    s.close();
                  }
                }
                """.formatted(send);
    }

    @Test
    void toIntExactUnderACallersCatchOfArithmeticExceptionIsSJ024() {
        assertRejected("SJ024", 6, msg("if, in 'report', the call of 'toIntExact' on line 14 throws an unchecked exception, "
                + "which leaves 'report' and comes out of the call on line 6, where the catch on line 7 takes it and goes on"),
                program("s.send(Math.toIntExact(total));"));
    }

    /**
     * The corrected twin: the conversion before the session begins; a division by a constant cannot fail (one by a
     * variable is a throw point of its own since adv21 B8: JvmCheckThrowPointsTest).
     */
    @Test
    void convertedFirstOrADivisionCompiles() {
        assertAccepted(program("s.send(1);").replace("SJSocket s = svc.request();",
                "int n = Math.toIntExact(total);\n    SJSocket s = svc.request();"));
        assertAccepted(program("s.send((int) (total / 100));"));
    }
}
