package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TestAcceptorGroups;
import org.sessionj.runtime.spi.Connection;

/**
 * Where a server socket's handshakes run: on the thread that takes connections when the requester's
 * whole first frame is already there (it cannot wait for the requester, and a thread of its own per
 * session cost a start, a carrier hand-off and an end), on a virtual thread of its own otherwise (it
 * may wait up to the initiation timeout and must not hold the others up).
 */
@Timeout(60)
class HandshakeThreadsTest {
    @Protocol("sbegin.?(int)")
    interface Served {
    }

    /** A requester whose first read records the thread it ran on and fails. */
    private static final class Probe extends LatchedConnection {
        final boolean frameWaiting;
        final CompletableFuture<String> readOn = new CompletableFuture<>();

        Probe(boolean frameWaiting) {
            this.frameWaiting = frameWaiting;
        }

        @Override
        public boolean frameWaiting() {
            return frameWaiting;
        }

        @Override
        public boolean isReadable() {
            return frameWaiting;
        }

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            readOn.complete(Thread.currentThread().getName());
            throw new IOException("probe done");
        }
    }

    @Test
    void aRequestAlreadyInIsHandledByTheTakingThreadAndOneStillToComeOnAThreadOfItsOwn() throws Exception {
        LinkedBlockingQueue<Connection> incoming = new LinkedBlockingQueue<>();
        AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.queued(incoming)));
        SessionContext context = new SessionContext(null, SJRuntimeConfig.defaults(), null);
        try (Handshakes handshakes = new Handshakes(group, ProtocolRegistry.of(Served.class), context)) {
            handshakes.start();
            Probe in = new Probe(true);
            Probe toCome = new Probe(false);
            incoming.add(in);
            incoming.add(toCome);
            assertThat(in.readOn.get(20, TimeUnit.SECONDS)).isEqualTo("sj-handshakes-1");
            assertThat(toCome.readOn.get(20, TimeUnit.SECONDS)).isEqualTo("sj-handshake-1");
        } finally {
            group.close();
        }
    }
}
