package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A2 E2: a send or receive on one session whose message's codec runs code of the program (a getter, a record's
 * own compact constructor) that throws fails that session alone — the runtime tells its peer — while another plain
 * local session is live; a caller that catches the {@code SJIOException} and goes on abandons the other one. The
 * rejected programs compiled (a session action was never a throw point for the other sessions) and the peer of
 * {@code a} waited for ever.
 */
class CodecExitTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface Pair {}
              @Protocol("cbegin.!<Pt>") interface Slow {}
              @Protocol("cbegin.?(Pt)") interface Source {}
              public static class Pt {
                int x;
                public int getX() { if (x < 0) throw new IllegalStateException("negative"); return x; }
                public void setX(int x) { this.x = x; }
              }
            """;

    /** b's send of a Pt while a is live; the caller takes an SJIOException and goes on. */
    private static final String RELAY = """
                  static void relay(Pt p) {
                    try (SJSocket b = SJService.create(Slow.class, "localhost", 4001).request()) {
                      SJSocket a = SJService.create(Pair.class, "localhost", 4000).request();
                      a.send(1);
                      b.send(p);
                      a.send(2);
                      a.close();
                    }
                  }
                  static void run(Pt p) {
                    try { relay(p); } catch (SJIOException e) { System.out.println("send failed, next"); }
                  }
                }
                """;

    /** The adversary's E2: Pt's getter throws inside b's send while a is live; the caller takes it and goes on. */
    @Test
    void aSendWhoseGetterThrowsIsSJ024AtTheCallersCatch() {
        assertRejected("SJ024", 21, msg("the send on line 15 (whose message's codec runs the code of 'Pt', which may "
                + "fail it) fails and throws an unchecked exception, which leaves 'relay'"), HEAD + RELAY);
    }

    /** A receive of a record whose compact constructor validates, under a caller's catch. */
    @Test
    void aReceiveWhoseRecordValidatesIsSJ024() {
        assertRejected("SJ024", 22, msg("the receive on line 16 (whose message's codec runs the code of 'Pt'"),
                HEAD.replace("public static class Pt {", "record Pt(int x) { Pt { if (x < 0) throw new IllegalArgumentException(); } }\n  static class Unused {") + """
                  static void relay() {
                    try (SJSocket b = SJService.create(Source.class, "localhost", 4001).request()) {
                      SJSocket a = SJService.create(Pair.class, "localhost", 4000).request();
                      a.send(1);
                      Pt q = b.receive();
                      a.send(q.x());
                      a.close();
                    }
                  }
                  static void run() {
                    try { relay(); } catch (SJIOException e) { System.out.println("failed, next"); }
                  }
                }
                """);
    }

    /**
     * The twins: a record whose constructor and accessors are javac's (no code of the program runs in the codec), and
     * the other session a resource (any failure closes it and tells its peer).
     */
    @Test
    void aPlainRecordOrASessionInTryWithResourcesCompiles() {
        assertAccepted(HEAD.replace("public static class Pt {", "record Pt(int x) {}\n  static class Unused {") + RELAY);
        assertAccepted(HEAD + """
                  static void relay(Pt p) {
                    try (SJSocket b = SJService.create(Slow.class, "localhost", 4001).request();
                         SJSocket a = SJService.create(Pair.class, "localhost", 4000).request()) {
                      a.send(1);
                      b.send(p);
                      a.send(2);
                    }
                  }
                  static void run(Pt p) {
                    try { relay(p); } catch (SJIOException e) { System.out.println("send failed, next"); }
                  }
                }
                """);
    }

    /**
     * Review of 7f34a1eb: only the members a codec calls count — an explicit accessor that may throw is SJ024, a
     * record's other methods ({@code area()}, {@code toString()}) are not: no codec calls them.
     */
    @Test
    void onlyARecordsAccessorsGettersAndConstructorsAreCodecCode() {
        assertAccepted(HEAD.replace("public static class Pt {", "record Pt(int x) { double area() { return 1 / x; }"
                + " public String toString() { return \"Pt\" + (10 / x); } }\n  static class Unused {") + RELAY);
        assertRejected("SJ024", 22, msg("whose message's codec runs the code of 'Pt'"), HEAD.replace("public static class Pt {",
                "record Pt(int x) { public int x() { if (x < 0) throw new IllegalStateException(); return x; } }\n"
                + "  static class Unused {") + RELAY);
    }
}
