package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A lent method's own unchecked throw reached through dispatch (adv17 A2, the rest). A caller counts, at a
 * call that lends its socket, the own {@code throw} of the method the call names (adv15 A18) and, now, the
 * unchecked exceptions that method declares; the body that runs may be an override, an inherited
 * implementation, a lambda or a method reference, so such a body may throw with the session lent only
 * what the method it implements declares or throws itself (SJ057). Each rejected program compiled before:
 * {@code step.run(s); s.close();} left the session open half done when the implementation threw.
 */
class DispatchedThrowTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              interface Step { void run(@Session("!<int>.!<int>") SJSocket s, int v); }
              static void caller(@Session(protocol = P.class) SJService svc, Step step, int v) {
                SJSocket s = svc.request();
                step.run(s, v);
                s.close();
              }
            """;

    @Test
    void anImplementationThatThrowsWhatItsInterfaceMethodDoesNotDeclareIsRejected() {
        assertRejected("SJ057", 11, msg("'run' may throw IllegalArgumentException with its @Session parameter 's' "
                + "lent to it (the throw on line 13 in 'run'), but Step.run, which it implements, neither declares nor throws it",
                "declare it there (throws IllegalArgumentException)"), HEAD + """
                  static class Checked implements Step {
                    @Override public void run(@Session("!<int>.!<int>") SJSocket s, int v) {
                      s.send(v);
                      if (v < 0) throw new IllegalArgumentException("negative");
                      s.send(v);
                    }
                  }
                }
                """);
    }

    /** Also an override of a concrete method, and a throw one call further down (composed, as for direct calls). */
    @Test
    void anOverrideOfABodyThatDoesNotThrowIsRejected() {
        assertRejected("SJ057", 16, msg("'run' may throw IllegalStateException with its @Session parameter 's' lent "
                + "to it (the throw on line 12 in 'check')", "which it implements, neither declares nor throws it"), HEAD + """
                  static class Base implements Step { public void run(@Session("!<int>.!<int>") SJSocket s, int v) { s.send(v); s.send(v); } }
                  static void check(@Session("!<int>") SJSocket s, int v) {
                    if (v < 0) throw new IllegalStateException("negative");
                    s.send(v);
                  }
                  static class Deep extends Base {
                    @Override public void run(@Session("!<int>.!<int>") SJSocket s, int v) { s.send(v); check(s, v); }
                  }
                }
                """);
    }

    @Test
    void aLambdaThatThrowsIsRejected() {
        assertRejected("SJ057", 11, msg("the lambda may throw IllegalArgumentException",
                "Step.run, which it implements"), HEAD + """
                  static void make(@Session(protocol = P.class) SJService svc, int v) {
                    Step step = (s, w) -> { s.send(w); if (w < 0) throw new IllegalArgumentException(); s.send(w); };
                    caller(svc, step, v);
                  }
                }
                """);
    }

    @Test
    void aMethodReferenceToAThrowingMethodIsRejected() {
        assertRejected("SJ057", 11, msg("the method reference A::send2 may throw IllegalArgumentException"), HEAD + """
                  static void make(@Session(protocol = P.class) SJService svc, int v) {
                    caller(svc, A::send2, v);
                  }
                  static void send2(@Session("!<int>.!<int>") SJSocket s, int v) {
                    s.send(v);
                    if (v < 0) throw new IllegalArgumentException();
                    s.send(v);
                  }
                }
                """);
    }

    /** The caller's half: an unchecked exception the interface method declares is a throw point of the call. */
    @Test
    void aDeclaredUncheckedExceptionIsAThrowPointOfTheCall() {
        assertRejected("SJ024", 7, msg("session 's' is not complete if the call of 'run' on line 7 throws "
                + "IllegalArgumentException (declared by 'run', with the session lent to it)", ": !<int>.!<int> remains"),
                HEAD.replace("SJSocket s, int v); }", "SJSocket s, int v) throws IllegalArgumentException; }") + "}\n");
    }

    /** The corrected twins: declared on the interface method and a caller that closes on every path; or caught inside. */
    @Test
    void aDeclaredThrowWithACallerThatClosesOnEveryPathOrACaughtOneCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface P {}
                  interface Step { void run(@Session("!<int>.!<int>") SJSocket s, int v) throws IllegalArgumentException; }
                  static void caller(@Session(protocol = P.class) SJService svc, Step step, int v) {
                    try (SJSocket s = svc.request()) {
                      step.run(s, v);
                    }
                  }
                  static class Checked implements Step {
                    @Override public void run(@Session("!<int>.!<int>") SJSocket s, int v) {
                      s.send(v);
                      if (v < 0) throw new IllegalArgumentException("negative");
                      s.send(v);
                    }
                  }
                  interface Quiet { void run(@Session("!<int>.!<int>") SJSocket s, int v); }
                  static class Clamped implements Quiet {
                    @Override public void run(@Session("!<int>.!<int>") SJSocket s, int v) {
                      int w;
                      try {
                        if (v < 0) throw new IllegalArgumentException("negative");
                        w = v;
                      } catch (IllegalArgumentException e) {
                        w = 0;
                      }
                      s.send(w);
                      s.send(w);
                    }
                  }
                  static void make(@Session(protocol = P.class) SJService svc, int v) {
                    caller(svc, (s, w) -> { s.send(w); if (w < 0) throw new IllegalArgumentException(); s.send(w); }, v);
                  }
                }
                """);
    }
}
