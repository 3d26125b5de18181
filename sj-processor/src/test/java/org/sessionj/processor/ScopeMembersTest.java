package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Adding a socket to an {@code SJScope} gives the scope the duty to close it and nothing else: the
 * socket stays tracked where it is ({@code scope.add(a);} is neither an escape nor a move). A scope
 * member may then not be handed to another owner that outlives this code (a session thread, a
 * selector, a method that spawns or registers it): the scope would close it under that owner (SJ055,
 * or SJ051 for {@code SJ.spawn} itself, as for a try-with-resources resource).
 */
class ScopeMembersTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              @Protocol("sbegin.?(int).?(int)") interface Q {}
              static void serve(@Session("!<int>.!<int>") SJSocket s) { s.send(1); s.send(2); }
              static void later(@Session("!<int>.!<int>") SJSocket s) { SJ.spawn(s, A::serve); }
            """;

    @Test
    void addingATrackedSocketToAScopeAsAStatementKeepsItTracked() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = left.request();
                      scope.add(a);
                      a.send(1);
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /**
     * adv17 A1: a member declared outside the scope's block is closed when the scope closes, at the block's
     * end: it must be complete there, and is closed after it (runtime-confirmed: the next send failed with
     * "the session was closed before its type was complete", and the peer was told it was cut short).
     */
    @Test
    void aMemberDeclaredOutsideTheScopesBlockIsClosedAtItsEnd() {
        assertRejected("SJ024", 9, msg("session 'a' is not complete when the scope 'scope' closes it (the end of this "
                + "try-with-resources block): !<int> remains"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    SJSocket a = left.request();
                    try (SJScope scope = SJ.scope()) {
                      scope.add(a);
                      a.send(1);
                    }
                    a.send(2);
                    a.close();
                  }
                }
                """);
        assertRejected("SJ025", 14, msg("session 'a' is used after it was closed by the scope 'scope' at the end of "
                + "the try-with-resources block on line 9"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    SJSocket a = left.request();
                    try (SJScope scope = SJ.scope()) {
                      scope.add(a);
                      a.send(1);
                      a.send(2);
                    }
                    later(a);
                  }
                }
                """);
    }

    /** Corrected adv17 A1: complete inside the block, and not used after it; or added in the block it lives in. */
    @Test
    void aMemberDeclaredOutsideTheScopesBlockCompleteInIt() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    SJSocket a = left.request();
                    try (SJScope scope = SJ.scope()) {
                      scope.add(a);
                      a.send(1);
                      a.send(2);
                    }
                    System.out.println("done");
                  }
                }
                """);
    }

    @Test
    void aScopeMemberStillHasToCompleteItsSession() {
        assertRejected("SJ024", 9, msg("'a'"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = left.request();
                      scope.add(a);
                      a.send(1);
                    }
                  }
                }
                """);
    }

    @Test
    void spawningASocketDeclaredFromScopeAddIsRejected() {
        assertRejected("SJ051", 10, msg("session 'a' cannot be handed to this session thread",
                "it was added to a scope on line 9", "which closes it"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = scope.add(left.request());
                      SJ.spawn(a, A::serve);
                    }
                  }
                }
                """);
    }

    @Test
    void spawningASocketAddedByAStatementIsRejected() {
        assertRejected("SJ051", 11, msg("it was added to a scope on line 10"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = left.request();
                      scope.add(a);
                      SJ.spawn(a, A::serve);
                    }
                  }
                }
                """);
    }

    @Test
    void lendingAScopeMemberToAMethodThatSpawnsItIsRejected() {
        assertRejected("SJ055", 11, msg("session 'a' is lent to 'later'", "it was added to a scope on line 10"),
                HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = left.request();
                      scope.add(a);
                      later(a);
                    }
                  }
                }
                """);
    }

    @Test
    void registeringAScopeMemberWithASelectorIsRejected() {
        assertRejected("SJ055", 12, msg("session 'a' is registered with selector 'selector'",
                "it was added to a scope on line 11"), HEAD + """
                  void run(@Session(protocol = Q.class) SJServerSocket server) {
                    SJSelector selector = SJSelector.of(Q.class);
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = server.accept();
                      scope.add(a);
                      selector.register(a);
                    }
                  }
                }
                """);
    }

    @Test
    void aMethodThatAddsItsLentSocketToAScopeEndsIt() {
        assertRejected("SJ025", 12, msg("'a'", "which adds it to a scope (SJScope), which closes it"), HEAD + """
                  static void keep(SJScope scope, @Session("!<int>.!<int>") SJSocket s) { s.send(1); s.send(2); scope.add(s); }
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = left.request();
                      keep(scope, a);
                      a.send(2);
                    }
                  }
                }
                """);
    }

    @Test
    void spawningASocketThatIsInNoScopeCompiles() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService left, @Session(protocol = P.class) SJService right) {
                    try (SJScope scope = SJ.scope()) {
                      SJSocket a = left.request();
                      SJSocket b = scope.add(right.request());
                      SJ.spawn(a, A::serve);
                      b.send(1);
                      b.send(2);
                    }
                  }
                }
                """);
    }
    /**
     * adv11 A9: closing a scope closes its members, so the checker must see where that happens: a scope is
     * a try-with-resources resource used only by {@code add}. An explicit close, a scope handed on or
     * stored, or one declared elsewhere is SJ017.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "try (SJScope sc = SJ.scope()) { SJSocket a = sc.add(left.request()); a.send(1); sc.close(); a.send(2); a.close(); }",
        "try (SJScope sc = SJ.scope()) { SJSocket a = sc.add(left.request()); a.send(1); shut(sc); a.send(2); a.close(); }",
        "try (SJScope sc = SJ.scope()) { Object o = sc; SJSocket a = left.request(); a.send(1); a.send(2); a.close(); }",
        "try (SJScope sc = SJ.scope()) { Runnable r = sc::close; SJSocket a = left.request(); a.send(1); a.send(2); a.close(); }",
    })
    void aScopeClosedOrHandedOnOutsideItsBlockIsRejected(String body) {
        assertRejected("SJ017", 9, msg("the scope 'sc' is used only as sc.add(...)"), HEAD + """
                  static void shut(AutoCloseable s) { }
                  void run(@Session(protocol = P.class) SJService left) {
                    %s
                  }
                }
                """.formatted(body));
    }

    @Test
    void aScopeOutsideTryWithResourcesIsRejected() {
        assertRejected("SJ017", 8, msg("the scope 'sc' must be a try-with-resources resource"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    SJScope sc = SJ.scope();
                    SJSocket a = sc.add(left.request());
                    a.send(1);
                    a.send(2);
                    a.close();
                  }
                }
                """);
        assertRejected("SJ017", 8, msg("SJ.scope() must initialise a try-with-resources resource"), HEAD + """
                  void run() {
                    SJ.scope().close();
                  }
                }
                """);
        assertRejected("SJ017", 7, msg("the scope 'kept' must be a try-with-resources resource"), HEAD + """
                  private final SJScope kept = null;
                }
                """);
        assertRejected("SJ017", 7, msg("the scope 'given' is used only as given.add(...)"), HEAD + """
                  static void helper(SJScope given) { given.close(); }
                }
                """);
    }

    /** {@code try (sc) {}} on a scope that exists closes it a second time: in its own block or in a method given it (adv12 A2). */
    @Test
    void aScopeNamedAsAnotherTryWithResourcesResourceIsRejected() {
        assertRejected("SJ017", 7, msg("the scope 'sc' is closed at the end of this try-with-resources block"), HEAD + """
                  static void audit(SJScope sc) { try (sc) { System.out.println("audit done"); } }
                }
                """);
        assertRejected("SJ017", 8, msg("the scope 'sc' is closed at the end of this try-with-resources block"), HEAD + """
                  void run(@Session(protocol = P.class) SJService left) {
                    try (SJScope sc = SJ.scope(); SJSocket a = sc.add(left.request())) { a.send(1); try (sc) { } a.send(2); }
                  }
                }
                """);
    }

    @Test
    void aScopeUsedByAddInsideItsBlockIsFine() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService left, @Session(protocol = P.class) SJService right) {
                    try (SJScope sc = SJ.scope(); SJSocket a = sc.add(left.request())) {
                      SJSocket b = right.request();
                      sc.add(b);
                      a.send(1);
                      a.send(2);
                      b.send(1);
                      b.send(2);
                    }
                  }
                }
                """);
    }
}
