package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A6: a record pattern ({@code o instanceof Pt(int x, int y)}, {@code case Pt(int x, int y) ->}) calls the
 * record's accessors with no call in the source. An accessor the record declares itself is code of the program:
 * what it throws (wrapped in a {@code MatchException}) leaves a live plain local session's scope, and a caller's
 * catch that takes it and goes on abandoned the session — {@code int v = p.x();} was SJ024, the record pattern
 * making the same call compiled and the peer waited. The accessors javac writes only read their field.
 */
class RecordPatternThrowPointTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface Pair {}
              record Pt(int x, int y) {
                public int x() {
                  if (x < 0) throw new IllegalStateException("negative");
                  return x;
                }
              }
            """;

    @Test
    void anInstanceofRecordPatternOverADeclaredAccessorIsAThrowPoint() {
        assertRejected("SJ024", 12, msg("session 'a' is not complete if, in 'send', the accessor 'x()' of 'Pt' that the "
                + "record pattern calls (line 20) throws an unchecked exception, which leaves 'send' and comes out of the "
                + "call on line 12, where the catch on line 13 takes it and goes on"), HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService svc, Object o) {
                    try {
                      send(svc, o);
                    } catch (RuntimeException e) {
                      System.out.println("failed, next");
                    }
                  }
                  static void send(@Session(protocol = Pair.class) SJService svc, Object o) {
                    SJSocket a = svc.request();
                    a.send(1);
                    if (o instanceof Pt(int x, int y)) {
                      a.send(x + y);
                    } else {
                      a.send(0);
                    }
                    a.close();
                  }
                }
                """);
    }

    @Test
    void aSwitchRecordPatternToo() {
        assertRejected("SJ024", 15, msg("the accessor 'x()' of 'Pt' that the record pattern calls (line 15) throws "
                + "an unchecked exception, which the catch on line 20 takes and goes on"), HEAD + """
                  static void send(@Session(protocol = Pair.class) SJService svc, Pt p) {
                    try {
                      SJSocket a = svc.request();
                      a.send(1);
                      int v = switch (p) {
                        case Pt(int x, int y) when x > 0 -> x;
                        case Pt q -> 0;
                      };
                      a.send(v);
                      a.close();
                    } catch (RuntimeException e) {
                      System.out.println("failed, next");
                    }
                  }
                }
                """);
    }

    /** javac's accessors (and one written as the same return of the field) cannot throw: no throw point. */
    @Test
    void aRecordWhoseAccessorsOnlyReadTheirFieldsCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  record Pt(int x, int y) {
                    public int y() {
                      return this.y;
                    }
                  }
                  static void run(@Session(protocol = Pair.class) SJService svc, Object o) {
                    try {
                      send(svc, o);
                    } catch (RuntimeException e) {
                      System.out.println("failed, next");
                    }
                  }
                  static void send(@Session(protocol = Pair.class) SJService svc, Object o) {
                    SJSocket a = svc.request();
                    a.send(1);
                    if (o instanceof Pt(int x, int y)) {
                      a.send(x + y);
                    } else {
                      a.send(0);
                    }
                    a.close();
                  }
                }
                """);
    }

    /** The corrected twin: the session a try-with-resources resource, which the failure closes (telling the peer). */
    @Test
    void theSessionInTryWithResourcesCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService svc, Object o) {
                    try {
                      send(svc, o);
                    } catch (RuntimeException e) {
                      System.out.println("failed, next");
                    }
                  }
                  static void send(@Session(protocol = Pair.class) SJService svc, Object o) {
                    try (SJSocket a = svc.request()) {
                      a.send(1);
                      if (o instanceof Pt(int x, int y)) {
                        a.send(x + y);
                      } else {
                        a.send(0);
                      }
                    }
                  }
                }
                """);
    }
}
