package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A session lent to a {@code @Session} method runs the part of its type that the parameter declares:
 * that part is compared with what the session has left up to unfolding of recursion and renaming of
 * recursion variables (the same behaviour), not by the text of the variables.
 */
class RecursionUpToRenamingTest {
    private static String program(String parameterType, String body) {
        return """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.rec X[!{MORE: !<int>.#X, DONE: }].?(int)") interface Stream {}
                  static void stream(@Session("%s") SJSocket s, int n) {
                    if (n > 0) {
                      s.outbranch("MORE");
                      s.send(n);
                %s
                    } else {
                      s.outbranch("DONE");
                    }
                  }
                  void run() {
                    try (SJSocket s = SJService.create(Stream.class, "h", 1).request()) {
                      stream(s, 3);
                      int total = s.receiveInt();
                    }
                  }
                }
                """.formatted(parameterType, body);
    }

    @Test
    void aParameterWhoseRecursionVariableHasAnotherNameCompiles() {
        assertAccepted(program("rec Y[!{MORE: !<int>.#Y, DONE: }]", "      stream(s, n - 1);"));
    }

    @Test
    void aParameterThatIsTheProtocolUnfoldedOnceWithAnotherNameCompiles() {
        assertAccepted(program("!{MORE: !<int>.rec Y[!{MORE: !<int>.#Y, DONE: }], DONE: }",
                "      helper(s, n - 1);") .replace("  void run() {", """
                  static void helper(@Session("rec Z[!{MORE: !<int>.#Z, DONE: }]") SJSocket s, int n) {
                    stream(s, n);
                  }
                  void run() {
                """));
    }

    @Test
    void aParameterOfAnotherBehaviourIsStillRejected() {
        assertRejected("SJ035", 15, msg("the call to 'stream'"),
                program("rec Y[!{MORE: !<String>.#Y, DONE: }]", "      stream(s, n - 1);").replace(
                        "s.send(n);", "s.send(\"\" + n);"));
    }

    @Test
    void anOverrideWhoseTypeRenamesTheRecursionVariableCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                class A {
                  interface H { void on(@Session("rec X[!{MORE: !<int>.#X, DONE: }]") SJSocket s); }
                  static class Impl implements H {
                    public void on(@Session("rec Y[!{MORE: !<int>.#Y, DONE: }]") SJSocket s) { s.outbranch("DONE"); }
                  }
                }
                """);
    }

    @Test
    void anOverrideOfAnotherBehaviourIsStillRejected() {
        assertRejected("SJ036", 5, msg("'on'"), """
                import org.sessionj.api.*;
                class A {
                  interface H { void on(@Session("rec X[!{MORE: !<int>.#X, DONE: }]") SJSocket s); }
                  static class Impl implements H {
                    public void on(@Session("rec Y[!{MORE: !<long>.#Y, DONE: }]") SJSocket s) { s.outbranch("DONE"); }
                  }
                }
                """);
    }
}
