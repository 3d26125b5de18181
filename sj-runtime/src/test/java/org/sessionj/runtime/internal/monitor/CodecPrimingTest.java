package org.sessionj.runtime.internal.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.internal.wire.RecordLayout;
import org.sessionj.types.SessionTypes;

/** Message records of this test only: whether a layout was primed is per JVM. */
record PrimedInLoop(double x, double y) {
}

record PrimedInBranch(int value) {
}

record PrimedInRecursion(long value) {
}

record PrimedAsArray(float value) {
}

record NeverReached(int value) {
}

class CodecPrimingTest {
    private static State compile(String type) {
        return StateMachine.compile(SessionTypes.parse(type), CodecPrimingTest.class.getClassLoader());
    }

    private static final String P = "org.sessionj.runtime.internal.monitor.";

    @Test
    void primesTheRecordsOfEveryMessageReachableFromTheStartThroughLoopsBranchesAndRecursion() {
        State start = compile("cbegin.!<int>.![!<" + P + "PrimedInLoop>.?(" + P + "PrimedAsArray[])]*"
                + ".?{A: !<" + P + "PrimedInBranch>, B: rec X[!{MORE: ?(" + P + "PrimedInRecursion).#X, DONE: }]}");
        CodecPriming.prime(start, UnpooledByteBufAllocator.DEFAULT);
        assertThat(RecordLayout.of(PrimedInLoop.class).primed()).isTrue();
        assertThat(RecordLayout.of(PrimedAsArray.class).primed()).isTrue();
        assertThat(RecordLayout.of(PrimedInBranch.class).primed()).isTrue();
        assertThat(RecordLayout.of(PrimedInRecursion.class).primed()).isTrue();
        assertThat(RecordLayout.of(NeverReached.class).primed()).as("a record no message of the type carries").isFalse();
    }

    @Test
    void aTypeWithoutRecordsAndTheEndStateArePrimedWithoutEffect() {
        CodecPriming.prime(compile("!<int>.?(java.lang.String).!<double[]>"), UnpooledByteBufAllocator.DEFAULT);
        CodecPriming.prime(State.END, UnpooledByteBufAllocator.DEFAULT);
        assertThat(State.END.codecsPrimed).isTrue();
    }
}
