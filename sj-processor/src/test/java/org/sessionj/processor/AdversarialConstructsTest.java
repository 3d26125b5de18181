package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12: ill-typed programs written against the JLS ch. 14–15 construct table (docs/diagnostics.md)
 * that the checker used to accept — lambdas and method references implementing {@code @Session}
 * methods, records storing sessions, multicasts naming a session twice, finally blocks that swallow
 * exceptions — each with the well-typed program a user would write instead.
 */
class AdversarialConstructsTest {
    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    @Protocol("cbegin.!<int>.!<int>") interface Two {}
                    interface Step {
                        void run(@Session("!<int>") SJSocket s);
                    }
                    static void risky() {
                    }
                %s
                }
                """.formatted(members);
    }

    @Test
    void lambdaDoingMoreThanTheLentPart() {
        assertRejected("SJ036", 11, msg("parameter 't' of 'the lambda' is @Session(\"!<int>.!<int>\")",
                "overrides in Step declares it @Session(\"!<int>\")"), cls("""
                    void run() {
                        Step step = (@Session("!<int>.!<int>") SJSocket t) -> {
                            t.send(1);
                            t.send(2);
                        };
                    }
                """));
    }

    @Test
    void unannotatedLambdaParameterTakesTheInterfacesSessionType() {
        assertRejected("SJ012", 11, msg("session 't': expected end"), cls("""
                    void run() {
                        Step step = t -> { t.send(1); t.send(2); };
                    }
                """));
        assertAccepted(cls("""
                    void run() {
                        Step step = t -> t.send(1);
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            step.run(s);
                            s.send(2);
                        }
                    }
                """));
    }

    @Test
    void methodReferenceToAMethodOfAnotherSessionType() {
        assertRejected("SJ036", 11, msg("parameter 's' of 'twice' is @Session(\"!<int>.!<int>\")"), cls("""
                    void run() {
                        Step step = User::twice;
                    }
                    static void twice(@Session("!<int>.!<int>") SJSocket s) {
                        s.send(1);
                        s.send(2);
                    }
                """));
        assertAccepted(cls("""
                    void run() {
                        Step step = User::once;
                    }
                    static void once(@Session("!<int>") SJSocket s) {
                        s.send(1);
                    }
                """));
    }

    @Test
    void methodReferenceWhoseReceiverIsTheLentSession() {
        assertRejected("SJ031", 11, msg("session 's' escapes into the receiver of the method reference SJSocket::close"),
                cls("""
                    void run() {
                        Step step = SJSocket::close;
                    }
                """));
    }

    @Test
    void recordComponentStoringASession() {
        assertRejected("SJ031", 10, msg("session 'socket' escapes into a field of record Holder"), cls("""
                    record Holder(@Session("!<int>") SJSocket socket) {
                    }
                """));
    }

    @Test
    void multicastNamingOneSessionTwice() {
        assertRejected("SJ030", 12, msg("session 's' is copied into a second socket argument of this multicast"),
                cls("""
                    void run() {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            SJ.send(1, s, s);
                        }
                    }
                """));
    }

    @Test
    void finallyBlockThatSwallowsTheExceptionWithABreak() {
        assertRejected("SJ020", 13, msg("the exceptions this finally block swallows"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            while (true) {
                                try {
                                    s.send(1);
                                    risky();
                                    s.send(2);
                                } finally {
                                    break;
                                }
                            }
                        }
                    }
                """));
    }

    @Test
    void finallyBlockWhoseJumpsStayInsideItIsFine() {
        assertAccepted(cls("""
                    void run() {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            while (true) {
                                try {
                                    s.send(1);
                                    risky();
                                    s.send(2);
                                } finally {
                                    for (int i = 0; i < 3; i++) {
                                        if (i == 1) {
                                            break;
                                        }
                                    }
                                }
                                break;
                            }
                        }
                    }
                """));
    }

    @Test
    void shortCircuitAndTernaryAndSwitchExpressionAroundActions() {
        assertRejected("SJ020", 13, msg("the short-circuit paths of this &&"), cls("""
                    @Protocol("cbegin.?(boolean)") interface Ask {}
                    void run(boolean c) {
                        try (SJSocket s = SJService.create(Ask.class, "h", 1).request()) {
                            if (c && s.receiveBoolean()) {
                            }
                        }
                    }
                """));
        assertRejected("SJ020", 13, msg("the cases of this switch"), cls("""
                    void run(int k) {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            s.send(1);
                            int v = switch (k) { case 1 -> { s.send(2); yield 1; } default -> 0; };
                        }
                    }
                """));
    }

    @Test
    void untrackedSocketInALoopProbedForMovesIsStillReported() {
        // The silent pass that finds a loop's @NoAlias moves once swallowed this report for good.
        assertRejected("SJ010", 14, msg("field 'field'"), cls("""
                    SJSocket field;
                    void run(int n) {
                        @NoAlias int[] x = new int[1];
                        for (int i = 0; i < n; i++) {
                            Object o = field;
                        }
                    }
                """));
    }

    @Test
    void oldStyleSwitchFallingThroughAfterAMove() {
        assertRejected("SJ041", 16, msg("moved into a call of 'keep' on line 14"), cls("""
                    void run(int k) {
                        @NoAlias int[] x = new int[1];
                        switch (k) {
                            case 1:
                                keep(x);
                            case 2:
                                x[0] = 1;
                                break;
                            default:
                        }
                    }
                    static void keep(int[] a) {
                    }
                """));
    }
}
