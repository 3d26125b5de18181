package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.TestAcceptorGroups;
import org.sessionj.runtime.spi.Connection;

/**
 * hostile22 H22-4: the resumption endpoint is bounded like a server socket. Any session partner can have it opened
 * (by announcing a delegation) and learns its port; before, it started a handshake for every connection, and 19,990
 * silent ones took a server's descriptors and then its heap. Now at most {@code sessionj.maxPendingHandshakes} are in
 * their handshake at once, and the oldest goes for a newcomer (a new owner sends its request at once).
 */
@Timeout(60)
class ResumptionsBoundTest {
    /** A connection that sends nothing: its handshake waits in its first read until it is closed. */
    private static final class Silent extends LatchedConnection {
        final CountDownLatch reading = new CountDownLatch(1);

        @Override
        public ByteBuf read(long timeoutNanos) throws IOException {
            reading.countDown();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("closed");
        }
    }

    @Test
    void atTheLimitTheOldestHandshakeIsDroppedForANewConnection() throws Exception {
        LinkedBlockingQueue<Connection> incoming = new LinkedBlockingQueue<>();
        AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.queued(incoming)));
        SJRuntimeConfig config = SJRuntimeConfig.builder().maxPendingHandshakes(4)
                .initiationTimeout(Duration.ofSeconds(30)).build();
        try (Resumptions endpoint = new Resumptions(() -> group, config)) {
            UUID token = UUID.randomUUID();
            endpoint.open(token, new CompletableFuture<>());
            List<Silent> flood = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Silent connection = new Silent();
                flood.add(connection);
                incoming.add(connection);
                assertThat(connection.reading.await(20, TimeUnit.SECONDS)).as("connection %d in its handshake", i)
                        .isTrue();
            }
            for (int i = 0; i < 6; i++) {
                assertThat(flood.get(i).closed.await(20, TimeUnit.SECONDS)).as("the oldest, %d, dropped", i).isTrue();
            }
            for (int i = 6; i < 10; i++) {
                assertThat(flood.get(i).isClosed()).as("the newest four, %d, in their handshake", i).isFalse();
            }
            // counted out when dropped (before its thread ends), so the count is exact once the newest reads
            assertThat(endpoint.handshaking()).isEqualTo(4);
            endpoint.forget(token);
        } finally {
            group.close();
        }
    }
}
