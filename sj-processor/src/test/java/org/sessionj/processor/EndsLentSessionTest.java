package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A caller through an interface or an overridable method learns from that method whether the call ends
 * its session; the body that actually runs (an override, a lambda, a method reference) may not end a
 * session the method it implements does not (SJ056). The eighth session's adversarial pass found each
 * of these compiling, with the caller acting on the closed session afterwards.
 */
class EndsLentSessionTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              interface H { void on(@Session("!<int>") SJSocket s); }
              static void impl(@Session("!<int>") SJSocket s) { s.send(1); s.close(); }
              static void plain(@Session("!<int>") SJSocket s) { s.send(1); }
            """;

    @Test
    void anOverrideThatClosesItsLentSocketIsRejected() {
        assertRejected("SJ056", 7, msg("'on' ends its @Session parameter 's' (it closes it)", "but H.on"), HEAD + """
                  static class Impl implements H { public void on(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
                }
                """);
    }

    @Test
    void aLambdaThatClosesItsLentSocketIsRejected() {
        assertRejected("SJ056", 8, msg("the lambda ends its @Session parameter 's'", "but H.on"), HEAD + """
                  void run() {
                    H h = s -> { s.send(1); s.close(); };
                  }
                }
                """);
    }

    @Test
    void aMethodReferenceToAMethodThatClosesItsSocketIsRejected() {
        assertRejected("SJ056", 8, msg("the method reference A::impl ends its @Session parameter 's'"), HEAD + """
                  void run() {
                    H h = A::impl;
                  }
                }
                """);
    }

    @Test
    void aConstructorReferenceToAConstructorThatClosesItsSocketIsRejected() {
        assertRejected("SJ056", 9, msg("the method reference Closer::new ends its @Session parameter 's'",
                "it closes it", "but H.on"), HEAD + """
                  static class Closer { Closer(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
                  void run() {
                    H h = Closer::new;
                  }
                }
                """);
    }

    @Test
    void aConstructorReferenceToAConstructorThatLeavesTheSessionCompiles() {
        assertAccepted(HEAD + """
                  static class Sender { Sender(@Session("!<int>") SJSocket s) { s.send(1); } }
                  void run() {
                    H h = Sender::new;
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      h.on(s);
                      s.send(2);
                    }
                  }
                }
                """);
    }

    @Test
    void aClassOverrideThatClosesWhatTheOverriddenMethodKeepsIsRejected() {
        assertRejected("SJ056", 8, msg("'on' ends its @Session parameter 's'", "but Base.on"), HEAD + """
                  static class Base { public void on(@Session("!<int>") SJSocket s) { s.send(1); } }
                  static class Sub extends Base { public void on(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
                }
                """);
    }

    @Test
    void implementationsThatLeaveTheSessionToTheCallerCompile() {
        assertAccepted(HEAD + """
                  static class Impl implements H { public void on(@Session("!<int>") SJSocket s) { s.send(1); } }
                  static class Base { public void on(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
                  static class Sub extends Base { public void on(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
                  void run() {
                    H h = s -> s.send(1);
                    H r = A::plain;
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      h.on(s);
                      s.send(2);
                    }
                  }
                }
                """);
    }

    // adv10 F1: a callee that ends the session after the prefix it was lent abandons the caller's rest.

    @Test
    void aCalleeThatClosesAfterThePrefixItWasLentLeavesTheRestUndone() {
        assertRejected("SJ024", 9, msg("session 's' is not complete when it is lent to 'impl', which closes it "
                + "after !<int>: !<int> remains"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) {
                    SJSocket s = svc.request();
                    impl(s);
                  }
                }
                """);
    }

    @Test
    void aCalleeThatClosesItsResourceAfterThePrefixIsRejectedInsideTryWithResources() {
        assertRejected("SJ024", 9, msg("which closes it (try-with-resources) after !<int>: !<int> remains"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      finish(s);
                    }
                  }
                  static void finish(@Session("!<int>") SJSocket t) { try (t) { t.send(1); } }
                }
                """);
    }

    @Test
    void aCalleeThatDelegatesAfterThePrefixIsRejected() {
        assertRejected("SJ024", 10, msg("which delegates it after !<int>: !<int> remains"), HEAD + """
                  @Protocol("cbegin.!<!<int>>") interface D {}
                  void run(@Session(protocol = P.class) SJService svc, @Session(protocol = D.class) SJService dsvc) {
                    try (SJSocket s = svc.request(); SJSocket d = dsvc.request()) {
                      hand(s, d);
                    }
                  }
                  static void hand(@Session("!<int>") SJSocket t, @Session("!<!<int>>") SJSocket d) { d.send(t); }
                }
                """);
    }

    @Test
    void aCalleeThatSpawnsAfterThePrefixIsRejected() {
        assertRejected("SJ024", 9, msg("which hands it to a session thread (SJ.spawn) after !<int>: !<int> remains"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) {
                    SJSocket s = svc.request();
                    fork(s);
                  }
                  static void fork(@Session("!<int>") SJSocket t) { SJ.spawn(t, (@Session("!<int>") SJSocket x) -> x.send(1)); }
                }
                """);
    }

    @Test
    void aCalleeLentTheWholeRestMayEndIt() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) {
                    SJSocket s = svc.request();
                    s.send(0);
                    impl(s);
                  }
                  static void whole(@Session("!<int>.!<int>") SJSocket t) { try (t) { t.send(1); t.send(2); } }
                  void again(@Session(protocol = P.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      whole(s);
                    }
                  }
                }
                """);
    }
}
