package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import com.google.testing.compile.Compilation;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, classes 7 and 8: well-typed programs users naturally write are accepted, and the
 * processor stays fast and never throws on absurd inputs.
 */
class FalseAlarmsAndLimitsTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface F {
                @Protocol("cbegin.!<int>") interface One {}
                @Protocol("cbegin.?{A: !<int>, B: }") interface Choice {}
                @Protocol("cbegin.rec X[rec Y[!{MORE: !<int>.#Y, DONE: }].!{AGAIN: #X, STOP: }]") interface Nested {}
            }
            """;

    @Test
    void theScopeExampleOfTheJavadoc() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Both {
                    void run(@Session(protocol = F.One.class) SJService left, @Session(protocol = F.One.class) SJService right) {
                        try (SJScope scope = SJ.scope();
                             SJSocket a = scope.add(left.request());
                             SJSocket b = scope.add(right.request())) {
                            a.send(1);
                            b.send(2);
                        }
                    }
                }
                """);
    }

    @Test
    void labelVariableInsideAnOldStyleCaseGroup() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Old {
                    void run(int mode) {
                        try (SJSocket s = SJService.create(F.Choice.class, "h", 1).request()) {
                            switch (mode) {
                                case 1:
                                    String label = s.inbranch();
                                    switch (label) {
                                        case "A":
                                            s.send(1);
                                            break;
                                        case "B":
                                            break;
                                    }
                                    break;
                                default:
                                    switch (s.inbranch()) {
                                        case "A": s.send(2); break;
                                        case "B": break;
                                    }
                            }
                        }
                    }
                }
                """);
    }

    @Test
    void argumentsAreEvaluatedBeforeTheCallTakesANoAliasValue() {
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Move {
                    static void take(@NoAlias int[] a, int n) {
                    }
                    void run() {
                        @NoAlias int[] x = new int[3];
                        take(x, x.length);
                    }
                }
                """);
    }

    @Test
    void oneNoAliasValueGivenTwiceToOneCall() {
        assertRejected("SJ041", 8, msg("@NoAlias 'x' is used after its value was moved into a call of 'take'"), """
                package demo;
                import org.sessionj.api.*;
                class Move {
                    static void take(@NoAlias int[] a, @NoAlias int[] b) {
                    }
                    void run() {
                        @NoAlias int[] x = new int[3];
                        take(x, x);
                    }
                }
                """);
    }

    @Test
    void aMoveInANestedCallHappensBeforeTheOuterArguments() {
        assertRejected("SJ041", 11, msg("@NoAlias 'x' is used after its value was moved into a call of 'take'"), """
                package demo;
                import org.sessionj.api.*;
                class Move {
                    static int take(@NoAlias int[] a) {
                        return 0;
                    }
                    static void both(int a, int b) {
                    }
                    void run() {
                        @NoAlias int[] x = new int[3];
                        both(take(x), x.length);
                    }
                }
                """);
    }

    @Test
    void recursionWhoseBodyStartsWithARecursion() {
        assertAccepted(PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Rounds {
                    void run() {
                        try (SJSocket s = SJService.create(F.Nested.class, "h", 1).request()) {
                            int n = 0;
                            X:
                            while (true) {
                                Y:
                                while (true) {
                                    if (n++ % 3 != 2) {
                                        s.outbranch("MORE");
                                        s.send(n);
                                        continue Y;
                                    }
                                    s.outbranch("DONE");
                                    break Y;
                                }
                                if (n < 6) {
                                    s.outbranch("AGAIN");
                                    continue X;
                                }
                                s.outbranch("STOP");
                                break X;
                            }
                        }
                    }
                }
                """);
    }

    /** 40 nested loops: an analysis exponential in loop nesting would take days; linear-ish takes seconds. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void noAliasInsideManyNestedLoopsIsCheckedWithoutBlowingUp() {
        int loops = 40;
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < loops; i++) {
            body.append("for (int i").append(i).append(" = 0; i").append(i).append(" < n; i").append(i).append("++) {\n");
        }
        body.append("int[] moved = a; a = new int[1];\n");
        body.append("}\n".repeat(loops));
        assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Loops {
                    static int run(int n) {
                        @NoAlias int[] a = new int[1];
                %s        return a[0];
                    }
                }
                """.formatted(body).replace("int[] moved = a;", "@NoAlias int[] moved = a;"));
    }

    @Test
    void codeNestedBeyondTheLimitIsReportedNotCrashed() {
        String deep = "{".repeat(300) + "}".repeat(300);
        Compilation compilation = CompilerHarness.compile("""
                package demo;
                import org.sessionj.api.*;
                class Deep {
                    void run() {
                        @NoAlias int[] owned = new int[1];
                        %s
                    }
                }
                """.formatted(deep));
        assertThat(compilation.errors()).as(CompilerHarness.describe(compilation)).hasSize(1);
        assertThat(compilation.errors().get(0).getMessage(java.util.Locale.ROOT))
                .startsWith("[SJ008]").contains("nests statements more than 256 levels deep");
    }

    /** A body that cannot touch a session is skipped by the pre-scan: nothing to report, however deep. */
    @Test
    void aSessionFreeBodyNestedBeyondTheLimitIsNotAnalysed() {
        String deep = "{".repeat(300) + "}".repeat(300);
        CompilerHarness.assertAccepted("""
                package demo;
                import org.sessionj.api.*;
                class Deep {
                    void run() {
                        int[] plain = new int[1];
                        %s
                    }
                }
                """.formatted(deep));
    }
}
