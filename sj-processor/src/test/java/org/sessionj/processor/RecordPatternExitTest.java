package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A6: a record pattern ({@code o instanceof Pt(int x, int y)}, a {@code case Pt(int x, int y)}) calls the
 * record's accessors, code of the program, with no call in the source. An accessor that throws (wrapped in a
 * MatchException) left a live plain local session, and the catch outside its scope went on: it compiled, though
 * {@code p.x()} written out is SJ024. Such a pattern is now an implicit call, as a string concatenation's
 * {@code toString()} is.
 */
class RecordPatternExitTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface Pair {}
              record Pt(int x, int y) {
                public int x() { if (x < 0) throw new IllegalStateException("negative"); return x; }
              }
            """;

    private static String run(String open, String close, String pattern) {
        return HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService svc, Object o) {
                    try %s
                      a.send(1);
                      int v = %s;
                      a.send(v);
                      %s
                    } catch (RuntimeException e) {
                      System.out.println("skipped: " + e);
                    }
                  }
                }
                """.formatted(open, pattern, close);
    }

    private static final String PLAIN = "{\n      SJSocket a = svc.request();";

    @Test
    void anInstanceofRecordPatternIsAThrowPoint() {
        assertRejected("SJ024", 11, msg("session 'a' is not complete if the accessor 'x()' of 'Pt' that the record pattern "
                + "calls (line 11) throws an unchecked exception, which the catch on line 14 takes and goes on"),
                run(PLAIN, "a.close();", "o instanceof Pt(int x, int y) ? x + y : 0"));
    }

    @Test
    void aSwitchRecordPatternIsAThrowPoint() {
        assertRejected("SJ024", 11, msg("the accessor 'x()' of 'Pt' that the record pattern calls (line 11)"),
                run(PLAIN, "a.close();", "switch (o) { case Pt(int x, int y) -> x + y; default -> 0; }"));
    }

    /** The corrected twin: the session a try-with-resources resource. A type pattern calls nothing. */
    @Test
    void theSessionAResourceOrATypePatternCompiles() {
        assertAccepted(run("(SJSocket a = svc.request()) {", "", "o instanceof Pt(int x, int y) ? x + y : 0"));
        assertAccepted(run(PLAIN, "a.close();", "o instanceof Pt p ? 1 : 0"));
    }
}
