package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * The first in-JVM session of a fresh JVM loads no Netty buffer class (issue 15, cold start): the
 * in-JVM transport's frames are SJ's own heap frames, so none of Netty's buffer initialisers
 * ({@code PlatformDependent}, the leak detector, Netty's logging) runs. A fresh JVM runs one session and
 * logs every class it loads ({@code -Xlog:class+load}); class loading on one code path is
 * deterministic, so this fails as soon as any code on the path names a Netty buffer again.
 */
class NoNettyBuffersInJvmTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFirstInJvmSessionLoadsNoNettyBufferClass() throws Exception {
        FirstSessionLog.Run run = FirstSessionLog.run(FirstSession.class.getName());
        assertThat(run.done()).as("the child's session ended; its other output:%n%s", run.otherOutput()).isTrue();
        assertThat(run.exitValue()).isZero();
        assertThat(run.loaded("org.sessionj.runtime.spi.support.HeapFrame"))
                .as("the class-load log names the in-JVM frames (the log is read; the path is the in-JVM one)").isTrue();
        assertThat(run.loadedStartingWith("io.netty.")).as("Netty classes loaded by the first in-JVM session")
                .noneMatch(name -> name.startsWith("io.netty.buffer.") || name.startsWith("io.netty.util.internal.")
                        || name.startsWith("io.netty.util.Recycler") || name.startsWith("io.netty.util.ResourceLeak"));
    }

    /** The child: one in-JVM session, {@code cbegin.!<int>.?(int)}, then {@link FirstSessionLog#DONE}. */
    static final class FirstSession {
        private FirstSession() {
        }

        public static void main(String[] args) throws Exception {
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
            try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
                FirstSessionLog.oneSession(server, runtime.service(IntClient.class, "localhost", server.port()));
            }
            FirstSessionLog.done();
        }
    }
}
