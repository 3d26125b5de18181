package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A service or server socket reassigned inside a {@code try} holds, in its catch and finally blocks,
 * whatever it held at any point where the try block (or, for the finally block, a catch block) may
 * throw: one protocol when they all agree, otherwise none (SJ010 at a request or accept, SJ013 at a
 * send), as where paths join. The eighth session's adversarial pass (finding 12) found a catch typed
 * with the protocol before the try and a finally block with the one at the end of the try block.
 */
class ServiceThrowPointsTest {
    private static String cls(String body) {
        return """
                import org.sessionj.api.*;
                class A {
                  @Protocol("cbegin.!<int>") interface P {}
                  @Protocol("cbegin.!<String>") interface Q {}
                  @Protocol("sbegin.?(int)") interface S {}
                  @Protocol("sbegin.?(String)") interface T {}
                  @Protocol("cbegin.!<cbegin.!<int>>") interface D {}
                  static void maybe() {}
                %s
                }
                """.formatted(body);
    }

    @Test
    void aServiceReassignedInTheTryHasNoProtocolInTheCatch() {
        assertRejected("SJ010", 12, msg("session 's'", "of different protocols on the paths that reach here",
                "in a try block that may throw"), cls("""
                  void run() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { maybe(); v = SJService.create(Q.class, "h", 1); maybe(); }
                    catch (RuntimeException e) { try (SJSocket s = v.request()) { s.send(1); } }
                  }
                """));
    }

    @Test
    void aServiceReassignedInTheTryHasNoProtocolInTheFinally() {
        assertRejected("SJ010", 12, msg("session 's'", "of different protocols"), cls("""
                  void run() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { maybe(); v = SJService.create(Q.class, "h", 1); maybe(); }
                    finally { try (SJSocket s = v.request()) { s.send("x"); } }
                  }
                """));
    }

    @Test
    void aServiceReassignedInACatchHasNoProtocolInTheFinally() {
        assertRejected("SJ010", 15, msg("session 's'", "of different protocols"), cls("""
                  void run() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { maybe(); }
                    catch (RuntimeException e) {
                      v = SJService.create(Q.class, "h", 1); maybe(); v = SJService.create(P.class, "h", 1);
                    }
                    finally { try (SJSocket s = v.request()) { s.send(1); } }
                  }
                """));
    }

    @Test
    void aServiceReassignedInTheTryCannotBeDelegatedFromTheCatch() {
        assertRejected("SJ013", 12, msg("different protocols"), cls("""
                  void run() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { maybe(); v = SJService.create(Q.class, "h", 1); maybe(); } catch (RuntimeException e) {
                      try (SJSocket t = SJService.create(D.class, "h", 2).request()) { t.send(v); }
                    }
                  }
                """));
    }

    @Test
    void aServerSocketReassignedInTheTryHasNoProtocolInTheCatch() {
        assertRejected("SJ010", 12, msg("of different protocols"), cls("""
                  void run() {
                    SJServerSocket v = SJServerSocket.create(S.class, 1);
                    try { maybe(); v = SJServerSocket.create(T.class, 2); maybe(); }
                    catch (RuntimeException e) { try (SJSocket s = v.accept()) { int x = s.receiveInt(); } }
                  }
                """));
    }

    @Test
    void servicesOfOneProtocolOrNotReassignedKeepItInCatchAndFinally() {
        assertAccepted(cls("""
                  void same() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { maybe(); v = SJService.create(P.class, "h", 2); maybe(); }
                    catch (RuntimeException e) { try (SJSocket s = v.request()) { s.send(1); } }
                    finally { try (SJSocket s = v.request()) { s.send(2); } }
                  }
                  void untouched() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { maybe(); try (SJSocket s = v.request()) { s.send(1); } }
                    catch (RuntimeException e) { try (SJSocket s = v.request()) { s.send(2); } }
                    finally { try (SJSocket s = v.request()) { s.send(3); } }
                  }
                  void failover() {
                    SJService v = SJService.create(P.class, "h", 1);
                    try { try (SJSocket s = v.request()) { s.send(1); } }
                    catch (RuntimeException e) { v = SJService.create(P.class, "backup", 1); }
                    finally { try (SJSocket s = v.request()) { s.send(3); } }
                  }
                """));
    }
}
