package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Java closes the resources of a try-with-resources statement before its catch and finally blocks run (JLS
 * 14.20.3.2), and before the handlers of an enclosing try statement: a socket named as a resource
 * ({@code try (s)}, the documented form for a method that owns its parameter) reaches them closed, whatever
 * state the exception left it in (adv17 A12: the documented server form with a catch that logs a vanished
 * client was SJ020 "closed … on one path, failed … on another", or SJ024 "… end … remains" with a return).
 */
class ResourceClosedBeforeCatchTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.?(boolean)") interface P {}
              @Protocol("^(P)") interface Q {}
            """;

    @Test
    void aCatchOfTheStatementFindsTheResourceClosed() {
        assertAccepted(HEAD + """
                  static void serve(@Session("?(int).!<boolean>") SJSocket s) {
                    try (s) {
                      int v = s.receiveInt();
                      System.out.println("got " + v);
                      s.send(v > 0);
                    } catch (SJIOException e) {
                      System.out.println("client went away");
                    }
                  }
                  static void serveOrReturn(@Session("?(int).!<boolean>") SJSocket s) {
                    try (s) {
                      s.send(s.receiveInt() > 0);
                    } catch (SJIOException e) {
                      return;
                    }
                    System.out.println("served");
                  }
                }
                """);
    }

    @Test
    void aCatchOfAnEnclosingStatementFindsItClosedToo() {
        assertAccepted(HEAD + """
                  static void serve(@Session("?(int).!<boolean>") SJSocket s) {
                    try {
                      try (s) {
                        int v = s.receiveInt();
                        System.out.println("got " + v);
                        s.send(v > 0);
                      }
                    } catch (SJIOException e) {
                      System.out.println("client went away");
                    }
                  }
                }
                """);
    }

    /** Every path out of the statement has it closed: a close after it is a use after the close. */
    @Test
    void aCloseAfterTheStatementIsAUseAfterTheClose() {
        assertRejected("SJ025", 11, msg("session 's' is used after it was closed at the end of the try-with-resources "
                + "block on line 6"), HEAD + """
                  static void serve(@Session("?(int).!<boolean>") SJSocket s) {
                    try (s) {
                      s.send(s.receiveInt() > 0);
                    } catch (SJIOException e) {
                      System.out.println("client went away");
                    }
                    s.close();
                  }
                }
                """);
    }
}
