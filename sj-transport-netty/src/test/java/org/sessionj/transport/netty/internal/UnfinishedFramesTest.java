package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * The rules for unfinished frames ({@link UnfinishedFrames}): the budget's bookkeeping and whom it
 * gives up, and the event-loop decoder under them on channels whose clock the test moves
 * ({@link EmbeddedChannel#advanceTimeBy}): what is asserted is what happens at each instant, never how
 * promptly a loaded machine ran a timer.
 */
class UnfinishedFramesTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aFrameMayTakeTheTimeoutOrItsLengthAtTheMinimumRateWhicheverIsLonger() {
        UnfinishedFrames rules = new UnfinishedFrames(1 << 20, Duration.ofSeconds(10), 64 << 10);
        assertThat(rules.allowanceNanos(100)).isEqualTo(10 * SECOND);
        assertThat(rules.allowanceNanos(640 << 10)).isEqualTo(10 * SECOND);
        assertThat(rules.allowanceNanos(16 << 20)).as("16 MiB at 64 KiB/s").isEqualTo(256 * SECOND);
    }

    @Test
    void bytesThatDoNotFitGiveUpTheOldestOlderFrameAndOnlyIt() {
        UnfinishedFrames rules = new UnfinishedFrames(1000, Duration.ofSeconds(10), 1);
        List<String> givenUp = new ArrayList<>();
        UnfinishedFrames.Frame a = rules.start(900, "peer a", 0, reason -> givenUp.add("a: " + reason));
        UnfinishedFrames.Frame b = rules.start(900, "peer b", 1, reason -> givenUp.add("b: " + reason));
        UnfinishedFrames.Frame c = rules.start(900, "peer c", 2, reason -> givenUp.add("c: " + reason));
        assertThat(a.hold(400)).isTrue();
        assertThat(b.hold(400)).isTrue();
        assertThat(rules.used()).isEqualTo(800);
        assertThat(givenUp).isEmpty();

        assertThat(c.hold(300)).as("c makes room by giving up a, the oldest").isTrue();
        assertThat(givenUp).hasSize(1);
        assertThat(givenUp.get(0)).startsWith("a: unfinished frame from the peer given up: it held 400 bytes (of a frame of 900)")
                .contains("sessionj.tcp.unfinishedFrameBytes").contains("budget of 1000 bytes").contains("(peer a)");
        assertThat(rules.used()).isEqualTo(700);
        assertThat(rules.count()).isEqualTo(2);

        assertThat(a.hold(500)).as("a given up: its bytes are no longer counted, whatever it asks").isTrue();
        assertThat(rules.used()).isEqualTo(700);

        assertThat(b.hold(800)).as("b is now the oldest: nothing older to give up").isFalse();
        assertThat(b.overBudget(800)).startsWith("unfinished frame from the peer refused: its 800 bytes (of a frame of 900)")
                .contains("budget of 1000 (sessionj.tcp.unfinishedFrameBytes").contains("(peer b)");
        assertThat(givenUp).as("c, newer than b, is not given up for it").hasSize(1);
        assertThat(rules.used()).as("a refused frame keeps what it held until its connection lets go").isEqualTo(700);

        b.done();
        c.done();
        a.done();
        assertThat(rules.used()).isZero();
        assertThat(rules.count()).isZero();
    }

    @Test
    void framesThatFitAreNeverGivenUpAndDoneTwiceCountsOnce() {
        UnfinishedFrames rules = new UnfinishedFrames(1000, Duration.ofSeconds(10), 1);
        List<String> givenUp = new ArrayList<>();
        UnfinishedFrames.Frame a = rules.start(900, "a", 0, givenUp::add);
        UnfinishedFrames.Frame b = rules.start(900, "b", 0, givenUp::add);
        assertThat(a.hold(500)).isTrue();
        assertThat(b.hold(500)).isTrue();
        assertThat(a.hold(200)).as("shrinking always fits").isTrue();
        assertThat(b.hold(800)).isTrue();
        assertThat(givenUp).isEmpty();
        a.done();
        a.done();
        assertThat(rules.used()).isEqualTo(800);
        b.done();
        assertThat(rules.used()).isZero();
    }

    // ---- the event-loop decoder under the rules ----

    /** A channel decoding frames under {@code rules}, its clock frozen, its failures in {@code failures}. */
    private static EmbeddedChannel channel(UnfinishedFrames rules, List<Throwable> failures, List<ByteBuf> frames) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new FrameDecoder(1 << 20, rules), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                frames.add((ByteBuf) msg);
            }

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

    private static ByteBuf header(int length) {
        return Unpooled.buffer(4).writeInt(length);
    }

    @Test
    void aTricklingFrameFailsItsConnectionAtItsDeadlineAndNotANanosecondBefore() {
        UnfinishedFrames rules = new UnfinishedFrames(1 << 20, Duration.ofMillis(1000), 1000); // 5000 bytes: 5 s
        List<Throwable> failures = new ArrayList<>();
        List<ByteBuf> frames = new ArrayList<>();
        EmbeddedChannel channel = channel(rules, failures, frames);
        channel.writeInbound(header(5000), Unpooled.wrappedBuffer(new byte[4000]));
        for (int i = 0; i < 49; i++) { // a byte every 100 ms: always something, never the frame
            advance(channel, 100 * MS);
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[1]));
        }
        advance(channel, 99 * MS);
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[1]));
        advance(channel, MS - 1);
        assertThat(failures).as("4,999 ns short of 5 s").isEmpty();
        assertThat(rules.used()).isEqualTo(4 + 4050);
        advance(channel, 1);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(FrameDecoder.UnfinishedFrameException.class)
                .hasMessageStartingWith("unfinished frame from the peer: 4050 of its 5000 bytes arrived in 5.0 s;")
                .hasMessageContaining("max(1.0 s, its length at 1000 bytes/s) = 5.0 s")
                .hasMessageContaining("sessionj.tcp.frameTimeout, sessionj.tcp.frameMinRate");
        assertThat(rules.used()).as("the frame's bytes are no longer counted").isZero();
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[950]));
        assertThat(frames).as("nothing after the failure is decoded").isEmpty();
        channel.finishAndReleaseAll();
    }

    @Test
    void framesThatFinishInTimeOneAfterAnotherNeverFailAndHoldNothingAfterwards() {
        UnfinishedFrames rules = new UnfinishedFrames(1 << 20, Duration.ofMillis(1000), 1 << 20);
        List<Throwable> failures = new ArrayList<>();
        List<ByteBuf> frames = new ArrayList<>();
        EmbeddedChannel channel = channel(rules, failures, frames);
        for (int i = 0; i < 10; i++) { // each frame takes 900 ms; ten of them span 9 s, and one timer at a time looks
            channel.writeInbound(header(100), Unpooled.wrappedBuffer(new byte[50]));
            assertThat(rules.used()).isEqualTo(54);
            advance(channel, 900 * MS);
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[50]));
            assertThat(rules.used()).isZero();
        }
        advance(channel, 10 * SECOND);
        assertThat(failures).isEmpty();
        assertThat(frames).hasSize(10);
        frames.forEach(ByteBuf::release);
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aNewerFrameThatNeedsRoomFailsTheOldestUnfinishedOneNotItself() {
        UnfinishedFrames rules = new UnfinishedFrames(10_000, Duration.ofSeconds(10), 1);
        List<Throwable> trickler = new ArrayList<>();
        List<Throwable> honest = new ArrayList<>();
        List<ByteBuf> trickled = new ArrayList<>();
        List<ByteBuf> served = new ArrayList<>();
        EmbeddedChannel old = channel(rules, trickler, trickled);
        EmbeddedChannel fresh = channel(rules, honest, served);
        old.writeInbound(header(20_000), Unpooled.wrappedBuffer(new byte[8000]));
        fresh.writeInbound(header(6000), Unpooled.wrappedBuffer(new byte[3000]));
        old.runPendingTasks(); // the give-up is handed to the old channel's own loop
        assertThat(trickler).hasSize(1);
        assertThat(trickler.get(0)).isInstanceOf(FrameDecoder.UnfinishedFrameException.class)
                .hasMessageStartingWith("unfinished frame from the peer given up: it held 8004 bytes (of a frame of 20000)");
        fresh.writeInbound(Unpooled.wrappedBuffer(new byte[3000]));
        assertThat(honest).isEmpty();
        assertThat(served).hasSize(1);
        assertThat(served.get(0).readableBytes()).isEqualTo(6000);
        served.forEach(ByteBuf::release);
        assertThat(rules.used()).isZero();

        EmbeddedChannel alone = channel(rules, honest, served);
        alone.writeInbound(header(20_000), Unpooled.wrappedBuffer(new byte[10_000]));
        assertThat(honest).as("with nothing older to give up, the frame that does not fit fails").hasSize(1);
        assertThat(honest.get(0)).hasMessageStartingWith("unfinished frame from the peer refused: its 10004 bytes");
        assertThat(rules.used()).isZero();
        old.finishAndReleaseAll();
        fresh.finishAndReleaseAll();
        alone.finishAndReleaseAll();
    }
}
