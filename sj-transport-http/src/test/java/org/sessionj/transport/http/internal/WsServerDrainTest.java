package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * hostile17 H1, its WebSocket part: a direct server's end that wrote its last frames and closed waits in
 * {@link ServedConnection#close} until they have left the process, so that the program may exit right
 * after. Over WebSocket the download stream is acknowledged as soon as the channel is handed the bytes,
 * and the close waited only for that: it returned with the last frames and the end still in the channel's
 * buffer (up to Netty's high-water mark and a segment), lost if the program then exited (Netty's event
 * loops are daemon threads). Now it waits until the socket took the end. An embedded channel whose
 * "socket" holds every write until the test lets it go stands for a slow client.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WsServerDrainTest {
    @Test
    void aCloseWaitsUntilTheSocketTookTheEndNotOnlyTheChannel() throws Exception {
        Half half = new Half(Wire.newToken(), new ByteStream(1 << 20, Budget.unlimited()),
                new ByteStream(1 << 20, Budget.unlimited()));
        HttpSettings settings = new HttpSettings(500, 1000, 4096, 1 << 20, 5_000, true, 1 << 20);
        List<ChannelPromise> held = new CopyOnWriteArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ReferenceCountUtil.release(msg);
                held.add(promise); // the socket has not taken it yet
            }

            @Override
            public void flush(ChannelHandlerContext ctx) {
            }
        }, new WsServerHandler(half, settings));
        channel.runPendingTasks();
        ServedConnection connection = new ServedConnection("http", half, settings, "test");
        for (int i = 0; i < 3; i++) {
            connection.write(connection.alloc().buffer(100).writeZero(100));
        }
        connection.flush();
        Thread closing = Thread.ofPlatform().start(connection::close);
        // The end handed to the channel and the stream acknowledged (on the closing thread): where the
        // close returned before.
        while (!half.out().isFinished() || half.out().buffered() > 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(connection.delivered()).as("delivered while the socket has taken nothing").isFalse();
        closing.join(Duration.ofMillis(300));
        assertThat(closing.isAlive()).as("the close still waits for the socket").isTrue();
        for (ChannelPromise promise : held) {
            if (!promise.isVoid()) {
                promise.setSuccess();
            }
        }
        assertThat(connection.delivered()).as("delivered once the socket took the end").isTrue();
        closing.join(Duration.ofSeconds(10)); // the close's own bound is 10 s
        assertThat(closing.isAlive()).as("the close returned once the socket took the end").isFalse();
        channel.finishAndReleaseAll();
    }
}
