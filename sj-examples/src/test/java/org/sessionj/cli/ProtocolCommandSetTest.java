package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.cli.ProtocolCommandTest.sj;

import org.junit.jupiter.api.Test;
import org.sessionj.cli.ProtocolCommandTest.Run;

/** {@code ./sj protocol} on session set types {S1, S2, …}. */
class ProtocolCommandSetTest {

    @Test
    void checkAndPrintGiveTheCanonicalSet() {
        Run check = sj("protocol", "check", "{ ?(String).!<int> , // get\n ?{PUT: ?(String), DEL: }, }");
        assertThat(check.status()).isZero();
        assertThat(check.out()).isEqualTo("ok: {?(String).!<int>, ?{PUT: ?(String), DEL: }}\n");
        Run print = sj("protocol", "print", "{end, !<int>}");
        assertThat(print.out()).isEqualTo("{end, !<int>}\n");
    }

    @Test
    void dualIsMemberWise() {
        Run run = sj("protocol", "dual", "{sbegin.?(int), ![!<int>]*}");
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("{cbegin.!<int>, ?[?(int)]*}\n");
    }

    @Test
    void expandInlinesReferencesInEveryMember() {
        Run run = sj("protocol", "print", "--expand", "-D", "Get=?(String).!<int>", "{@(Get), ^(Get)}");
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("{?(String).!<int>, !<String>.?(int)}\n");
    }

    @Test
    void errorsArePositionedInTheSetText() {
        Run duplicate = sj("protocol", "check", "{!<int>, !<int>}");
        assertThat(duplicate.status()).isEqualTo(1);
        assertThat(duplicate.err()).startsWith("error in PROTOCOL: line 1, column 10: duplicate member '!<int>'")
                .contains("{!<int>, !<int>}\n         ^");
        Run empty = sj("protocol", "check", "{}");
        assertThat(empty.status()).isEqualTo(1);
        assertThat(empty.err()).contains("a session set has at least one member");
        Run illFormed = sj("protocol", "check", "{!<int>, rec X[#X]}");
        assertThat(illFormed.status()).isEqualTo(1);
        assertThat(illFormed.err()).contains("SJT204").contains("column 16");
        Run unknown = sj("protocol", "check", "{!<int>, @(Missing)}");
        assertThat(unknown.status()).isEqualTo(1);
        assertThat(unknown.err()).contains("Missing").contains("column 10");
    }

    @Test
    void fsmAndSetDefinitionsAreRefusedWithAReason() {
        Run fsm = sj("protocol", "fsm", "{!<int>, ?(int)}");
        assertThat(fsm.status()).isEqualTo(1);
        assertThat(fsm.out()).isEmpty();
        assertThat(fsm.err()).contains("one state machine per member");
        Run define = sj("protocol", "check", "-D", "S={!<int>}", "@(S)");
        assertThat(define.status()).isEqualTo(1);
        assertThat(define.err()).contains("error in definition of S").contains("a session set is a whole protocol");
    }
}
