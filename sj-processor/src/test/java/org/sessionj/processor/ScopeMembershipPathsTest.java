package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv18 A4: scope membership is a per-path fact. {@code if (flag) sc.add(a);} made {@code a} a member on
 * both paths, so an exception after the block abandoned {@code a} with no SJ024 on the path that did not
 * add it (the peer waited), and {@code if (!flag) a.close();} after the scope was a false SJ025. Now a
 * socket is a member where every path reaching a point added it; where paths with and without the add
 * meet it is a member on some paths only: not covered at an exception exit (SJ024), complete where the
 * scope closes it (SJ024), and neither closed nor open after the scope (a close is allowed, closing again
 * does nothing).
 */
class ScopeMembershipPathsTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              static void work() throws Exception {}
              static void serve(@Session("!<int>.!<int>") SJSocket s) { s.send(1); s.send(2); }
            """;

    private static final String SOME_PATHS = "it is a member of a scope on some paths only";

    /** The finding: added under a condition, then an exception out of the scope with the session half done. */
    @Test
    void aSocketAddedOnOnePathIsNotCoveredOnTheOther() {
        assertRejected("SJ024", 13, msg("session 'a' is not complete if the call of 'work' on line 13 throws",
                SOME_PATHS, "!<int> remains"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean flag) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      if (flag) {
                        sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** Corrected: added on every path (or before the condition). */
    @Test
    void aSocketAddedOnEveryPathIsCovered() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean flag) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      if (flag) {
                        sc.add(a);
                      } else {
                        System.out.println("also added");
                        sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** The false alarm of the same root (adv18 A4, C3): nothing closed 'a' on the path that did not add it. */
    @Test
    void aSessionCompleteWhereTheScopeClosesItOnSomePathsMayBeClosedAfter() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean flag) {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      if (flag) {
                        sc.add(a);
                      }
                      a.send(1);
                      a.send(2);
                    }
                    if (!flag) {
                      a.close();
                    }
                  }
                }
                """);
    }

    /** Where the scope closes it on the paths that added it, it must be complete, as a member on every path. */
    @Test
    void aMemberOnSomePathsMustBeCompleteWhereTheScopeCloses() {
        assertRejected("SJ024", 8, msg("session 'a' is not complete when the scope 'sc' closes it",
                "it was added to the scope on some paths only", "!<int> remains"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean flag) {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      if (flag) {
                        sc.add(a);
                      }
                      a.send(1);
                    }
                    a.send(2);
                  }
                }
                """);
    }

    /** A loop may run no round: a socket added in its body is a member on some paths after it. */
    @Test
    void aSocketAddedInALoopBodyIsAMemberOnSomePathsAfterIt() {
        assertRejected("SJ024", 14, msg("'work' on line 14", SOME_PATHS), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, java.util.List<String> names) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      for (String name : names) {
                        System.out.println(name);
                        sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
        // a round that breaks out before the add: the loop's exits meet with and without it
        assertRejected("SJ024", 9, msg("session 'a' is not complete when the scope 'sc' closes it",
                "it was added to the scope on some paths only"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, int n) {
                    SJSocket a = svc.request();
                    a.send(1);
                    try (SJScope sc = SJ.scope()) {
                      do {
                        if (n == 3) break;
                        sc.add(a);
                      } while (n-- > 0);
                    }
                    a.send(2);
                  }
                }
                """);
    }

    /** Corrected: added before the loop; adding it again in the body changes nothing. */
    @Test
    void aSocketAddedBeforeALoopIsAMemberInItAndAfter() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, int n) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      sc.add(a);
                      for (int i = 0; i < n; i++) {
                        work();
                        sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    @Test
    void aSwitchWithAGroupThatDoesNotAddMakesAMemberOnSomePaths() {
        assertRejected("SJ024", 15, msg("'work' on line 15", SOME_PATHS), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, int k) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      switch (k) {
                        case 1: sc.add(a); break;
                        case 2: break;
                        default: sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, int k) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      switch (k) {
                        case 1 -> sc.add(a);
                        default -> sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    @Test
    void aLabelledBreakPastTheAddMakesAMemberOnSomePaths() {
        assertRejected("SJ024", 14, msg("'work' on line 14", SOME_PATHS), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean skip) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      enlist: {
                        if (skip) break enlist;
                        sc.add(a);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** A catch entered from a throw point before the add, that goes on: a member on some paths after it. */
    @Test
    void aCatchEnteredBeforeTheAddMakesAMemberOnSomePaths() {
        assertRejected("SJ024", 16, msg("'work' on line 16", SOME_PATHS), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      try {
                        work();
                        sc.add(a);
                      } catch (Exception e) {
                        System.out.println(e);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      sc.add(a);
                      try {
                        work();
                      } catch (Exception e) {
                        System.out.println(e);
                      }
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** Declared from sc.add(…) on one path and from a request on the other. */
    @Test
    void aVariableAssignedAMemberOnOnePathOnlyIsAMemberOnSomePaths() {
        assertRejected("SJ024", 12, msg("'work' on line 12", SOME_PATHS), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean c) throws Exception {
                    try (SJScope sc = SJ.scope()) {
                      SJSocket a;
                      if (c) a = sc.add(svc.request());
                      else a = svc.request();
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean c) throws Exception {
                    try (SJScope sc = SJ.scope()) {
                      SJSocket a;
                      if (c) a = sc.add(svc.request());
                      else a = sc.add(svc.request());
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** Assigned a new session on one path only: the old one's membership does not carry over there. */
    @Test
    void aVariableAssignedANewSessionOnOnePathIsAMemberOnSomePaths() {
        assertRejected("SJ024", 15, msg("'work' on line 15", SOME_PATHS), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean c) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      sc.add(a);
                      a.send(1);
                      a.send(2);
                      if (c) a = svc.request();
                      else a = sc.add(svc.request());
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** Added to two scopes: the first to close (the inner one) closes it; it was taken as the last one's. */
    @Test
    void aSocketAddedToTwoScopesIsClosedByTheFirstToClose() {
        assertRejected("SJ024", 9, msg("session 'a' is not complete when the scope 'inner' closes it", "!<int> remains"),
                HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) {
                    SJSocket a = svc.request();
                    try (SJScope outer = SJ.scope()) {
                      try (SJScope inner = SJ.scope()) {
                        inner.add(a);
                        outer.add(a);
                        a.send(1);
                      }
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** The same socket added twice to one scope is one member. */
    @Test
    void aSocketAddedTwiceToOneScopeIsAMember() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc) throws Exception {
                    SJSocket a = svc.request();
                    try (SJScope sc = SJ.scope()) {
                      sc.add(a);
                      sc.add(a);
                      a.send(1);
                      work();
                      a.send(2);
                    }
                  }
                }
                """);
    }

    /** A socket the path never added may be handed over there (it was SJ051 whatever path added it). */
    @Test
    void aSocketAddedOnAnotherPathMayBeSpawned() {
        assertAccepted(HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean c) {
                    try (SJScope sc = SJ.scope()) {
                      SJSocket a = svc.request();
                      if (c) {
                        sc.add(a);
                        a.send(1);
                        a.send(2);
                      } else {
                        SJ.spawn(a, A::serve);
                      }
                    }
                  }
                }
                """);
        assertRejected("SJ051", 10, msg("it was added to a scope on line 9"), HEAD + """
                  void run(@Session(protocol = P.class) SJService svc, boolean c) {
                    try (SJScope sc = SJ.scope()) {
                      SJSocket a = svc.request();
                      if (c) sc.add(a);
                      SJ.spawn(a, A::serve);
                    }
                  }
                }
                """);
    }
}
