package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** SJ.join(s1, …): one receive on every socket, checked like a multicast. */
class JoinTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Gather {
                @Protocol("cbegin.!<int>.?(double).?(double)") interface ToWorker {}
                @Protocol("cbegin.!<int>.?(int)") interface ToCounter {}
                @Protocol("cbegin.?(cbegin.?(int))") interface ToBroker {}
            }
            """;

    @Test
    void aMasterGathersOneResultFromEachWorkerTwice() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Master {
                    double run() {
                        try (SJSocket a = SJService.create(Gather.ToWorker.class, "a", 1).request();
                             SJSocket b = SJService.create(Gather.ToWorker.class, "b", 1).request()) {
                            SJ.send(4, a, b);
                            List<Double> errors = SJ.join(a, b);
                            List<Object> maxima = SJ.join(b, a);
                            return errors.get(0) + errors.get(1) + maxima.size();
                        }
                    }
                }
                """);
    }

    @Test
    void aSocketNotAtAReceiveIsSJ012() {
        assertRejected("SJ012", 10, msg("session 'b': expected !<int> but the program receives ?(java.lang.Double) in a join"),
                """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Master {
                    void run() {
                        try (SJSocket a = SJService.create(Gather.ToWorker.class, "a", 1).request();
                             SJSocket b = SJService.create(Gather.ToWorker.class, "b", 1).request()) {
                            a.send(4);
                            List<Double> errors = SJ.join(a, b);
                            double y = a.receiveDouble();
                        }
                    }
                }
                """.replace("a.send(4);\n", "a.send(4);\n\n"), PROTOCOLS);
    }

    @Test
    void aMessageTypeTheElementTypeDoesNotAcceptIsSJ013() {
        assertRejected("SJ013", 9, msg("session 'c': expected ?(int) but the program receives ?(java.lang.Double) in a join"),
                """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Master {
                    void run() {
                        try (SJSocket a = SJService.create(Gather.ToWorker.class, "a", 1).request();
                             SJSocket c = SJService.create(Gather.ToCounter.class, "c", 1).request()) {
                            SJ.send(4, a, c);
                            List<Double> values = SJ.join(a, c);
                            double rest = a.receiveDouble();
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void aDelegatedSessionCannotBeJoined() {
        assertRejected("SJ013", 7, msg("received on its own"), """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Master {
                    void run() {
                        try (SJSocket a = SJService.create(Gather.ToBroker.class, "a", 1).request()) {
                            List<Object> got = SJ.join(a);
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void oneSocketTwiceIsSJ030AndANonVariableIsSJ017() {
        assertRejected("SJ030", 9, msg("session 'a' is copied"), """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Master {
                    void run() {
                        try (SJSocket a = SJService.create(Gather.ToCounter.class, "a", 1).request()) {
                            a.send(1);
                            List<Integer> got =
                                    SJ.join(a, a);
                        }
                    }
                }
                """, PROTOCOLS);
    }

    @Test
    void theJoinedSessionsMoveOnWhateverOrderTheyAreNamedIn() {
        assertRejected("SJ024", 7, msg("session 'b' is not complete", "?(double) remains"), """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Master {
                    void run() {
                        try (SJSocket a = SJService.create(Gather.ToWorker.class, "a", 1).request();
                             SJSocket b = SJService.create(Gather.ToWorker.class, "b", 1).request()) {
                            SJ.send(4, a, b);
                            List<Double> first = SJ.join(b, a);
                            double last = a.receiveDouble();
                        }
                    }
                }
                """, PROTOCOLS);
    }
}
