package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv18 A8: a {@code request()} (or {@code accept()}) that fails begins no session and tells nobody, but the
 * sessions live around it stay as they are: for a live plain local session it is a throw point of a session
 * failure, counted where a catch takes it and goes on. The program below compiled; with the second server
 * down, the catch went on and the first session's peer waited for its second int.
 */
class RequestThrowPointTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface Pair {}
            """;

    @Test
    void aFailedRequestOfAnotherSessionTakenByACatchThatGoesOnIsSJ024() {
        assertRejected("SJ024", 8, msg("session 'a' is not complete if the request() on line 8 (which begins no session "
                + "if it fails) throws an unchecked exception, which the catch on line 12 takes and goes on"), HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    try {
                      SJSocket a = one.request();
                      a.send(1);
                      SJSocket b = two.request();
                      b.send(1); b.send(2); b.close();
                      a.send(2);
                      a.close();
                    } catch (SJIOException e) {
                      System.out.println("failed: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** The corrected twin: the first session a try-with-resources resource (closed, and its peer told, on the way out). */
    @Test
    void theFirstSessionAResourceCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    try (SJSocket a = one.request()) {
                      a.send(1);
                      SJSocket b = two.request();
                      b.send(1); b.send(2); b.close();
                      a.send(2);
                    } catch (SJIOException e) {
                      System.out.println("failed: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** The adversary's second program: the second session a resource in a retry loop, the first a plain local. */
    @Test
    void theSecondSessionAResourceInARetryLoopIsSJ024() {
        assertRejected("SJ024", 9, msg("session 'a' is not complete if the request() on line 9 (which begins no session "
                + "if it fails) throws an unchecked exception, which the catch on line 12 takes and goes on"), HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    for (int i = 0; i < 3; i++) {
                      try {
                        SJSocket a = one.request();
                        a.send(1);
                        try (SJSocket b = two.request()) { b.send(1); b.send(2); }
                        a.send(2);
                        a.close();
                      } catch (SJIOException e) {
                        System.out.println("failed: " + e.getMessage());
                      }
                    }
                  }
                }
                """);
    }

    /** A server's accept() is a set-up as a request() is: the session it serves meanwhile is abandoned. */
    @Test
    void aFailedAcceptIsSJ024() {
        assertRejected("SJ024", 9, msg("session 'a' is not complete if the accept() on line 9 (which begins no session "
                + "if it fails) throws an unchecked exception, which the catch on line 13 takes and goes on"), """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  @Protocol("sbegin.?(int)") interface One {}
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = One.class) SJServerSocket server) {
                    try {
                      SJSocket a = one.request();
                      a.send(1);
                      SJSocket b = server.accept();
                      int v = b.receiveInt(); b.close();
                      a.send(v);
                      a.close();
                    } catch (SJIOException e) {
                      System.out.println("failed: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** Making a server socket binds its port (taken: it fails) with the first session half done. */
    @Test
    void aServerSocketMadeWithASessionLiveIsSJ024() {
        assertRejected("SJ024", 9, msg("session 'a' is not complete if the call of 'SJServerSocket.create' on line 9 (which "
                + "makes no endpoint if it fails) throws an unchecked exception, which the catch on line 14 takes and goes on"),
                """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>.!<int>") interface Pair {}
                  @Protocol("sbegin.?(int)") interface One {}
                  static void run(@Session(protocol = Pair.class) SJService one) {
                    try {
                      SJSocket a = one.request();
                      a.send(1);
                      try (SJServerSocket server = SJServerSocket.create(One.class, 0)) {
                        SJSocket b = server.accept();
                        a.send(b.receiveInt()); b.close();
                      }
                      a.close();
                    } catch (SJException e) {
                      System.out.println("failed: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** Out of the method: a caller's catch that takes the failure and goes on (adv12 A6's rule, followed). */
    @Test
    void aCallersCatchThatGoesOnIsSJ024() {
        assertRejected("SJ024", 14, msg("session 'a' is not complete if, in 'pair', the request() on line 7 (which begins "
                + "no session if it fails) throws an unchecked exception, which leaves 'pair' and comes out of the call on "
                + "line 14, where the catch on line 15 takes it and goes on"), HEAD + """
                  static void pair(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    SJSocket a = one.request();
                    a.send(1);
                    SJSocket b = two.request();
                    b.send(1); b.send(2); b.close();
                    a.send(2);
                    a.close();
                  }
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    try {
                      pair(one, two);
                    } catch (SJIOException e) {
                      System.out.println("failed: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** No catch goes on: the failure ends the program (or the caller's own affair), as it did before. */
    @Test
    void aCatchThatRethrowsCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    try {
                      SJSocket a = one.request();
                      a.send(1);
                      SJSocket b = two.request();
                      b.send(1); b.send(2); b.close();
                      a.send(2);
                      a.close();
                    } catch (SJIOException e) {
                      throw new IllegalStateException("failed", e);
                    }
                  }
                }
                """);
    }

    /** The first session complete before the second is requested: nothing is abandoned. */
    @Test
    void oneSessionAfterTheOtherCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    try {
                      SJSocket a = one.request();
                      a.send(1); a.send(2); a.close();
                      SJSocket b = two.request();
                      b.send(1); b.send(2); b.close();
                    } catch (SJIOException e) {
                      System.out.println("failed: " + e.getMessage());
                    }
                  }
                }
                """);
    }

    /** A catch inside the first session's scope starts with it live and closes it: covered. */
    @Test
    void aCatchInsideTheScopeThatClosesTheFirstCompiles() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = Pair.class) SJService one, @Session(protocol = Pair.class) SJService two) {
                    SJSocket a = one.request();
                    a.send(1);
                    try {
                      SJSocket b = two.request();
                      b.send(1); b.send(2); b.close();
                    } catch (SJIOException e) {
                      a.close();
                      return;
                    }
                    a.send(2);
                    a.close();
                  }
                }
                """);
    }
}
