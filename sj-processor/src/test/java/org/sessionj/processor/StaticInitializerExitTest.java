package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv20 A6, U07: the first use of a static field runs its class's static initializer, code of the program with no call
 * in the source; what it throws comes out as an {@code ExceptionInInitializerError}. Between two actions of a plain
 * local session, under a catch of {@code Throwable} that goes on, the program compiled and the peer waited.
 */
class StaticInitializerExitTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            class A {
              @Protocol("cbegin.!<int>.!<int>") interface Pair {}
              static class Limits {
                static final int MAX = compute();
                static int compute() { throw new IllegalStateException("no limit"); }
              }
            """;

    /** The adversary's U07: the read of Limits.MAX between two actions; the caller's catch (Throwable e) goes on. */
    @Test
    void aFailingStaticInitializerIsSJ024() {
        assertRejected("SJ024", 17, msg("session 'a' is not complete if, in 'run', the static initializer of 'Limits' that "
                + "the first use of 'Limits.MAX' runs (line 11) throws an unchecked exception, which leaves 'run' and comes "
                + "out of the call on line 17, where the catch on line 18 takes it and goes on"), HEAD + """
                  static void run() {
                    SJSocket a = SJService.create(Pair.class, "localhost", 4000).request();
                    a.send(1);
                    int v = Limits.MAX;
                    a.send(v);
                    a.close();
                  }
                  static void main(String[] args) {
                    try {
                      run();
                    } catch (Throwable e) {
                      System.out.println("failed, going on: " + e);
                    }
                  }
                }
                """);
    }

    /** The same read under a catch of Exception, which an ExceptionInInitializerError passes. */
    @Test
    void aCatchOfExceptionCompiles() {
        assertAccepted(HEAD + """
                  static void run() {
                    SJSocket a = SJService.create(Pair.class, "localhost", 4000).request();
                    a.send(1);
                    int v = Limits.MAX;
                    a.send(v);
                    a.close();
                  }
                  static void main(String[] args) {
                    try {
                      run();
                    } catch (Exception e) {
                      System.out.println("failed, going on: " + e);
                    }
                  }
                }
                """);
    }

    /** The corrected twin: read before the session begins; and a class whose initializer calls nothing, or a constant. */
    @Test
    void readBeforeTheSessionCompiles() {
        assertAccepted(HEAD + """
                  static class Plain { static int count = 3; static final int LIMIT = 10; }
                  static void run() {
                    int v = Limits.MAX;
                    SJSocket a = SJService.create(Pair.class, "localhost", 4000).request();
                    a.send(Plain.count);
                    a.send(v + Plain.LIMIT);
                    a.close();
                  }
                  static void main(String[] args) {
                    try {
                      run();
                    } catch (Throwable e) {
                      System.out.println("failed, going on: " + e);
                    }
                  }
                }
                """);
    }
}
