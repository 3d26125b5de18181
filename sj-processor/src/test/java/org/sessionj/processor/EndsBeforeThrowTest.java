package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ038 on a path that throws (adv17 A12, second form). Whether a call ends the caller's session is read
 * from <em>any</em> path of the method's body, so a lent method that closes its parameter before a
 * {@code throw} only ({@code catch (SJIOException e) { s.close(); throw e; }}) made its callers count the
 * session as ended after every call — also after a normal return that left it open, where nobody closed
 * it (the caller may not: SJ025). Each rejected program here compiled before. A {@code throw} counts on
 * the ended side: every exit that returns must then end the session too.
 */
class EndsBeforeThrowTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              static void caller(@Session(protocol = P.class) SJService svc, int v) throws Exception {
                SJSocket s = svc.request();
                s.send(0);
                helper(s, v);
              }
            """;

    @Test
    void aCloseInACatchThatRethrowsIsRejectedAtTheNormalExit() {
        assertRejected("SJ038", 9, msg("session 's': 'helper' ends it on some paths but not on others (it is open "
                + "at the end of the body but ended before the throw on line 10)", "a throw's path included"), HEAD + """
                  static void helper(@Session("!<int>") SJSocket s, int v) throws SJIOException {
                    try { s.send(v); } catch (SJIOException e) { s.close(); throw e; }
                  }
                }
                """);
    }

    @Test
    void aCloseBeforeAWrappingThrowIsRejectedAtTheReturnThatLeavesItOpen() {
        assertRejected("SJ038", 16, msg("it is open at the return on line 16 but ended before the throw on line 14"),
                HEAD + """
                  static int helper(@Session("!<int>") SJSocket s, int v) {
                    try {
                      s.send(v);
                    } catch (RuntimeException e) {
                      s.close();
                      throw new IllegalStateException(e);
                    }
                    return v;
                  }
                }
                """);
    }

    /** A throw inside a try-with-resources block that names the socket leaves with it closed. */
    @Test
    void aThrowOutOfATryWithResourcesOnOneBranchIsRejected() {
        assertRejected("SJ038", 9, msg("it is open at the end of the body but ended before the throw on line 12"),
                HEAD + """
                  static void helper(@Session("!<int>") SJSocket s, int v) {
                    if (v < 0) {
                      try (s) {
                        throw new IllegalArgumentException("negative");
                      }
                    }
                    s.send(v);
                  }
                }
                """);
    }

    /**
     * The corrected twins: the method leaves a failed session to its caller (whose handler closes it, or
     * whose try-with-resources statement does), or ends the session on every path, a throw's included.
     */
    @Test
    void aMethodThatRethrowsWithoutClosingOrClosesOnEveryPathCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface P {}
                  static void caller(@Session(protocol = P.class) SJService svc, int v) throws Exception {
                    try (SJSocket s = svc.request()) {
                      s.send(0);
                      helper(s, v);
                    }
                  }
                  static void helper(@Session("!<int>") SJSocket s, int v) throws SJIOException {
                    try { s.send(v); } catch (SJIOException e) { System.err.println("lost: " + e); throw e; }
                  }
                  static void owner(@Session(protocol = P.class) SJService svc, int v) {
                    SJSocket s = svc.request();
                    s.send(0);
                    finish(s, v);
                  }
                  static void finish(@Session("!<int>") SJSocket s, int v) {
                    try {
                      s.send(v);
                    } catch (SJIOException e) {
                      s.close();
                      throw new IllegalStateException(e);
                    }
                    s.close();
                  }
                  static void closing(@Session("!<int>") SJSocket s, int v) {
                    try (s) {
                      s.send(v);
                    } catch (SJIOException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  static void closingFinally(@Session("!<int>") SJSocket s, int v) {
                    try { s.send(v); } finally { s.close(); }
                  }
                }
                """);
    }
}
