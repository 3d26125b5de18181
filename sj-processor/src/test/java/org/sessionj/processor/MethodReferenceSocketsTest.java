package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Method references are expressions too: one whose function type returns a session socket or takes
 * one through a parameter without a {@code @Session} type would start, act on or end sessions that no
 * variable tracks (adv10 finding 11: {@code Stream.generate(ss::accept).forEach(Main::handle)} and
 * {@code Optional.of(svc).map(SJService::request).ifPresent(SJSocket::close)} compiled and failed at
 * run time). The lambda forms were already SJ010/SJ017.
 */
class MethodReferenceSocketsTest {
    private static final String HEAD = """
            import org.sessionj.api.*;
            import java.util.*;
            import java.util.function.*;
            class A {
              @Protocol("cbegin.!<int>.?(String)") interface C {}
              @Protocol("^(C)") interface S {}
              static void handle(@Session("!<String>") SJSocket s) { s.send("x"); }
              interface Step { void run(@Session("?(int).!<String>") SJSocket s); }
              static void serve(@Session("?(int).!<String>") SJSocket s) { s.receiveInt(); s.send("y"); }
            """;

    @Test
    void acceptAsASupplierIsRejected() {
        assertRejected("SJ010", 11, msg("the method reference ss::accept", "returns a session socket through Supplier.get"),
                HEAD + """
                  static void serve(@Session(protocol = S.class) SJServerSocket ss) {
                    java.util.stream.Stream.generate(ss::accept).limit(3).count();
                  }
                }
                """);
    }

    @Test
    void requestAsAFunctionIsRejected() {
        assertRejected("SJ010", 11, msg("the method reference SJService::request", "Function.apply"), HEAD + """
                  static void client(@Session(protocol = C.class) SJService svc) {
                    Optional.of(svc).map(SJService::request);
                  }
                }
                """);
    }

    @Test
    void anUnboundSocketMethodIsRejected() {
        assertRejected("SJ010", 11, msg("the method reference SJSocket::close", "parameter 1 of Consumer.accept",
                "has no @Session type"), HEAD + """
                  static void closeAll(List<Object> l, Consumer<SJSocket> sink) {
                    Consumer<SJSocket> c = SJSocket::close;
                  }
                }
                """);
    }

    @Test
    void aSessionMethodAsAConsumerIsRejected() {
        assertRejected("SJ010", 11, msg("the method reference A::handle", "parameter 1 of Consumer.accept"), HEAD + """
                  static void run() {
                    Consumer<SJSocket> c = A::handle;
                  }
                }
                """);
    }

    @Test
    void aSessionMethodImplementingASessionTypedInterfaceAndSpawnBodiesAreFine() {
        assertAccepted(HEAD + """
                  static void run(@Session(protocol = S.class) SJServerSocket ss) {
                    Step step = A::serve;
                    try (SJSocket s = ss.accept()) {
                      step.run(s);
                    }
                  }
                  static void spawn(@Session(protocol = S.class) SJServerSocket ss) {
                    SJSocket s = ss.accept();
                    SJ.spawn(s, A::serve);
                  }
                  static Function<String, Integer> unrelated() {
                    return String::length;
                  }
                }
                """);
    }
}
