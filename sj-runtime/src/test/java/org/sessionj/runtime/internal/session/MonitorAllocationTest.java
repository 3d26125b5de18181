package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.types.SessionTypes;

/** Following the session type costs no allocation per action (buffers are per batch, pooled). */
class MonitorAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void primitiveOutputsAndLoopFlagsAllocateNothingPerAction() {
        SinkConnection sink = new SinkConnection();
        SessionSocket socket = new SessionSocket(sink,
                StateMachine.compile(SessionTypes.parse("![!<int>.!<double>]*"), getClass().getClassLoader()),
                new SessionSettings(true, 64 * 1024, -1), "![!<int>.!<double>]*");
        run(socket, 200_000); // warm up (JIT, buffer pools)
        long before = THREADS.getCurrentThreadAllocatedBytes();
        int actions = run(socket, 1_000_000);
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink.framesWritten).as("batched by size").isGreaterThan(100);
        assertThat(allocated / (double) actions).as("bytes allocated per action").isLessThan(1.0);
    }

    private static int run(SessionSocket socket, int iterations) {
        for (int i = 0; i < iterations; i++) {
            socket.outwhile(true);
            socket.send(i);
            socket.send(i * 0.5);
        }
        return iterations * 3;
    }
}
