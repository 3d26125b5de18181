package org.sessionj.runtime.internal.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.SessionTypes;

/** The remaining type of a state (what a delegated session still has to do) and the conformance check. */
class RemainingTypeAndConformanceTest {
    private static final ClassLoader LOADER = RemainingTypeAndConformanceTest.class.getClassLoader();

    private static State compile(String type) {
        return StateMachine.compile(SessionTypes.parse(type), LOADER);
    }

    private static String remaining(State state) {
        return SessionTypes.print(RemainingType.of(state));
    }

    private static boolean conforms(String mine, String theirs) {
        return Conformance.conforms(compile(mine), compile(theirs), JavaSubtyping.reflective(LOADER));
    }

    @Test
    void theRemainingTypeFromTheStartIsTheTypeWithoutItsBegin() {
        assertThat(remaining(compile("sbegin.?[?(int).!<int>]*"))).isEqualTo("?[?(int).!<int>]*");
        assertThat(remaining(compile("!<int>"))).isEqualTo("!<int>");
    }

    @Test
    void inTheMiddleOfALoopTheRestOfTheIterationComesBeforeTheLoop() {
        State loop = compile("?[?(int).!<int>]*.!<long>");
        State afterReceive = loop.body().next();
        // The graph revisits the middle of the iteration, so the text says it with rec; it is the
        // same state machine as the rest of the iteration followed by the loop.
        String text = remaining(afterReceive);
        assertThat(text).isEqualTo("rec D0[!<int>.?[?(int).#D0]*.!<long>]");
        assertThat(conforms(text, "!<int>.?[?(int).!<int>]*.!<long>")).isTrue();
        assertThat(conforms("!<int>.?[?(int).!<int>]*.!<long>", text)).isTrue();
        assertThat(conforms("!<int>.?[?(int).!<int>]*", text)).isFalse();
        assertThat(remaining(loop.exit())).isEqualTo("!<long>");
        assertThat(remaining(loop.exit().next())).isEqualTo("");
    }

    @Test
    void aRevisitedStateBecomesRecursionAndAChoiceCarriesItsContinuation() {
        String text = remaining(compile("rec X[!{MORE: !<int>.#X, DONE: }]"));
        assertThat(text).startsWith("rec ").contains("MORE: !<int>.#").contains("DONE: ");
        State reparsed = compile(text);
        assertThat(conforms(text, "rec X[!{MORE: !<int>.#X, DONE: }]")).isTrue();
        assertThat(reparsed.kind()).isEqualTo(State.Kind.SELECT);
        assertThat(remaining(compile("!{A: !<int>, B: }.?(long)"))).isEqualTo("!{A: !<int>.?(long), B: ?(long)}");
    }

    @Test
    void conformanceIsSemanticNotSyntactic() {
        assertThat(conforms("!{A: !<int>, B: }.?(long)", "!{A: !<int>.?(long), B: ?(long)}")).isTrue();
        assertThat(conforms("![!<int>]*", "rec X[![!<int>]*]")).isTrue();
    }

    @Test
    void messageTypesMayVaryOnlyInTheSafeDirection() {
        // A subclass and its superclass, both of which a receiver decodes (a Number would not load: no peer
        // decodes one, SJ018 / adv13 A10).
        String sub = "java.sql.Timestamp";
        String sup = "java.util.Date";
        assertThat(conforms("!<" + sub + ">", "!<" + sup + ">")).isTrue();
        assertThat(conforms("!<" + sup + ">", "!<" + sub + ">")).isFalse();
        assertThat(conforms("?(" + sup + ")", "?(" + sub + ")")).isTrue();
        assertThat(conforms("?(" + sub + ")", "?(" + sup + ")")).isFalse();
        assertThat(conforms("?(java.lang.String)", "?(int)")).isFalse();
        assertThat(conforms("!<int>", "?(int)")).isFalse();
        assertThat(conforms("!<int>.!<int>", "!<int>")).isFalse();
    }

    @Test
    void labelsMayVaryOnlyInTheSafeDirection() {
        // A selection among fewer labels is safe; a branch must offer every label the peer may pick.
        assertThat(conforms("!{A: }", "!{A: , B: }")).isTrue();
        assertThat(conforms("!{A: , C: }", "!{A: , B: }")).isFalse();
        assertThat(conforms("?{A: , B: , C: }", "?{A: , B: }")).isTrue();
        assertThat(conforms("?{A: }", "?{A: , B: }")).isFalse();
    }
}
