package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** outwhile/inwhile, multicast, chaining, recursion as loops, and jumps out of iterations. */
class LoopTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Loops {
                @Protocol("cbegin.![!<int>.?(int)]*.?(String)") interface Out {}
                @Protocol("^(Out)") interface In {}
                @Protocol("cbegin.rec X[!{MORE: !<int>.#X, DONE: }].?(int)") interface Stream {}
                @Protocol("^(Stream)") interface StreamServer {}
                @Protocol("sbegin.?[?(int)]*") interface Left {}
                @Protocol("cbegin.![!<int>]*") interface Right {}
                @Protocol("cbegin.!<String>.![!<double[]>.?(double)]*") interface Multi {}
            }
            """;

    private static String out(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Driver {
                    void run(int n) {
                        SJService c = SJService.create(Loops.Out.class, "h", 1);
                        try (SJSocket s = c.request()) {
                %s
                        }
                    }
                }
                """.formatted(body);
    }

    @Test
    void outwhileAndInwhileLoops() {
        assertAccepted(PROTOCOLS, out("""
                            int i = 0;
                            while (s.outwhile(i < n)) {
                                s.send(i);
                                i = s.receiveInt();
                            }
                            String done = s.receive();
                """), """
                package demo;
                import org.sessionj.api.*;
                class Follower {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Loops.In.class, 0);
                             SJSocket s = ss.accept()) {
                            while (s.inwhile()) {
                                int x = s.receiveInt();
                                if (x > 10) {
                                    s.send(x - 1);
                                    continue;
                                }
                                s.send(x + 1);
                            }
                            s.send("done");
                        }
                    }
                }
                """);
    }

    @Test
    void multicastIterationAndSend() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Master {
                    void run(int n) {
                        SJService c = SJService.create(Loops.Multi.class, "h", 1);
                        try (SJSocket a = c.request(); SJSocket b = c.request()) {
                            SJ.send("start", a, b);
                            int i = 0;
                            while (SJ.outwhile(i++ < n, a, b)) {
                                SJ.send(new double[] {i}, a, b);
                                double x = a.receiveDouble() + b.receiveDouble();
                            }
                        }
                    }
                }
                """);
    }

    @Test
    void multicastSendChecksEverySocket() {
        assertRejected("SJ012", 8, msg("session 'b': expected ![!<double[]>.?(double)]* but the program sends "
                        + "!<java.lang.String>"),
                """
                package demo;
                import org.sessionj.api.*;
                class Master {
                    void run(int n) {
                        SJService c = SJService.create(Loops.Multi.class, "h", 1);
                        try (SJSocket a = c.request(); SJSocket b = c.request()) {
                            b.send("start");
                            SJ.send("start", a, b);
                            while (a.outwhile(false)) {
                                a.send(new double[0]);
                                a.receiveDouble();
                            }
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void iterationChainingAndNestedLoops() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Relay {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Loops.Left.class, 0);
                             SJSocket left = ss.accept();
                             SJSocket right = SJService.create(Loops.Right.class, "h", 2).request()) {
                            while (right.outwhile(left.inwhile())) {
                                int x = left.receiveInt();
                                for (int k = 0; k < 3; k++) {
                                    x += k;
                                }
                                right.send(x);
                            }
                        }
                    }
                }
                """);
    }

    @Test
    void recursionAsALabelledLoopWithContinueAndBreak() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Streamer {
                    void run(int[] values) {
                        try (SJSocket s = SJService.create(Loops.Stream.class, "h", 1).request()) {
                            int i = 0;
                            X:
                            while (true) {
                                if (i < values.length) {
                                    s.outbranch("MORE");
                                    s.send(values[i++]);
                                    continue X;
                                }
                                s.outbranch("DONE");
                                break X;
                            }
                            int total = s.receiveInt();
                        }
                    }
                }
                """, """
                package demo;
                import org.sessionj.api.*;
                class Summer {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Loops.StreamServer.class, 0);
                             SJSocket s = ss.accept()) {
                            int sum = 0;
                            loop:
                            while (true) {
                                switch (s.inbranch()) {
                                    case "MORE" -> sum += s.receiveInt();
                                    case "DONE" -> { break loop; }
                                }
                            }
                            s.send(sum);
                        }
                    }
                }
                """);
    }

    @Test
    void recursiveSessionMethods() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Recursive {
                    void run(int n) {
                        try (SJSocket s = SJService.create(Loops.Stream.class, "h", 1).request()) {
                            stream(s, n);
                            int total = s.receiveInt();
                        }
                    }
                    static void stream(@Session("rec X[!{MORE: !<int>.#X, DONE: }]") SJSocket s, int n) {
                        if (n > 0) {
                            s.outbranch("MORE");
                            s.send(n);
                            stream(s, n - 1);
                        } else {
                            s.outbranch("DONE");
                        }
                    }
                }
                """);
    }

    @Test
    void extraActionInTheIterationBody() {
        assertRejected("SJ012", 10, msg("session 's': expected the end of the iteration body but the program sends "
                + "!<int>"), out("""
                            while (s.outwhile(n > 0)) {
                                s.send(1);
                                s.receiveInt();
                                s.send(2);
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void incompleteIterationBody() {
        assertRejected("SJ022", 7, msg("session 's': the iteration body must complete !<int>.?(int) before the next "
                + "iteration, but ?(int) remains"), out("""
                            while (s.outwhile(n > 0)) {
                                s.send(1);
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void outwhileOutsideAWhileCondition() {
        assertRejected("SJ017", 7, msg("outwhile() must be the condition of a while (or for) loop"), out("""
                            boolean again = s.outwhile(n > 0);
                """), PROTOCOLS);
    }

    /** adv11 A10: a for loop whose condition is the iteration's is the same loop as the while. */
    @Test
    void outwhileAsAForCondition() {
        assertAccepted(PROTOCOLS, out("""
                            for (int i = 0; s.outwhile(i < n); i++) {
                                s.send(i);
                                s.receiveInt();
                            }
                            String done = s.receive();
                """));
        assertAccepted(PROTOCOLS, out("""
                            int i = 0;
                            for (; s.outwhile(i < n); s.receiveInt()) {
                                s.send(i++);
                            }
                            String done = s.receive();
                """));
    }

    /** The update runs after each body: a body and update that leave the round unfinished are SJ022. */
    @Test
    void aForIterationChecksBodyAndUpdateAsOneRound() {
        assertRejected("SJ022", 7, msg("the iteration body must complete !<int>.?(int)"), out("""
                            for (int i = 0; s.outwhile(i < n); i++) {
                                s.send(i);
                            }
                            String done = s.receive();
                """), PROTOCOLS);
        assertRejected("SJ020", 7, msg("the paths to the update of this loop"), out("""
                            for (int i = 0; s.outwhile(i < n); s.receiveInt()) {
                                if (i++ == 1) {
                                    continue;
                                }
                                s.send(i);
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void outwhileAsADoWhileCondition() {
        assertRejected("SJ017", 10, msg("a session iteration must be a while loop"), out("""
                            do {
                                s.send(1);
                                s.receiveInt();
                            } while (s.outwhile(n > 0));
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void ordinaryLoopRepeatingSessionActions() {
        assertRejected("SJ021", 7, msg("session 's': the loop body changes the session from "
                + "![!<int>.?(int)]*.?(java.lang.String) to ?(java.lang.String)"), out("""
                            for (int i = 0; i < n; i++) {
                                while (s.outwhile(false)) {
                                    s.send(1);
                                    s.receiveInt();
                                }
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void breakOutOfASessionIteration() {
        assertRejected("SJ023", 10, msg("session 's': break leaves the session iteration"), out("""
                            while (s.outwhile(n > 0)) {
                                s.send(1);
                                s.receiveInt();
                                if (n > 5) break;
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void returnFromInsideASessionIteration() {
        assertRejected("SJ023", 8, msg("session 's': return leaves the session iteration"), out("""
                            while (s.outwhile(n > 0)) {
                                if (n > 5) return;
                                s.send(1);
                                s.receiveInt();
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void recursionLoopExitingWhereTheTypeDoesNotEnd() {
        assertRejected("SJ020", 6, msg("the exits of this loop leave the session in different states"), """
                package demo;
                import org.sessionj.api.*;
                class Streamer {
                    void run(int[] values) {
                        try (SJSocket s = SJService.create(Loops.Stream.class, "h", 1).request()) {
                            for (int i = 0; i < values.length; i++) {
                                s.outbranch("MORE");
                                s.send(values[i]);
                                if (values[i] < 0) {
                                    s.outbranch("DONE");
                                    break;
                                }
                            }
                            int total = s.receiveInt();
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void inwhileOnAnOutwhileType() {
        assertRejected("SJ012", 7, msg("expected ![!<int>.?(int)]* but the program follows an iteration (inwhile)"),
                out("""
                            while (s.inwhile()) {
                                s.send(1);
                                s.receiveInt();
                            }
                            String done = s.receive();
                """), PROTOCOLS);
    }
    /** adv11 A10: a multicast loop naming no session compiled and threw IllegalArgumentException at run time. */
    @Test
    void aMulticastLoopWithNoSessionIsRejected() {
        assertRejected("SJ017", 5, msg("SJ.inwhile() names no session"), """
                package demo;
                import org.sessionj.api.*;
                class Driver {
                    void run() {
                        while (SJ.inwhile()) { }
                    }
                }
                """);
        assertRejected("SJ017", 5, msg("SJ.outwhile(condition) names no session"), """
                package demo;
                import org.sessionj.api.*;
                class Driver {
                    void run(int n) {
                        while (SJ.outwhile(n > 0)) { n--; }
                    }
                }
                """);
    }
}
