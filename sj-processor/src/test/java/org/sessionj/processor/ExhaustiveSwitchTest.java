package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A switch javac knows to be exhaustive (a switch expression, or an enhanced switch statement: one with
 * a pattern or {@code case null}, or over a type that is not an int-like, String or enum type) has no
 * path on which no case matches: javac adds one that throws {@code MatchException}. A session action in
 * every arm then leaves the socket in one state. An old-style switch statement over an enum, even
 * naming every constant, does complete without a match when the enum gains a constant (separate
 * compilation), so that path stays.
 */
class ExhaustiveSwitchTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              sealed interface Shape permits Circle, Square {}
              record Circle(int r) implements Shape {}
              record Square(int side) implements Shape {}
              enum Colour { RED, GREEN }
            """;

    @Test
    void aPatternSwitchStatementOverASealedInterfaceWithAnActionInEveryArmCompiles() {
        assertAccepted(HEAD + """
                  void run(Shape shape) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (shape) {
                        case Circle c -> s.send(c.r());
                        case Square q -> s.send(q.side());
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void anOldStylePatternSwitchStatementWithAnActionInEveryGroupCompiles() {
        assertAccepted(HEAD + """
                  void run(Shape shape) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (shape) {
                        case Circle c:
                          s.send(c.r());
                          break;
                        case Square q:
                          s.send(q.side());
                          break;
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void anEnumSwitchStatementWithCaseNullNamingEveryConstantCompiles() {
        assertAccepted(HEAD + """
                  void run(Colour colour) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (colour) {
                        case null -> s.send(-1);
                        case RED -> s.send(1);
                        case GREEN -> s.send(2);
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void aSwitchExpressionOverAnEnumWithAnActionInEveryArmCompiles() {
        assertAccepted(HEAD + """
                  void run(Colour colour) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      int n = switch (colour) {
                        case RED -> { s.send(1); yield 1; }
                        case GREEN -> { s.send(2); yield 2; }
                      };
                      s.send(n);
                    }
                  }
                }
                """);
    }

    @Test
    void aSwitchExpressionOverASealedInterfaceWithAnActionInEveryArmCompiles() {
        assertAccepted(HEAD + """
                  void run(Shape shape) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      int n = switch (shape) {
                        case Circle c -> { s.send(c.r()); yield 1; }
                        case Square q -> { s.send(q.side()); yield 2; }
                      };
                      s.send(n);
                    }
                  }
                }
                """);
    }

    @Test
    void anExhaustivePatternSwitchWhoseArmsDisagreeIsStillRejected() {
        assertRejected("SJ020", 10, msg("the cases of this switch"), HEAD + """
                  void run(Shape shape) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (shape) {
                        case Circle c -> s.send(c.r());
                        case Square q -> { }
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void anOldStyleEnumSwitchStatementKeepsItsNoMatchPath() {
        assertRejected("SJ020", 10, msg("the path where none matches", "add default -> throw"), HEAD + """
                  void run(Colour colour) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (colour) {
                        case RED -> s.send(1);
                        case GREEN -> s.send(2);
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void anOldStyleEnumSwitchStatementWithADefaultThatThrowsCompiles() {
        assertAccepted(HEAD + """
                  void run(Colour colour) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (colour) {
                        case RED -> s.send(1);
                        case GREEN -> s.send(2);
                        default -> throw new IllegalStateException("" + colour);
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void aGuardedPatternSwitchWithAnActionInEveryArmCompiles() {
        assertAccepted(HEAD + """
                  void run(Shape shape) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (shape) {
                        case Circle c when c.r() > 0 -> s.send(c.r());
                        case Circle c -> s.send(0);
                        case Square q -> s.send(q.side());
                      }
                      s.send(0);
                    }
                  }
                }
                """);
    }

    @Test
    void aSwitchOverASealedSelectorWhoseCaseIsNotExhaustiveIsLeftToJavac() {
        // javac rejects it itself ("the switch statement does not cover all possible input values").
        com.google.testing.compile.CompilationSubject.assertThat(CompilerHarness.compile(HEAD + """
                  void run(Shape shape) {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) {
                      switch (shape) {
                        case Circle c -> s.send(c.r());
                      }
                      s.send(0);
                    }
                  }
                }
                """)).hadErrorContaining("does not cover all possible input values");
    }
}
