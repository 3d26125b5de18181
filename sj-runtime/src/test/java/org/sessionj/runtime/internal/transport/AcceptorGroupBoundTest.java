package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;

/**
 * The queue of a group of several acceptors (a server socket on more than one transport, the default) is
 * short: its member threads stop taking connections from their acceptors once
 * {@link AcceptorGroup#QUEUE_BOUND} wait in it, so the acceptors' own bounded queues fill and they stop
 * accepting (the next peers wait in the kernel's backlog). Before, the member threads moved every
 * connection into an unbounded queue, and a server on two transports held every connection of a
 * slowloris. Closing the group closes the connections nobody took.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcceptorGroupBoundTest {
    /** A connection that only knows whether it was closed. */
    private static final class Idle implements Connection {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public ByteBufAllocator alloc() {
            return ByteBufAllocator.DEFAULT;
        }

        @Override
        public void write(ByteBuf frame) {
            frame.release();
        }

        @Override
        public void flush() {
        }

        @Override
        public ByteBuf read(long timeoutNanos) {
            return null;
        }

        @Override
        public boolean isReadable() {
            return false;
        }

        @Override
        public void readinessListener(Runnable listener) {
        }

        @Override
        public String transportName() {
            return "t0";
        }

        @Override
        public boolean isClosed() {
            return closed.get();
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void aGroupOfTwoAcceptorsHoldsAtMostTheBoundOfConnectionsNobodyTookAndClosesThemWhenItCloses() throws Exception {
        LinkedBlockingQueue<Connection> incoming = new LinkedBlockingQueue<>();
        List<Idle> flood = new ArrayList<>();
        int more = 100;
        for (int i = 0; i < AcceptorGroup.QUEUE_BOUND + more; i++) {
            Idle connection = new Idle();
            flood.add(connection);
            incoming.add(connection);
        }
        AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.queued(incoming), TestAcceptorGroups.idle()));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (group.waiting() < AcceptorGroup.QUEUE_BOUND && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(group.waiting()).as("connections in the group's queue").isEqualTo(AcceptorGroup.QUEUE_BOUND);
            // The member's thread holds one more while it waits for room; the rest stay with the acceptor (whose
            // own bound then stops it accepting).
            assertThat(incoming).as("connections left with the acceptor").hasSize(more - 1);
            AcceptorGroup.Accepted first = group.accept(TimeUnit.SECONDS.toNanos(10));
            assertThat(first.connection()).isSameAs(flood.get(0));
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (incoming.size() > more - 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(incoming).as("room for one more: the member's thread took one more").hasSize(more - 2);
            assertThat(group.waiting()).isEqualTo(AcceptorGroup.QUEUE_BOUND);
        } finally {
            group.close();
        }
        // The one a member's thread held while waiting for room is closed by that thread, once it wakes.
        Idle held = flood.get(AcceptorGroup.QUEUE_BOUND + 1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!held.closed.get() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(flood.subList(1, AcceptorGroup.QUEUE_BOUND + 2)).as("the connections the group held, closed with it")
                .allMatch(c -> c.closed.get());
        assertThat(flood.get(0).closed).as("the connection taken is the caller's to close").isFalse();
        assertThat(flood.subList(AcceptorGroup.QUEUE_BOUND + 2, flood.size())).as("those left with the acceptor")
                .noneMatch(c -> c.closed.get());
    }
}
