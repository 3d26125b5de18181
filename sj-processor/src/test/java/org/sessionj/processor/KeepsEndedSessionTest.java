package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * The other half of SJ056 (adv10 F12): a caller counts its socket as ended after a call to a method
 * whose body ends it, and may not close it then, so the body that actually runs must end it too — an
 * override of such a method (SJ037) and every path of the method's own body that returns (SJ038).
 * Each rejected program here compiled before, and its session stayed open with nobody to close it.
 */
class KeepsEndedSessionTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.?(String)") interface C {}
              interface Step { default void run(@Session("!<int>.?(String)") SJSocket s) { s.send(1); String r = s.receive(); s.close(); } }
            """;

    @Test
    void anOverrideThatDoesNotCloseWhatTheDefaultMethodClosesIsRejected() {
        assertRejected("SJ037", 6, msg("'run' does not end its @Session parameter 's', but Step.run, which it "
                + "implements, does (closes it)", "nobody would"), HEAD + """
                  static class Lazy implements Step {
                    @Override public void run(@Session("!<int>.?(String)") SJSocket s) { s.send(1); String r = s.receive(); }
                  }
                  static void m(@Session(protocol = C.class) SJService svc, Step st) { SJSocket s = svc.request(); st.run(s); }
                }
                """);
    }

    @Test
    void aClassOverrideThatDoesNotEndWhatTheOverriddenMethodLendsToAnEndingMethodIsRejected() {
        assertRejected("SJ037", 7, msg("'give' does not end its @Session parameter 's'", "but Base.give",
                "(lends it to 'finish', which closes it (try-with-resources))"), """
                import org.sessionj.api.*;
                abstract class A {
                  static void finish(@Session("!<int>") SJSocket t) { try (t) { t.send(1); } }
                  static class Base { void give(@Session("!<int>") SJSocket s) { finish(s); } }
                  static class Sub extends Base {
                    @Override
                    void give(
                        @Session("!<int>") SJSocket s) { s.send(1); }
                  }
                }
                """);
    }

    @Test
    void anAbstractRedeclarationOfAMethodThatEndsItsSocketIsRejected() {
        // Implementations of Again.run may not end the socket (SJ056), callers through Step.run count it ended.
        assertRejected("SJ037", 5, msg("'run' does not end its @Session parameter 's', but Step.run"), HEAD + """
                  interface Again extends Step { @Override void run(@Session("!<int>.?(String)") SJSocket s); }
                }
                """);
    }

    @Test
    void anInheritedImplementationThatDoesNotCloseIsRejectedAtTheClass() {
        assertRejected("SJ037", 8, msg("'Base.run' as inherited by 'Impl' does not end its @Session parameter 's'",
                "but Step.run"), HEAD + """
                  static class Base {
                    public void run(@Session("!<int>.?(String)") SJSocket s) { s.send(1); String r = s.receive(); }
                  }
                  static class Impl extends Base implements Step {}
                }
                """);
    }

    @Test
    void overridesThatEndTheSessionTooCompile() {
        assertAccepted(HEAD + """
                  static class Logged implements Step {
                    @Override public void run(@Session("!<int>.?(String)") SJSocket s) { Step.super.run(s); }
                  }
                  static class Own implements Step {
                    @Override public void run(@Session("!<int>.?(String)") SJSocket s) {
                      try (s) { s.send(2); String r = s.receive(); }
                    }
                  }
                  static void m(@Session(protocol = C.class) SJService svc, Step st) { SJSocket s = svc.request(); st.run(s); }
                }
                """);
    }

    // SJ038: the method's own body ends the session on some paths only.

    @Test
    void aMethodThatClosesOnOneBranchOnlyIsRejectedWhereTheBranchesMeet() {
        assertRejected("SJ038", 6, msg("session 's': 'f' ends it on some paths but not on others",
                "the branches of this if meet with it open on one path and closed on line 6 on another"), HEAD + """
                  static void f(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    s.send(1); String r = s.receive(); if (c) s.close();
                  }
                  static void m(@Session(protocol = C.class) SJService svc, boolean c) { SJSocket s = svc.request(); f(s, c); }
                }
                """);
    }

    @Test
    void aMethodThatClosesBeforeAnEarlyReturnOnlyIsRejectedAtTheExitThatLeavesItOpen() {
        assertRejected("SJ038", 11, msg("'f' ends it on some paths but not on others (it is open at the return on "
                + "line 11 but ended at the return on line 9)"), HEAD + """
                  static int f(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    s.send(1); String r = s.receive();
                    if (c) {
                      s.close();
                      return 0;
                    }
                    return 1;
                  }
                }
                """);
    }

    @Test
    void aMethodThatLendsItsSocketToAnEndingMethodOnOnePathIsRejectedAtTheEndOfTheBody() {
        assertRejected("SJ038", 5, msg("it is open at the end of the body but ended at the return on line 8"), HEAD + """
                  static void f(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    if (c) {
                      new Step() {}.run(s);
                      return;
                    }
                    s.send(1); String r = s.receive();
                  }
                }
                """);
    }

    @Test
    void aConstructorThatClosesOnOneBranchOnlyIsRejected() {
        assertRejected("SJ038", 7, msg("the constructor of K ends it on some paths"), HEAD + """
                  static class K {
                    K(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                      s.send(1); String r = s.receive(); if (c) { s.close(); } else { }
                    }
                  }
                }
                """);
    }

    @Test
    void methodsThatEndTheirSocketOnEveryPathOrOnNoneCompile() {
        assertAccepted(HEAD + """
                  static int every(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    s.send(1); String r = s.receive();
                    if (c) {
                      s.close();
                      return 0;
                    }
                    s.close();
                    return 1;
                  }
                  static void none(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    s.send(1);
                    if (c) { String r = s.receive(); return; }
                    String r = s.receive();
                  }
                  static void resource(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    try (s) {
                      s.send(1);
                      if (c) { String r = s.receive(); return; }
                      String r = s.receive();
                    }
                  }
                  static void thrower(@Session("!<int>.?(String)") SJSocket s, boolean c) {
                    s.send(1); String r = s.receive();
                    if (c) throw new IllegalStateException("no close: the caller's session is unknown after a throw");
                    s.close();
                  }
                  static void local(@Session(protocol = C.class) SJService svc, boolean c) {
                    // A local socket (not lent by a caller) may be closed on one path and left on another.
                    SJSocket s = svc.request();
                    s.send(1); String r = s.receive();
                    if (c) s.close();
                  }
                  static void m(@Session(protocol = C.class) SJService svc, boolean c) {
                    SJSocket s = svc.request();
                    every(s, c);
                    try (SJSocket t = svc.request()) { none(t, c); }
                  }
                }
                """);
    }
}
