package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        assertRejected("SJ010", 11, msg("the method reference ss::accept", "returns a session socket through SJServerSocket.accept"),
                HEAD + """
                  static void serve(@Session(protocol = S.class) SJServerSocket ss) {
                    java.util.stream.Stream.generate(ss::accept).limit(3).count();
                  }
                }
                """);
    }

    @Test
    void requestAsAFunctionIsRejected() {
        assertRejected("SJ010", 11, msg("the method reference SJService::request", "SJService.request"), HEAD + """
                  static void client(@Session(protocol = C.class) SJService svc) {
                    Optional.of(svc).map(SJService::request);
                  }
                }
                """);
    }

    /**
     * adv11 A1: the referenced method decides, not the function type: a reference that starts a session
     * and drops it (a {@code Runnable}, SJ's own {@code SJThread.Task}) or widens it to {@code Object} or
     * {@code AutoCloseable} is as untracked as a {@code Supplier<SJSocket>}.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "Runnable r = svc::request;",
        "new Thread(svc::request).start();",
        "Supplier<Object> r = svc::request;",
        "Supplier<AutoCloseable> r = svc::request;",
        "Function<SJService, Object> r = SJService::request;",
        "java.util.concurrent.Callable<Object> r = svc::request;",
        "SJThread.Task r = svc::request;",
        "java.util.concurrent.Executors.newSingleThreadExecutor().execute(svc::request);",
    })
    void aReferenceThatStartsASessionIsRejectedWhateverItsFunctionType(String statement) {
        assertRejected("SJ010", 11, msg("the method reference", "returns a session socket through SJService.request"),
                HEAD + """
                  static void client(@Session(protocol = C.class) SJService svc) {
                    %s
                  }
                }
                """.formatted(statement));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Runnable r = ss::accept;",
        "java.util.concurrent.Callable<Object> r = ss::accept;",
    })
    void aReferenceThatAcceptsASessionIsRejectedWhateverItsFunctionType(String statement) {
        assertRejected("SJ010", 11, msg("the method reference ss::accept",
                "returns a session socket through SJServerSocket.accept"), HEAD + """
                  static void serve(@Session(protocol = S.class) SJServerSocket ss) {
                    %s
                  }
                }
                """.formatted(statement));
    }

    @Test
    void aGenericGetterOfSocketsIsRejected() {
        assertRejected("SJ010", 11, msg("the method reference sockets::getFirst", "returns a session socket through List.getFirst"),
                HEAD + """
                  static void drain(List<SJSocket> sockets) {
                    Supplier<Object> first = sockets::getFirst;
                  }
                }
                """);
    }

    @Test
    void referencesReturningNoSocketStayAccepted() {
        assertAccepted(HEAD + """
                  static void client(@Session(protocol = C.class) SJService svc, List<String> names) {
                    Supplier<String> text = svc::toString;
                    Supplier<String> first = names::getFirst;
                    Runnable r = names::clear;
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
