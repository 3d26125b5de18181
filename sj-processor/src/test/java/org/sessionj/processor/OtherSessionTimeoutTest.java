package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A2: the timeout of another session ({@code b.receive(Duration)} failing with SJTimeoutException) while a
 * plain local session {@code a} is live, taken by a catch that goes on (here a caller's, which names it): b's peer
 * is told, a's waits for ever. A timeout is the expected failure the docs teach, not a lost connection; it is a
 * throw point for the other live sessions, as a failed set-up is (adv18 A8).
 */
class OtherSessionTimeoutTest {
    private static final String HEAD = """
            import java.time.Duration;
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<Integer>") interface Pair {}
              @Protocol("cbegin.?(Integer)") interface Slow {}
              static final Duration WAIT = Duration.ofMillis(200);
            """;

    private static String relay(String body) {
        return HEAD + """
                  static void main(@Session(protocol = Pair.class) SJService pairs,
                      @Session(protocol = Slow.class) SJService slows) {
                    try {
                      relay(pairs, slows);
                    } catch (SJTimeoutException e) {
                      System.out.println("slow, next");
                    }
                  }
                  static void relay(@Session(protocol = Pair.class) SJService pairs,
                      @Session(protocol = Slow.class) SJService slows) {
                %s
                  }
                }
                """.formatted(body);
    }

    @Test
    void anotherSessionsTimeoutCaughtByTheCallerIsSJ024() {
        assertRejected("SJ024", 10, msg("session 'a' is not complete if, in 'relay', the timed receive on line 20 times "
                + "out and throws an unchecked exception, which leaves 'relay' and comes out of the call on line 10, where "
                + "the catch on line 11 takes it and goes on"), relay("""
                    try (SJSocket b = slows.request()) {
                      SJSocket a = pairs.request();
                      a.send(1);
                      Integer v = b.receive(WAIT);
                      a.send(v);
                      a.close();
                    }
                """));
    }

    /** The corrected twins: {@code a} a resource too; or the receive before {@code a} begins. */
    @Test
    void theOtherSessionAResourceOrReceivedFirstCompiles() {
        assertAccepted(relay("""
                    try (SJSocket b = slows.request(); SJSocket a = pairs.request()) {
                      a.send(1);
                      Integer v = b.receive(WAIT);
                      a.send(v);
                    }
                """));
        assertAccepted(relay("""
                    try (SJSocket b = slows.request()) {
                      Integer v = b.receive(WAIT);
                      SJSocket a = pairs.request();
                      a.send(1);
                      a.send(v);
                      a.close();
                    }
                """));
    }

    /** A receive without a timeout is not counted: a failure of b's connection is not a's affair (documented). */
    @Test
    void anUntimedReceiveIsNotCounted() {
        assertAccepted(relay("""
                    try (SJSocket b = slows.request()) {
                      SJSocket a = pairs.request();
                      a.send(1);
                      Integer v = b.receive();
                      a.send(v);
                      a.close();
                    }
                """));
    }
}
