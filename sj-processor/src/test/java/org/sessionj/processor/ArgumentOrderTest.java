package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java evaluates every argument of a call before the callee runs, so an argument that acts on a
 * socket lent to the same call ({@code f(s, s.receiveInt())}, {@code f(s, g(s))}) acts before the
 * callee's part of the session: the lending is checked after the other arguments (adv10 finding 8,
 * where the callee's type was applied first and both wrong programs compiled and right ones did not).
 */
class ArgumentOrderTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<String>.?(int)") interface SendFirst {}
              @Protocol("cbegin.?(int).!<String>") interface ReceiveFirst {}
              @Protocol("cbegin.!<int>.!<String>") interface IntThenString {}
              static void f(@Session("!<String>") SJSocket s, int x) { s.send("a" + x); }
              static int g(@Session("!<int>") SJSocket s) { s.send(1); return 2; }
              A(@Session("!<String>") SJSocket s, int x) { s.send("b" + x); }
            """;

    @Test
    void anArgumentThatReceivesActsBeforeTheCallee() {
        assertRejected("SJ012", 11, msg("session 's': expected !<java.lang.String> but the program receives ?(int)"),
                HEAD + """
                  void run(@Session(protocol = SendFirst.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      f(s, s.receiveInt());
                    }
                  }
                }
                """);
    }

    @Test
    void receivingInAnArgumentThenLendingTheRestIsFine() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = ReceiveFirst.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      f(s, s.receiveInt());
                    }
                  }
                }
                """);
    }

    @Test
    void aNestedLendingInAnArgumentRunsFirst() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = IntThenString.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      f(s, g(s));
                    }
                  }
                  void viaConstructor(@Session(protocol = IntThenString.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      new A(s, g(s));
                    }
                  }
                }
                """);
    }

    @Test
    void aNestedLendingInTheWrongOrderIsRejected() {
        assertRejected("SJ035", 12, msg("the call to 'g'"), HEAD + """
                  @Protocol("cbegin.!<String>.!<int>") interface StringThenInt {}
                  void run(@Session(protocol = StringThenInt.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      f(s, g(s));
                    }
                  }
                }
                """);
    }
    /**
     * adv11 A3: a socket variable reassigned inside an argument. Java evaluates {@code s} (the old
     * socket) before the later argument reassigns it, so {@code f} is lent the old session while the
     * checker would follow the new one: an assignment to a socket variable is a statement of its own.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "h(s, (s = svc.request()) != null);",
        "s.send((s = svc.request()) != null ? 2 : 3);",
        "boolean b = (s = svc.request()) != null;",
        "Object o = s = svc.request();",
    })
    void aSocketReassignedInsideAnExpressionIsRejected(String statement) {
        assertRejected("SJ017", 15, msg("an assignment to session socket 's' must be a statement of its own"),
                HEAD + """
                  @Protocol("cbegin.!<int>") interface OneInt {}
                  static void h(@Session("!<int>") SJSocket t, boolean b) { t.send(2); }
                  void run(@Session(protocol = OneInt.class) SJService svc) {
                    SJSocket s = svc.request();
                    s.send(1);
                    s.close();
                    %s
                    s.close();
                  }
                }
                """.formatted(statement));
    }

    @Test
    void aSocketReassignedByAStatementIsFine() {
        assertAccepted(HEAD + """
                  @Protocol("cbegin.!<int>") interface OneInt {}
                  void run(@Session(protocol = OneInt.class) SJService svc) {
                    SJSocket s = svc.request();
                    s.send(1);
                    s.close();
                    (s) = svc.request();
                    s.send(2);
                    s.close();
                  }
                }
                """);
    }
}
