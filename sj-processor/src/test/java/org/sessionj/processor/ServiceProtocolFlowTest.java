package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;
import static org.sessionj.processor.ContractsAndValuesTest.PROTOCOLS;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, class 5: a service's protocol on every path that reaches a request or a send of it — round
 * loops and through joins — and the runtime's typed factories ({@code runtime.service(P.class, …)},
 * {@code runtime.serverSocket(P.class, …)}).
 */
class ServiceProtocolFlowTest {
    /** The shape of {@code org.sessionj.runtime.SJRuntime}'s factories (the runtime is not a dependency here). */
    static final String RUNTIME = """
            package org.sessionj.runtime;
            import org.sessionj.api.SJServerSocket;
            import org.sessionj.api.SJService;
            public final class SJRuntime {
                public static SJRuntime global() {
                    return new SJRuntime();
                }
                public SJService service(Class<?> protocol, String host, int port) {
                    return SJService.create(protocol, host, port);
                }
                public SJServerSocket serverSocket(Class<?> protocol, int port) {
                    return SJServerSocket.create(protocol, port);
                }
            }
            """;

    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                import org.sessionj.runtime.SJRuntime;
                class User {
                %s
                }
                """.formatted(members);
    }

    @Test
    void serviceReassignedToAnotherProtocolInALoopBeforeARequest() {
        assertRejected("SJ010", 8, msg("session 's'", "of different protocols on the paths that reach here",
                "in an earlier iteration of a loop"), cls("""
                    void run(int n) {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        for (int i = 0; i < n; i++) {
                            try (SJSocket s = svc.request()) {
                                s.send(1);
                            }
                            svc = SJService.create(R.Two.class, "h", 2);
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void serviceReassignedOnOneBranchInsideALoopBeforeASend() {
        assertRejected("SJ013", 9, msg("sends a service of different protocols on the paths that reach here"), cls("""
                    void run(int n) {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        while (n-- > 0) {
                            try (SJSocket t = SJService.create(R.Hand.class, "h", 1).request()) {
                                t.send(svc);
                            }
                            if (n == 3) {
                                svc = SJService.create(R.Two.class, "h", 2);
                            }
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void serviceReassignedInANestedLoop() {
        assertRejected("SJ010", 11, msg("of different protocols"), cls("""
                    void run(int n) {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        while (n-- > 0) {
                            for (int i = 0; i < n; i++) {
                                svc = SJService.create(R.Two.class, "h", 2);
                            }
                            try (SJSocket s = svc.request()) {
                                s.send(1);
                            }
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void serviceReassignedOnOneBranchBeforeARequest() {
        assertRejected("SJ010", 10, msg("of different protocols on the paths that reach here"), cls("""
                    void run(boolean c) {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        if (c) {
                            svc = SJService.create(R.Two.class, "h", 2);
                        }
                        try (SJSocket s = svc.request()) {
                            s.send(1);
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    /** A conditional of two endpoints has their protocol when the arms agree (adv8 finding 25). */
    @Test
    void aConditionalOfTwoServicesOfOneProtocolIsTyped() {
        assertAccepted(PROTOCOLS, RUNTIME, cls("""
                    void failover(boolean c) {
                        SJService v = c ? SJService.create(R.One.class, "a", 1) : SJService.create(R.One.class, "b", 2);
                        try (SJSocket s = v.request()) {
                            s.send(1);
                        }
                    }
                    void inline(boolean c, SJRuntime runtime) {
                        SJService a = SJService.create(R.Two.class, "a", 1);
                        try (SJSocket s = (c ? a : runtime.service(R.Two.class, "b", 2)).request()) {
                            s.send(1);
                            s.send(2);
                        }
                    }
                    void servers(boolean c) {
                        SJServerSocket ss = c ? SJServerSocket.create(R.Server.class, 1) : SJServerSocket.create(R.Server.class, 2);
                        try (SJSocket s = ss.accept()) {
                            int n = s.receiveInt();
                        }
                    }
                    void delegated(boolean c) {
                        SJService one = SJService.create(R.One.class, "a", 1);
                        try (SJSocket t = SJService.create(R.Hand.class, "h", 1).request()) {
                            t.send(c ? one : SJService.create(R.One.class, "b", 2));
                        }
                    }
                """));
    }

    @Test
    void aConditionalOfServicesOfOneProtocolTypesTheirSessions() {
        assertRejected("SJ013", 8, msg("expected !<int>", "sends !<java.lang.String>"), cls("""
                    void run(boolean c) {
                        SJService v = c ? SJService.create(R.One.class, "a", 1) : SJService.create(R.One.class, "b", 2);
                        try (SJSocket s = v.request()) {
                            s.send("x");
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void aConditionalOfServicesOfTwoProtocolsHasNone() {
        assertRejected("SJ010", 7, msg("session 's'", "of different protocols on the paths that reach here"), cls("""
                    void run(boolean c) {
                        SJService v = c ? SJService.create(R.One.class, "a", 1) : SJService.create(R.Two.class, "b", 2);
                        try (SJSocket s = v.request()) {
                            s.send(1);
                        }
                    }
                """), PROTOCOLS, RUNTIME);
        assertRejected("SJ013", 9, msg("sends a service of different protocols on the paths that reach here"), cls("""
                    void run(boolean c) {
                        SJService one = SJService.create(R.One.class, "a", 1);
                        SJService two = SJService.create(R.Two.class, "b", 2);
                        try (SJSocket t = SJService.create(R.Hand.class, "h", 1).request()) {
                            t.send(c ? one : two);
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void serviceReassignedToTheSameProtocolOrBeforeItsUseIsFine() {
        assertAccepted(PROTOCOLS, RUNTIME, cls("""
                    void same(int n) {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        for (int i = 0; i < n; i++) {
                            try (SJSocket s = svc.request()) {
                                s.send(1);
                            }
                            svc = SJService.create(R.One.class, "h", i);
                        }
                    }
                    void assignedFirst(int n) {
                        SJService svc = SJService.create(R.One.class, "h", 1);
                        for (int i = 0; i < n; i++) {
                            svc = SJService.create(R.Two.class, "h", i);
                            try (SJSocket s = svc.request()) {
                                s.send(1);
                                s.send(2);
                            }
                        }
                    }
                    void twoVariables(int n) {
                        SJService one = SJService.create(R.One.class, "h", 1);
                        SJService two = SJService.create(R.Two.class, "h", 1);
                        for (int i = 0; i < n; i++) {
                            try (SJSocket s = one.request(); SJSocket t = two.request()) {
                                s.send(1);
                                t.send(1);
                                t.send(2);
                            }
                        }
                    }
                """));
    }

    @Test
    void runtimeFactoriesAreTyped() {
        assertAccepted(PROTOCOLS, RUNTIME, cls("""
                    void run(SJRuntime runtime) {
                        SJService service = runtime.service(R.One.class, "h", 1);
                        try (SJSocket s = service.request()) {
                            s.send(1);
                        }
                        try (SJServerSocket server = runtime.serverSocket(R.Server.class, 1);
                             SJSocket s = server.accept()) {
                            int v = s.receiveInt();
                        }
                        try (SJSocket s = SJRuntime.global().service(R.Two.class, "h", 1).request()) {
                            s.send(1);
                            s.send(2);
                        }
                    }
                """));
    }

    @Test
    void runtimeServiceSessionsAreChecked() {
        assertRejected("SJ013", 8, msg("session 's': expected !<int> but the program sends !<java.lang.String>"),
                cls("""
                    void run(SJRuntime runtime) {
                        SJService service = runtime.service(R.One.class, "h", 1);
                        try (SJSocket s = service.request()) {
                            s.send("one");
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void runtimeServerSocketOfARequestProtocolIsAcceptedOnTheWrongSide() {
        assertRejected("SJ011", 7, msg("begins with cbegin"), cls("""
                    void run(SJRuntime runtime) {
                        try (SJServerSocket server = runtime.serverSocket(R.One.class, 1);
                             SJSocket s = server.accept()) {
                            s.send(1);
                        }
                    }
                """), PROTOCOLS, RUNTIME);
    }

    @Test
    void runtimeServiceGivenToAParameterOfAnotherProtocol() {
        assertRejected("SJ035", 6, msg("of protocol One"), cls("""
                    void run(SJRuntime runtime) {
                        use(runtime.service(R.One.class, "h", 1));
                    }
                    void use(@Session(protocol = R.Two.class) SJService service) {
                    }
                """), PROTOCOLS, RUNTIME);
    }
}
