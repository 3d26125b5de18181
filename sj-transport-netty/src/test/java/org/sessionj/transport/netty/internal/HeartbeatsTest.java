package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.Heartbeat;

/**
 * The event-loop path's heartbeats on a channel whose clock the test moves
 * ({@link EmbeddedChannel#advanceTimeBy}): what is asserted is what the handler does at each instant,
 * never how promptly a loaded machine ran an event loop.
 */
class HeartbeatsTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final Heartbeat HB = new Heartbeat(100 * MS, 1000 * MS);

    /** The channel's failures, in order. */
    private final List<Throwable> failures = new ArrayList<>();

    /** A channel whose clock moves only when the test moves it (frozen before the handlers start their timers). */
    private EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new Heartbeats(HB), new FrameDecoder(1 << 20), new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                failures.add(cause);
            }
        });
        return channel;
    }

    private static void advance(EmbeddedChannel channel, long nanos) {
        channel.advanceTimeBy(nanos, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    private static ByteBuf heartbeat() {
        return Unpooled.buffer(FrameDecoder.HEADER_BYTES).writeInt(FrameDecoder.HEARTBEAT);
    }

    /** The heartbeats written since the last call (each a bare header of length -1); fails on anything else. */
    private static int heartbeatsWritten(EmbeddedChannel channel) {
        int count = 0;
        for (ByteBuf out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            try {
                assertThat(out.readableBytes()).isEqualTo(FrameDecoder.HEADER_BYTES);
                assertThat(out.readInt()).isEqualTo(FrameDecoder.HEARTBEAT);
                count++;
            } finally {
                out.release();
            }
        }
        return count;
    }

    @Test
    void anEndThatWritesNothingSendsAHeartbeatEveryIntervalAndNoneEarlier() {
        EmbeddedChannel channel = channel();
        for (int i = 0; i < 5; i++) {
            advance(channel, HB.intervalNanos() - 1);
            assertThat(heartbeatsWritten(channel)).as("interval %d not yet up", i).isZero();
            advance(channel, 1);
            assertThat(heartbeatsWritten(channel)).as("interval %d", i).isEqualTo(1);
            channel.writeInbound(heartbeat()); // the peer's, so that the end is not taken for dead
        }
        assertThat(failures).isEmpty();
        channel.finishAndReleaseAll();
    }

    @Test
    void aWriteOfTheProgramPutsTheNextHeartbeatOffByAWholeInterval() {
        EmbeddedChannel channel = channel();
        advance(channel, HB.intervalNanos() / 2);
        channel.writeOutbound(Unpooled.buffer(8).writeInt(4).writeInt(42));
        ByteBuf frame = channel.readOutbound();
        frame.release();
        advance(channel, HB.intervalNanos() - 1);
        assertThat(heartbeatsWritten(channel)).isZero();
        advance(channel, 1);
        assertThat(heartbeatsWritten(channel)).isEqualTo(1);
        channel.finishAndReleaseAll();
    }

    @Test
    void thePeersHeartbeatsKeepAnIdleConnectionAliveFarPastTheTimeoutAndAreNeverDelivered() {
        EmbeddedChannel channel = channel();
        // Fifty intervals (five timeouts) in which the program reads nothing: only heartbeats come.
        for (int i = 0; i < 50; i++) {
            advance(channel, HB.intervalNanos());
            channel.writeInbound(heartbeat());
            assertThat(failures).as("after %d heartbeats", i + 1).isEmpty();
        }
        assertThat((Object) channel.readInbound()).as("heartbeats are not frames").isNull();
        assertThat(heartbeatsWritten(channel)).as("and this end sent its own").isEqualTo(50);
        channel.finishAndReleaseAll();
    }

    @Test
    void aPeerThatFallsSilentFailsTheChannelAtTheTimeoutAfterTheLastThingHeardAndNotBefore() {
        EmbeddedChannel channel = channel();
        advance(channel, HB.intervalNanos());
        channel.writeInbound(Unpooled.buffer(8).writeInt(4).writeInt(7)); // a frame counts as much as a heartbeat
        ByteBuf frame = channel.readInbound();
        assertThat(frame.readInt()).isEqualTo(7);
        frame.release();
        advance(channel, HB.timeoutNanos() - 1);
        assertThat(failures).as("one nanosecond short of the timeout").isEmpty();
        advance(channel, 1);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).hasMessageContaining("no data and no heartbeat from the peer for PT1S")
                .hasMessageContaining("sessionj.heartbeat.timeout");
        channel.finishAndReleaseAll();
    }

    @Test
    void aPeerThatNeverSendsAnythingFailsTheChannelOneTimeoutAfterItOpened() {
        EmbeddedChannel channel = channel();
        for (int i = 0; i < 9; i++) {
            advance(channel, HB.intervalNanos());
        }
        advance(channel, HB.intervalNanos() - 1);
        assertThat(failures).isEmpty();
        assertThat(heartbeatsWritten(channel)).as("it was sent heartbeats meanwhile").isEqualTo(9);
        advance(channel, 1);
        assertThat(failures).hasSize(1);
        channel.finishAndReleaseAll();
    }
}
