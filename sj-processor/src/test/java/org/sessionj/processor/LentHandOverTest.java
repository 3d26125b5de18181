package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A {@code @Session} method that hands the socket it is lent to a session thread ({@code SJ.spawn}) or
 * a selector ({@code register}) ends the caller's session: the new owner runs it on after the call.
 * The caller may not use it afterwards (SJ025) nor close it, explicitly or as a try-with-resources
 * resource (SJ055). The eighth session's adversarial pass found each of these compiling.
 */
class LentHandOverTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("sbegin.?(int).!<int>") interface D {}
              @Protocol("cbegin.?(int).!<int>") interface P {}
              final SJSelector sel = SJSelector.of(D.class);
              void handle(@Session("?(int).!<int>") SJSocket s) { SJ.spawn(s, this::serve); }
              void serve(@Session("?(int).!<int>") SJSocket s) { s.send(2 * s.receiveInt()); }
              void mid(@Session("?(int).!<int>") SJSocket s) { handle(s); }
              void keep(@Session("?(int).!<int>") SJSocket s) { sel.register(s); }
            """;

    @Test
    void aResourceLentToAMethodThatSpawnsItIsRejected() {
        assertRejected("SJ055", 12, msg("session 's' is lent to 'handle', which hands it to a session thread",
                "resource of the try-with-resources statement on line 12"), HEAD + """
                  void run() {
                    SJServerSocket ss = SJServerSocket.create(D.class, 1);
                    try (SJSocket s = ss.accept()) { handle(s); }
                  }
                }
                """);
    }

    @Test
    void aResourceLentThroughTwoMethodsToASpawnIsRejected() {
        assertRejected("SJ055", 12, msg("lent to 'mid', which lends it to 'handle', which hands it to a session thread"),
                HEAD + """
                  void run() {
                    SJServerSocket ss = SJServerSocket.create(D.class, 1);
                    try (SJSocket s = ss.accept()) { mid(s); }
                  }
                }
                """);
    }

    @Test
    void aResourceLentToAMethodThatRegistersItIsRejected() {
        assertRejected("SJ055", 12, msg("lent to 'keep', which registers it with a selector"), HEAD + """
                  void run() {
                    SJServerSocket ss = SJServerSocket.create(D.class, 1);
                    try (SJSocket s = ss.accept()) { keep(s); }
                  }
                }
                """);
    }

    @Test
    void aResourceRegisteredWithASelectorIsRejected() {
        assertRejected("SJ055", 12, msg("session 's' is registered with selector 'sel'"), HEAD + """
                  void run() {
                    SJServerSocket ss = SJServerSocket.create(D.class, 1);
                    try (SJSocket s = ss.accept()) { sel.register(s); }
                  }
                }
                """);
    }

    @Test
    void closingASessionAfterLendingItToASpawnIsRejected() {
        assertRejected("SJ025", 14, msg("'s'", "hands it to a session thread"), HEAD + """
                  void run() {
                    SJServerSocket ss = SJServerSocket.create(D.class, 1);
                    SJSocket s = ss.accept();
                    handle(s);
                    s.close();
                  }
                }
                """);
    }

    @Test
    void actingOnASessionAfterLendingAPrefixToASpawnIsRejected() {
        assertRejected("SJ025", 10, msg("'s' is used after it was lent to 'handle'", "hands it to a session thread"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.?(int).!<int>") interface P {}
                  void handle(@Session("?(int)") SJSocket s) {
                    SJ.spawn(s, (@Session("?(int)") SJSocket c) -> { c.receiveInt(); });
                  }
                  void run() {
                    SJSocket s = SJService.create(P.class, "h", 1).request();
                    handle(s);
                    s.send(2);
                    s.close();
                  }
                }
                """);
    }

    @Test
    void handingOverALentSessionWithoutClosingItCompiles() {
        assertAccepted(HEAD + """
                  void run() {
                    SJServerSocket ss = SJServerSocket.create(D.class, 1);
                    SJSocket s = ss.accept();
                    handle(s);
                    SJSocket t = ss.accept();
                    keep(t);
                  }
                }
                """);
    }
}
