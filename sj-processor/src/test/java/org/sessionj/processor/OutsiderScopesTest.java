package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, outsider pass over where a session lives: a socket declared in a {@code for} header or in
 * a plain local without try-with-resources, loops run once ({@code while (true) { ...; break; }},
 * {@code do ... while (false)}), sockets in arrays, a switch expression in an {@code outwhile}
 * operand, anonymous classes and interface default methods lending one session twice in turn.
 */
class OutsiderScopesTest {
    /** Members start on line 7. */
    private static String cls(String members) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    @Protocol("cbegin.!<int>.!<int>") interface Two {}
                    @Protocol("cbegin.![!<int>]*") interface Loop {}
                    interface Step { void run(@Session("!<int>") SJSocket s); }
                %s
                }
                """.formatted(members);
    }

    @Test
    void aSocketDeclaredInAForHeader() {
        assertAccepted(cls("""
                    void run() {
                        for (SJSocket s = SJService.create(Two.class, "h", 1).request(); ; ) {
                            s.send(1);
                            s.send(2);
                            break;
                        }
                    }
                """));
    }

    @Test
    void aPlainLocalSessionMustStillComplete() {
        assertAccepted(cls("""
                    void run() {
                        SJSocket s = SJService.create(Two.class, "h", 1).request();
                        s.send(1);
                        s.send(2);
                    }
                """));
        assertRejected("SJ024", 8, msg("session 's' is not complete at the end of its scope: !<int> remains"), cls("""
                    void run() {
                        SJSocket s = SJService.create(Two.class, "h", 1).request();
                        s.send(1);
                    }
                """));
    }

    @Test
    void loopsThatRunOnce() {
        assertAccepted(cls("""
                    void run() {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            while (true) {
                                s.send(1);
                                break;
                            }
                            s.send(2);
                        }
                    }
                """));
        // do ... while (false) is a plain loop: the checker does not count its iterations.
        assertRejected("SJ021", 9, msg("the loop body changes the session"), cls("""
                    void run() {
                        try (SJSocket s = SJService.create(Two.class, "h", 1).request()) {
                            do {
                                s.send(1);
                            } while (false);
                            s.send(2);
                        }
                    }
                """));
    }

    @Test
    void aSocketTakenFromAnArrayInAForEach() {
        assertRejected("SJ010", 8, msg("sockets taken from an array or collection cannot be checked"), cls("""
                    void run(SJSocket[] all) {
                        for (SJSocket s : all) {
                            s.send(1);
                        }
                    }
                """));
    }

    @Test
    void aSwitchExpressionInAnOutwhileOperandActingOnAnotherSession() {
        assertRejected("SJ027", 10, msg("session 't': no session action is allowed in the operand of outwhile"), cls("""
                    void run(int k) {
                        try (SJSocket s = SJService.create(Loop.class, "h", 1).request();
                                SJSocket t = SJService.create(Two.class, "h", 1).request()) {
                            while (s.outwhile(switch (k) { default -> { t.send(2); yield false; } })) {
                                s.send(1);
                            }
                        }
                    }
                """));
    }

    @Test
    void anAnonymousClassOverridingASessionMethodIsChecked() {
        assertRejected("SJ012", 8, msg("expected end"), cls("""
                    Step twice = new Step() {
                        public void run(@Session("!<int>") SJSocket s) { s.send(1); s.send(2); }
                    };
                """));
    }

    @Test
    void aDefaultMethodLendingItsSessionTwiceInTurn() {
        assertAccepted(cls("""
                    interface Twice extends Step {
                        default void both(@Session("!<int>.!<int>") SJSocket s) {
                            run(s);
                            run(s);
                        }
                    }
                """));
        assertRejected("SJ035", 11, msg("session 's'"), cls("""
                    interface Thrice extends Step {
                        default void three(@Session("!<int>.!<int>") SJSocket s) {
                            run(s);
                            run(s);
                            run(s);
                        }
                    }
                """));
    }
}
