package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * {@code new C(s) { … }}: an anonymous class's constructor passes its arguments on to the superclass
 * constructor the call names, so the call is checked against that constructor's {@code @Session}
 * parameters (javac's own constructor for the anonymous class has no annotations).
 */
class AnonymousSubclassTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              static class Conn {
                Conn(@Session("!<int>") SJSocket s) { s.send(1); }
                Conn(int n) { }
                void go() { }
              }
              static class Closer { Closer(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
            """;

    @Test
    void anAnonymousSubclassOfASessionConstructorRunsItsPart() {
        assertAccepted(HEAD + """
                  void run() {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      Conn c = new Conn(s) { @Override void go() { } };
                      s.send(2);
                    }
                  }
                }
                """);
    }

    @Test
    void theSessionTypeOfTheSuperConstructorIsEnforced() {
        assertRejected("SJ012", 14, msg("'s'"), HEAD + """
                  void run() {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      Conn c = new Conn(s) { };
                      s.send(2);
                      s.send(3);
                    }
                  }
                }
                """);
    }

    @Test
    void aSuperConstructorThatEndsTheSessionEndsItHereToo() {
        // The callee closes the session after the part it is lent: the caller's rest is abandoned.
        assertRejected("SJ024", 12, msg("'s'", "lent to 'Closer', which closes it"), HEAD + """
                  void run() {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      Closer c = new Closer(s) { };
                      s.send(2);
                    }
                  }
                }
                """);
    }

    @Test
    void anAnonymousSubclassThroughAnotherConstructorIsAnOrdinaryCall() {
        assertAccepted(HEAD + """
                  void run() {
                    Conn c = new Conn(3) { };
                  }
                }
                """);
    }
}
