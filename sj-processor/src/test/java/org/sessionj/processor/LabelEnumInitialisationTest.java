package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * {@code s.inbranch(E.class)} turns the label received into a constant of E ({@code E.valueOf}): it is
 * a first use of E, which runs E's static initializer. While a {@code @NoAlias} field is moved out,
 * that initializer must not be able to read it: the enum must be a plain one, whose initialization
 * runs no code of the program (constants without arguments other than literals and without bodies, no
 * initializer blocks, no static fields but constants, constructors that only store their parameters,
 * no interfaces), else SJ044 — as for a constant {@code E.X} of such an enum named in the window.
 */
class LabelEnumInitialisationTest {
    private static final String INBRANCH = """
                                switch (s.inbranch(Mode.class)) {
                                    case FAST -> next = s.receive();
                                    case SLOW -> next = s.receive();
                                }
            """;

    private static String worker(String labelEnum, String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Worker {
                    @Protocol("cbegin.!<double[]>.?{FAST: ?(double[]), SLOW: ?(double[])}") interface Exchange {}
                    @Protocol("cbegin.!<double[]>.!{FAST: ?(double[]), SLOW: ?(double[])}") interface Choose {}
                    @NoAlias double[] ghost = new double[4];
                    static Worker last;
                    void run() {
                        try (SJSocket s = SJService.create(%s.class, "h", 1).request()) {
                            @NoAlias double[] next = null;
                            try {
                                s.pass(ghost);
                %s
                            } finally {
                                ghost = next;
                            }
                        }
                    }
                }
                %s
                """.formatted(body.contains("outbranch") ? "Choose" : "Exchange", body, labelEnum);
    }

    @Test
    void aLabelEnumWhoseStaticInitializerReadsTheFieldIsRejectedAtTheInbranch() {
        assertRejected("SJ044", 13, msg("ghost", "s.inbranch(Mode.class)", "runs its static initializer"), worker("""
                enum Mode {
                    FAST, SLOW;
                    static final int SIZE = Worker.last == null ? 0 : Worker.last.ghost.length;
                }
                """, INBRANCH));
    }

    @Test
    void aLabelEnumWithAConstructorCallingOutIsRejected() {
        assertRejected("SJ044", 13, msg("s.inbranch(Mode.class)"), worker("""
                enum Mode {
                    FAST(1), SLOW(2);
                    Mode(int k) { System.out.println(Worker.last); }
                }
                """, INBRANCH));
    }

    @Test
    void theLabelVariableFormIsCheckedToo() {
        assertRejected("SJ044", 13, msg("s.inbranch(Mode.class)"), worker("""
                enum Mode { FAST, SLOW; static { System.out.println("init"); } }
                """, """
                                Mode label = s.inbranch(Mode.class);
                                switch (label) {
                                    case FAST -> next = s.receive();
                                    case SLOW -> next = s.receive();
                                }
                """));
    }

    @Test
    void aPlainLabelEnumIsAccepted() {
        assertAccepted(worker("""
                enum Mode {
                    FAST("fast", 1), SLOW("slow", -2);
                    static final int COUNT = 2;
                    private final String text;
                    private final int weight;
                    Mode(String text, int weight) { this.text = text; this.weight = weight; }
                    String text() { return text + Worker.last; }
                }
                """, INBRANCH));
    }

    @Test
    void aConstantOfAPlainEnumNamedInTheWindowIsAccepted() {
        assertAccepted(worker("enum Mode { FAST, SLOW }\n", """
                                Mode mode = Mode.FAST;
                                s.outbranch("FAST");
                                next = s.receive();
                """));
    }

    @Test
    void aConstantOfAnEnumWithAnInterfaceIsStillRejected() {
        assertRejected("SJ044", 13, msg("before 'Mode.FAST' is used"), worker("""
                interface Named { int N = Worker.last == null ? 0 : 1; default String name2() { return ""; } }
                enum Mode implements Named { FAST, SLOW }
                """, """
                                Mode mode = Mode.FAST;
                                s.outbranch("FAST");
                                next = s.receive();
                """));
    }
}
