package org.sessionj.runtime.internal.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.sessionj.api.SJException;
import org.sessionj.runtime.internal.monitor.State.Kind;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.types.SessionTypes;

class StateMachineTest {
    private static State compile(String type) {
        return StateMachine.compile(SessionTypes.parse(type), StateMachineTest.class.getClassLoader());
    }

    @Test
    void aSequenceIsAChainEndingInEnd() {
        State s = compile("cbegin.!<int>.?(java.lang.String).!<double[]>.?(java.util.List<java.lang.String>)");
        assertThat(s.kind()).isEqualTo(Kind.SEND);
        assertThat(s.message().kind()).isEqualTo(WireKind.INT);
        assertThat(s.next().kind()).isEqualTo(Kind.RECEIVE);
        assertThat(s.next().message().kind()).isEqualTo(WireKind.STRING);
        assertThat(s.next().next().message().kind()).isEqualTo(WireKind.DOUBLE_ARRAY);
        State last = s.next().next().next();
        assertThat(last.message().kind()).isEqualTo(WireKind.OBJECT);
        assertThat(last.message().reader()).isNotNull();
        assertThat(last.next()).isSameAs(State.END);
    }

    @Test
    void inputsAndTheEndFlushOutputsDoNot() {
        State s = compile("!<int>.![!<int>]*.?(int).?{A: }");
        assertThat(s.flushOnEntry()).isFalse();
        assertThat(s.next().flushOnEntry()).isFalse();
        assertThat(s.next().exit().flushOnEntry()).isTrue();
        assertThat(s.next().exit().next().flushOnEntry()).isTrue();
        assertThat(State.END.flushOnEntry()).isTrue();
    }

    @Test
    void loopsBecomeBackEdges() {
        State loop = compile("![!<int>.?(int)]*.!<long>");
        assertThat(loop.kind()).isEqualTo(Kind.OUTWHILE);
        assertThat(loop.body().next().next()).isSameAs(loop);
        assertThat(loop.exit().message().kind()).isEqualTo(WireKind.LONG);
    }

    @Test
    void recursionBecomesBackEdgesAndBranchesKeepTheirLabels() {
        State start = compile("rec X[!{MORE: !<int>.#X, DONE: ?(int)}]");
        assertThat(start.kind()).isEqualTo(Kind.SELECT);
        assertThat(start.labels()).containsExactly("MORE", "DONE");
        assertThat(start.branch("MORE").next()).isSameAs(start);
        assertThat(start.branch("DONE").kind()).isEqualTo(Kind.RECEIVE);
        assertThat(start.branch("OTHER")).isNull();
    }

    @Test
    void describePrintsTheExpectedActionInSjNotation() {
        assertThat(compile("?{A: !<int>, B: }").describe()).isEqualTo("?{A: !<int>, B: }");
        assertThat(State.END.describe()).startsWith("end");
    }

    @Test
    void unloadableMessageClassesFailAtCompileTime() {
        assertThatThrownBy(() -> compile("!<com.example.Missing>")).isInstanceOf(SJException.class)
                .hasMessageContaining("com.example.Missing");
    }

    @Test
    void unexpandedReferencesAreRejected() {
        assertThatThrownBy(() -> compile("@(P)")).isInstanceOf(SJException.class).hasMessageContaining("@(P)");
    }
}
