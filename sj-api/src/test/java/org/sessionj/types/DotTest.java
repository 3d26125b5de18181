package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.types.SessionTypes.parse;
import static org.sessionj.types.SessionTypes.toDot;

import org.junit.jupiter.api.Test;

class DotTest {
    private static final String HEADER = """
            digraph session {
              rankdir=LR;
              node [shape=circle];
              start [shape=point];
            """;

    @Test
    void loopsBecomeCyclesAndTheEndIsADoubleCircle() {
        assertThat(toDot(parse("cbegin.!<int>.![!<double[]>.?(double[])]*.?(double[][])"))).isEqualTo(HEADER + """
                  s0 [label="0"];
                  s1 [label="1"];
                  s2 [label="2"];
                  s3 [label="3"];
                  s4 [label="4"];
                  s5 [label="5"];
                  s6 [label="6", shape=doublecircle];
                  start -> s0;
                  s0 -> s1 [label="cbegin"];
                  s1 -> s2 [label="!<int>"];
                  s2 -> s3 [label="![iterate]"];
                  s2 -> s4 [label="![exit]"];
                  s3 -> s5 [label="!<double[]>"];
                  s4 -> s6 [label="?(double[][])"];
                  s5 -> s2 [label="?(double[])"];
                }
                """);
    }

    @Test
    void recursionBecomesACycleBackToTheUnfoldedState() {
        assertThat(toDot(parse("rec X[?{MSG: ?(String).#X, QUIT: }]"))).isEqualTo(HEADER + """
                  s0 [label="0"];
                  s1 [label="1"];
                  s2 [label="2", shape=doublecircle];
                  start -> s0;
                  s0 -> s1 [label="?{MSG}"];
                  s0 -> s2 [label="?{QUIT}"];
                  s1 -> s0 [label="?(String)"];
                }
                """);
    }

    @Test
    void statesThatAreEqualAfterUnfoldingAreOneState() {
        String dot = toDot(parse("?[rec X[!{A: !<cbegin.@(P)>.#X, B: }]]*"));
        assertThat(dot).contains("s0 -> s1 [label=\"?[iterate]\"]", "s0 -> s2 [label=\"?[exit]\"]",
                "s1 -> s3 [label=\"!{A}\"]", "s1 -> s0 [label=\"!{B}\"]", "s3 -> s1 [label=\"!<cbegin.@(P)>\"]",
                "s2 [label=\"2\", shape=doublecircle]");
        assertThat(dot.lines().filter(l -> l.contains("[label=\"") && !l.contains("->")).count()).isEqualTo(4);
        assertThat(toDot(parse("?[rec X[!{A: !<cbegin.@(P)>.#X, B: }]]*"))).isEqualTo(dot);
    }

    @Test
    void theTerminatedSessionIsOneFinalState() {
        assertThat(toDot(SessionType.END)).isEqualTo(HEADER + """
                  s0 [label="0", shape=doublecircle];
                  start -> s0;
                }
                """);
    }

    @Test
    void rejectsIllFormedTypes() {
        assertThatThrownBy(() -> toDot(parse("rec X[#X]"))).isInstanceOf(ProtocolException.class);
    }
}
