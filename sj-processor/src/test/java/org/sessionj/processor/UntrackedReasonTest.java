package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * SJ010 names the expression that has no session type and says why it is not tracked: a method's
 * result, a field, an array element, a cast, a socket made with new, or a variable initialised from
 * something that begins no session.
 */
class UntrackedReasonTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>") interface P {}
              SJSocket kept;
              static SJSocket open(SJService service) { return null; }
            """;

    @Test
    void aMethodResultIsNamedWithItsReceiverAndArguments() {
        assertRejected("SJ010", 7, msg("the session returned by 'open(service)'",
                "a method's result carries no session type", "what 'open' returns could be any session"), HEAD + """
                  void run(@Session(protocol = P.class) SJService service) {
                    open(service).send(1);
                  }
                }
                """);
    }

    @Test
    void aFieldSaysThatFieldsAreNotTracked() {
        assertRejected("SJ010", 7, msg("field 'this.kept'", "a session kept in a field is not tracked"), HEAD + """
                  void run() {
                    this.kept.send(1);
                  }
                }
                """);
    }

    @Test
    void anArrayElementSaysWhy() {
        assertRejected("SJ010", 7, msg("array element 'all[0]'", "not tracked one by one"), HEAD + """
                  void run(SJSocket[] all) {
                    all[0].send(1);
                  }
                }
                """);
    }

    @Test
    void aCastSaysFromWhat() {
        assertRejected("SJ010", 7, msg("the cast '(SJSocket)o'", "a cast from 'java.lang.Object'"), HEAD + """
                  void run(Object o) {
                    ((SJSocket) o).send(1);
                  }
                }
                """);
    }

    /** Null is no session (adv10 F17): the declaration is fine, an action on it says where it was set. */
    @Test
    void aVariableInitialisedFromNullSaysFromWhere() {
        assertRejected("SJ025", 8, msg("session 't' is used after it was set to null on line 7"), HEAD + """
                  void run() {
                    SJSocket t = null;
                    t.close();
                  }
                }
                """);
    }

    /** adv13 A9: the literal null given to a @Session parameter is no session either. */
    @Test
    void theNullLiteralGivenToASessionParameterIsNoSession() {
        assertRejected("SJ025", 8, msg("session 's' is used after it was given null by this call of 'f'"), HEAD + """
                  static void f(@Session("!<int>") SJSocket s) { s.send(1); }
                  void run() {
                    f(null);
                  }
                }
                """);
    }
}
