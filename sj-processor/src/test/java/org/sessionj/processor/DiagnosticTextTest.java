package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * How messages read (issue 14, item 6): recursion types folded ({@code rec X[…]} once, {@code #X}
 * inside), the differing part of two states first, the valid labels listed, the missing or extra
 * action named, and a forgotten action reported where it is missing.
 */
class DiagnosticTextTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface T {
                @Protocol("cbegin.rec LOOP[!{MORE: !<int>.?(boolean).#LOOP, DONE: }]") interface Loop {}
                @Protocol("cbegin.!{BUY: !<int>, SELL: !<int>, QUIT: }") interface Trade {}
                @Protocol("cbegin.!<int>.?(String).!<boolean>") interface Three {}
            }
            """;

    private static String run(String protocol, String statements) {
        return """
                package demo;
                import org.sessionj.api.*;
                class User {
                    void run(boolean c) {
                        try (SJSocket s = SJService.create(T.%s.class, "h", 1).request()) {
                %s
                        }
                    }
                }
                """.formatted(protocol, statements);
    }

    @Test
    void aForgottenReceiveIsReportedWhereItIsMissing() {
        Diagnostic<? extends JavaFileObject> error = assertRejected("SJ021", 11,
                msg("session 's': after this action the loop goes round with ?(boolean) still to do",
                        "rec LOOP[!{MORE: !<int>.?(boolean).#LOOP, DONE: }]"),
                run("Loop", """
                            int n = 0;
                            LOOP:
                            while (true) {
                                if (n++ < 3) {
                                    s.outbranch("MORE");
                                    s.send(n);
                                    continue LOOP;
                                }
                                s.outbranch("DONE");
                                break LOOP;
                            }
                """), PROTOCOLS);
        assertThat(error.getMessage(java.util.Locale.ROOT)).doesNotContain("rec LOOP[!{MORE: !<int>.?(boolean).rec");
    }

    @Test
    void statesInsideARecursionArePrintedFolded() {
        assertRejected("SJ020", 7, msg("one path has done !<int> and another has not; both then continue with "
                + "?(boolean).#LOOP (where #LOOP = rec LOOP[!{MORE: !<int>.?(boolean).#LOOP, DONE: }])"), run("Loop", """
                            s.outbranch("MORE");
                            if (c) {
                                s.send(1);
                            }
                            s.close();
                """), PROTOCOLS);
    }

    @Test
    void theDifferingPartComesFirst() {
        assertRejected("SJ020", 6, msg("the branches of this if leave the session in different states: one path has "
                + "done !<int> and another has not; both then continue with ?(java.lang.String).!<boolean>"),
                run("Three", """
                            if (c) {
                                s.send(1);
                            }
                            String x = s.receive();
                            s.send(true);
                """), PROTOCOLS);
    }

    @Test
    void anUnknownLabelListsTheValidOnes() {
        assertRejected("SJ014", 6, msg("label 'BUYY' is not one of the labels BUY, SELL, QUIT of the choice"),
                run("Trade", """
                            s.outbranch("BUYY");
                """), PROTOCOLS);
    }

    @Test
    void aSkippedActionIsNamed() {
        assertRejected("SJ012", 6, msg("expected !<int> but the program receives ?(java.lang.String) "
                + "(missing before it: !<int>)"), run("Three", """
                            String x = s.receive();
                """), PROTOCOLS);
    }

    @Test
    void anExtraActionIsNamed() {
        assertRejected("SJ012", 8, msg("expected end (the session is complete) but the program sends !<int> "
                + "(an extra action: the session is complete here)"), run("Trade", """
                            s.outbranch("QUIT");
                            int n = 1;
                            s.send(n);
                """), PROTOCOLS);
    }

    /**
     * adv11 A13: a call lending a long session inside a try block has a state after each of the lent
     * actions, which the catch block may see. Each long type is printed by its head and its length,
     * and only the first few states are named, so the message stays short however long the type
     * (printed whole, a 400-action type made this message about 20 KB; 3,000 actions took seconds).
     */
    @Test
    void aLongTypeIsPrintedByItsHeadAndLengthAndTheStatesOfALongLentCallAreCounted() {
        String type = String.join(".", java.util.Collections.nCopies(400, "!<int>"));
        String sends = String.join(" ", java.util.Collections.nCopies(400, "t.send(1);"));
        Diagnostic<? extends JavaFileObject> error = assertRejected("SJ020", 10, msg(
                "the try block and its catch blocks leave the session in different states: end on one path, "
                        + "!<int>.!<int>.!<int>.!<int>.!<int>.!<int>.!<int>.!<int>.… (the first 8 of 400 actions) or ",
                "(the first 8 of 399 actions)", " or one of 395 other states (where an exception in the try block"),
                """
                package demo;
                import org.sessionj.api.*;
                class Long {
                    @Protocol("cbegin.%s") interface P {}
                    static void part(@Session("%s") SJSocket t) {
                        %s
                    }
                    static void run(@Session(protocol = P.class) SJService svc) {
                        SJSocket s = svc.request();
                        try {
                            part(s);
                        } catch (RuntimeException e) {
                            System.out.println(e);
                        }
                    }
                }
                """.formatted(type, type, sends));
        assertThat(error.getMessage(java.util.Locale.ROOT)).hasSizeLessThan(1_000);
    }
    /**
     * adv13 A6.1: a receive() given to a method takes its type from the parameter javac chose (with
     * {@code println} one of several overloads): the message says so and how to name the type.
     */
    @Test
    void aReceiveGivenToAMethodSaysWhereItsTypeCameFrom() {
        assertRejected("SJ013", 7, msg("session 's': expected ?(java.lang.String) but the program receives ?(char[])",
                "receive() takes its type from the parameter of 'show' it is given to",
                "say the message type: s.<java.lang.String>receive()"), """
                package demo;
                import org.sessionj.api.*;
                class User {
                    void run() {
                        try (SJSocket s = SJService.create(T.Three.class, "h", 1).request()) {
                            s.send(1);
                            show(s.receive());
                            s.send(true);
                        }
                    }
                    static void show(char[] text) {
                    }
                }
                """, PROTOCOLS);
    }
}
