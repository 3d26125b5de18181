package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAcceptedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.assertRejectedInEveryOrder;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * What the checks of one class read from another class (whether a {@code @Session} method ends the
 * socket it is lent, a final service or selector field's protocol) is the same whichever class javac
 * compiles first. javac analyses, lowers and generates one top-level class after another, and lowering
 * rewrites the tree; the eighth session's adversarial pass (findings 22, 23) found the answer depending
 * on the order of the files on javac's command line. Each case is compiled in every order, with
 * {@code -sourcepath} as Maven passes it.
 */
class FileOrderTest {
    private static final String CLOSER = """
            import org.sessionj.api.*;
            class B { static void h(@Session("!<int>") SJSocket x) { x.send(1); x.close(); } }
            """;

    private static final String LENDS_TO_CLOSER = """
            import org.sessionj.api.*;
            class Z {
              @Protocol("cbegin.!<int>.!<int>") interface P {}
              void run() {
                try (SJSocket s = SJService.create(P.class, "h", 1).request()) { B.h(s); s.send(2); }
              }
            }
            """;

    @Test
    void aMethodOfAnotherFileThatClosesItsSessionEndsItInEveryOrder() {
        assertRejectedInEveryOrder("SJ024", 5, msg("session 's' is not complete when it is lent to 'h', which closes it after !<int>: !<int> remains"),
                LENDS_TO_CLOSER, CLOSER);
    }

    @Test
    void aMethodOfANestedClassOfAnotherFileThatClosesItsSessionEndsItInEveryOrder() {
        assertRejectedInEveryOrder("SJ024", 5, msg("lent to 'h', which closes it after !<int>"), LENDS_TO_CLOSER.replace("B.h(s)",
                "B.Inner.h(s)"), """
                import org.sessionj.api.*;
                class B {
                  static class Inner { static void h(@Session("!<int>") SJSocket x) { x.send(1); x.close(); } }
                }
                """);
    }

    @Test
    void aMethodOfAnotherFileThatEndsItThroughAThirdFileEndsItInEveryOrder() {
        assertRejectedInEveryOrder("SJ024", 5, msg("lent to 'mid', which lends it to 'h', which closes it after !<int>"),
                LENDS_TO_CLOSER.replace("B.h(s)", "M.mid(s)"), CLOSER, """
                import org.sessionj.api.*;
                class M { static void mid(@Session("!<int>") SJSocket x) { B.h(x); } }
                """);
    }

    @Test
    void aMethodOfAnotherFileThatSpawnsItsSessionEndsItInEveryOrder() {
        assertRejectedInEveryOrder("SJ024", 5, msg("lent to 'h', which hands it to a session thread"), LENDS_TO_CLOSER, """
                import org.sessionj.api.*;
                class B {
                  static void h(@Session("!<int>") SJSocket x) {
                    SJ.spawn(x, (@Session("!<int>") SJSocket y) -> y.send(1));
                  }
                }
                """);
    }

    @Test
    void aConstructorOfAnotherFileThatClosesItsSessionEndsItInEveryOrder() {
        assertRejectedInEveryOrder("SJ024", 5, msg("lent to 'B', which closes it after !<int>"),
                LENDS_TO_CLOSER.replace("B.h(s)", "new B(s)"), """
                import org.sessionj.api.*;
                class B { B(@Session("!<int>") SJSocket x) { x.send(1); x.close(); } }
                """);
    }

    @Test
    void twoTopLevelClassesOfOneFileAgreeWhicheverComesFirst() {
        // javac lowers the first top-level class of a file before it analyses the second.
        assertRejectedInEveryOrder("SJ024", 4, msg("lent to 'h', which closes it after !<int>"), """
                // file: Both.java
                import org.sessionj.api.*;
                class B { static void h(@Session("!<int>") SJSocket x) { x.send(1); x.close(); } }
                class Z { void run() { try (SJSocket s = Z2.P_SVC.request()) { B.h(s); s.send(2); } } }
                """, """
                import org.sessionj.api.*;
                class Z2 {
                  @Protocol("cbegin.!<int>.!<int>") interface P {}
                  static final SJService P_SVC = SJService.create(P.class, "h", 1);
                }
                """);
    }

    @Test
    void aMethodOfAnotherFileThatDoesNotEndItsSessionIsAcceptedInEveryOrder() {
        assertAcceptedInEveryOrder(LENDS_TO_CLOSER, """
                import org.sessionj.api.*;
                class B { static void h(@Session("!<int>") SJSocket x) { x.send(1); } }
                """);
    }

    private static final String FIELDS = """
            import org.sessionj.api.*;
            class F {
              @Protocol("cbegin.!<int>") interface Q {}
              @Protocol("sbegin.?(String).!<Integer>") interface Get {}
              static final SJService SVC = SJService.create(Q.class, "h", 1);
              static final SJServerSocket SRV = SJServerSocket.create(Get.class, 1);
              static final SJSelector SEL = SJSelector.of(Get.class);
            }
            """;

    @Test
    void aFinalServiceFieldOfAnotherFileHasItsProtocolInEveryOrder() {
        assertAcceptedInEveryOrder("""
                import org.sessionj.api.*;
                class Z { void run() { try (SJSocket s = F.SVC.request()) { s.send(1); } } }
                """, FIELDS);
    }

    @Test
    void aWrongUseOfAFinalServiceFieldOfAnotherFileIsRejectedInEveryOrder() {
        assertRejectedInEveryOrder("SJ013", 2, msg("!<int>"), """
                import org.sessionj.api.*;
                class Z { void run() { try (SJSocket s = F.SVC.request()) { s.send("x"); } } }
                """, FIELDS);
    }

    @Test
    void aFinalServerSocketFieldOfAnotherFileHasItsProtocolInEveryOrder() {
        assertAcceptedInEveryOrder("""
                import org.sessionj.api.*;
                class Z {
                  void run() { try (SJSocket s = F.SRV.accept()) { String k = s.receive(); s.send(Integer.valueOf(1)); } }
                }
                """, FIELDS);
    }

    @Test
    void aFinalSelectorFieldOfAnotherFileHasItsMembersInEveryOrder() {
        assertAcceptedInEveryOrder("""
                import org.sessionj.api.*;
                class Z {
                  void sel() {
                    SJSocket s = F.SEL.select();
                    switch (F.SEL.typecase(s)) {
                      case "Get" -> { String k = s.receive(); s.send(Integer.valueOf(1)); s.close(); }
                    }
                  }
                }
                """, FIELDS);
    }

    @Test
    void aWrongUseOfAFinalSelectorFieldOfAnotherFileIsRejectedInEveryOrder() {
        assertRejectedInEveryOrder("SJ013", 6, msg("Integer"), """
                import org.sessionj.api.*;
                class Z {
                  void sel() {
                    SJSocket s = F.SEL.select();
                    switch (F.SEL.typecase(s)) {
                      case "Get" -> { String k = s.receive(); s.send("no"); s.close(); }
                    }
                  }
                }
                """, FIELDS);
    }
}
