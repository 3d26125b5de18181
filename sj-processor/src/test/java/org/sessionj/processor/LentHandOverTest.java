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
        assertRejected("SJ024", 9, msg("'s' is not complete when it is lent to 'handle', which hands it to a session "
                + "thread (SJ.spawn) after ?(int): !<int> remains"), """
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

    /** A method lending its socket to a constructor that closes it ends the caller's session (adv8 finding 17). */
    @Test
    void aMethodLendingItsSocketToAClosingConstructorEndsTheCallersSession() {
        assertRejected("SJ025", 7, msg("lent to 'handle' on line 7, which lends it to 'Closer', which closes it"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>") interface P {}
                  static class Closer { Closer(@Session("!<int>") SJSocket s) { s.send(1); s.close(); } }
                  void handle(@Session("!<int>") SJSocket s) { new Closer(s); }
                  void run() {
                    try (SJSocket s = SJService.create(P.class, "h", 1).request()) { handle(s); s.send(2); }
                  }
                }
                """);
    }

    /**
     * Mutual recursion: whether b ends its parameter (through a) must not depend on which call the
     * checker meets first (adv8 finding 16: a's call first cached "b does not end it").
     */
    @Test
    void mutuallyRecursiveMethodsEndTheSessionWhicheverIsAskedFirst() {
        assertRejected("SJ025", 9, msg("'s2' is used after it was lent to 'b'", "which lends it to 'a', which closes it"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>") interface P {}
                  void run() {
                    SJService svc = SJService.create(P.class, "h", 1);
                    SJSocket s1 = svc.request();
                    a(s1, true);
                    SJSocket s2 = svc.request();
                    b(s2); s2.send(2);
                    s2.close();
                  }
                  void a(@Session("!<int>") SJSocket s, boolean first) { if (first) { b(s); } else { s.send(1); s.close(); } }
                  void b(@Session("!<int>") SJSocket s) { a(s, false); }
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
