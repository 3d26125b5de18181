package org.sessionj.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.transport.http.internal.DirectAcceptor;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.Wire;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.RelayLimits;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Clients of a direct {@code http} server that start large frames and never finish them (before, 16
 * of them holding 16 MiB each made a 256 MiB server reset every connection in flight): a budget the
 * test sets for all unfinished frames holds, the oldest unfinished frame is given up for a newer one,
 * an honest client's large frame is served next to them, and a frame that misses its deadline fails
 * its connection, each with a reason naming the rule, the peer and the figures.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpUnfinishedFrameTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int KIB = 1024;
    private static final int SEGMENT = 200 * KIB;
    private static final HttpSettings SETTINGS = new HttpSettings(2_000, 256 * KIB, 256 * KIB, 1 << 20, 15_000, true,
            16 << 20);

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private DirectAcceptor listen(UnfinishedFrames rules) throws IOException {
        DirectAcceptor acceptor = DirectAcceptor.listen("http", SETTINGS.withUnfinishedFrames(rules), 0, 0, null);
        closing.add(acceptor);
        return acceptor;
    }

    /** A raw client's connection: its token, the server's end of it, and how far it uploaded. */
    private final class Raw {
        final RawHttp http;
        final String token;
        final Connection accepted;
        long offset;

        Raw(DirectAcceptor acceptor) throws IOException {
            http = new RawHttp(acceptor.port(), 10_000);
            closing.add(http);
            RawHttp.Response opened = http.exchange("POST", Wire.OPEN);
            assertThat(opened.status()).isEqualTo(200);
            token = opened.body().strip();
            accepted = acceptor.accept(10 * SECOND);
            closing.add(accepted);
        }

        /** Uploads {@code bytes} in segments. */
        void upload(byte[] bytes) throws IOException {
            for (int at = 0; at < bytes.length; at += SEGMENT) {
                byte[] segment = Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + SEGMENT));
                RawHttp.Response r = http.exchange("POST", Wire.sessionPath(token, "up") + "?offset=" + offset, segment);
                assertThat(r.status()).as("upload at %d: %s", offset, r.body()).isEqualTo(204);
                offset += segment.length;
            }
        }

        /** Starts a frame claiming {@code length} bytes and sends {@code sent} of them. */
        void startFrame(int length, int sent) throws IOException {
            upload(ByteBuffer.allocate(4 + sent).putInt(length).array());
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 20 * SECOND;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void tricklingClientsHoldNoMoreThanTheBudgetAndAnHonestLargeFrameIsServedNextToThem() throws Exception {
        UnfinishedFrames rules = new UnfinishedFrames(1 << 20, Duration.ofSeconds(30), 64 * KIB);
        DirectAcceptor acceptor = listen(rules);
        List<Raw> tricklers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Raw raw = new Raw(acceptor);
            raw.startFrame(8 << 20, 400 * KIB);
            tricklers.add(raw);
            long held = (i + 1) * (400L * KIB + 4);
            await(() -> rules.used() == held, "the server holds the unfinished frames' bytes");
        }
        Raw third = new Raw(acceptor);
        third.startFrame(8 << 20, 400 * KIB); // does not fit: the first trickler's frame is given up for it
        assertThatThrownBy(() -> tricklers.get(0).accepted.read(20 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("unfinished frame from the peer given up: it held 409604 bytes (of a frame of 8388608)")
                .hasMessageContaining("budget of 1048576 bytes for unfinished frames (sessionj.tcp.unfinishedFrameBytes)")
                .hasMessageContaining("http from ");
        await(() -> rules.used() == 2 * (400L * KIB + 4), "the third frame holds what the first held");

        Raw honest = new Raw(acceptor);
        byte[] frame = new byte[4 + 600 * KIB];
        ByteBuffer.wrap(frame).putInt(600 * KIB);
        frame[frame.length - 1] = 7;
        honest.upload(frame);
        ByteBuf got = honest.accepted.read(20 * SECOND);
        try {
            assertThat(got).isNotNull();
            assertThat(got.readableBytes()).isEqualTo(600 * KIB);
            assertThat(got.getByte(600 * KIB - 1)).isEqualTo((byte) 7);
        } finally {
            got.release();
        }
        assertThatThrownBy(() -> tricklers.get(1).accepted.read(20 * SECOND)).as("the next oldest made room for it")
                .isInstanceOf(IOException.class).hasMessageContaining("given up");
        assertThat(rules.used()).isLessThanOrEqualTo(rules.budgetBytes());
        third.accepted.close();
        await(() -> rules.used() == 0, "nothing held once the connections are closed");
    }

    @Test
    void aFrameNotFinishedByItsDeadlineFailsItsConnection() throws Exception {
        UnfinishedFrames rules = new UnfinishedFrames(64 << 20, Duration.ofMillis(300), 1L << 30);
        DirectAcceptor acceptor = listen(rules);
        Raw raw = new Raw(acceptor);
        raw.startFrame(1 << 20, 100 * KIB); // and nothing more
        IOException failure = catchThrowableOfType(IOException.class, () -> raw.accepted.read(20 * SECOND));
        assertThat(failure)
                .hasMessageContaining("unfinished frame from the peer: 102400 of its 1048576 bytes arrived in ")
                .hasMessageContaining("max(0.3 s, its length at 1073741824 bytes/s) = 0.3 s of reading")
                .hasMessageContaining("(sessionj.tcp.frameTimeout, sessionj.tcp.frameMinRate)")
                .hasMessageContaining("http from ");
        assertThat(reportedSeconds(failure)).as("not before its deadline, by the server's own clock").isGreaterThanOrEqualTo(0.3);
        await(() -> rules.used() == 0, "the frame's bytes released");
        Raw next = new Raw(acceptor);
        next.upload(new byte[] {0, 0, 0, 1, 9});
        ByteBuf got = next.accepted.read(20 * SECOND);
        assertThat(got.readableBytes()).as("the server serves on").isEqualTo(1);
        got.release();
    }

    /**
     * Through the relay: the server's end of a relayed connection assembles the frames it downloads, and
     * a requester that trickles a frame through the relay (a byte per upload, so that it never vanishes)
     * fails that end at the frame's deadline.
     */
    @Test
    void aFrameTrickledThroughTheRelayFailsTheServersEndAtItsDeadline() throws Exception {
        HttpRelay relay = HttpRelay.start(new InetSocketAddress("localhost", 0), null, SETTINGS, RelayLimits.defaults());
        closing.add(relay::close);
        HttpTransport transport = new HttpTransport(TestConfigs.of("sessionj.http.relay", "localhost:" + relay.port(),
                "sessionj.http.websocket", "false", "sessionj.http.pollMillis", "500",
                "sessionj.tcp.frameTimeout", "300ms", "sessionj.tcp.frameMinRate", String.valueOf(1 << 30)));
        ConnectionAcceptor acceptor = transport.listen(0);
        closing.add(0, acceptor);
        RawHttp http = new RawHttp(relay.port(), 10_000);
        closing.add(http);
        RawHttp.Response opened = http.exchange("POST", Wire.CONNECT + "?target=localhost:" + acceptor.port());
        assertThat(opened.status()).isEqualTo(200);
        String token = opened.body().strip();
        byte[] start = ByteBuffer.allocate(4 + 1000).putInt(1 << 20).array();
        assertThat(http.exchange("POST", Wire.sessionPath(token, "up") + "?offset=0", start).status()).isEqualTo(204);
        Connection server = acceptor.accept(10 * SECOND);
        closing.add(0, server);
        Thread trickle = Thread.ofVirtual().start(() -> {
            try (RawHttp more = new RawHttp(relay.port(), 10_000)) {
                for (long offset = start.length; !Thread.currentThread().isInterrupted(); offset++) {
                    if (more.exchange("POST", Wire.sessionPath(token, "up") + "?offset=" + offset, new byte[1]).status() != 204) {
                        return; // the server's end is gone
                    }
                    Thread.sleep(50); // the hostile peer's pace, not a synchronisation
                }
            } catch (IOException | InterruptedException e) {
                // done
            }
        });
        try {
            assertThatThrownBy(() -> server.read(20 * SECOND)).isInstanceOf(IOException.class)
                    .hasMessageContaining("unfinished frame from the peer: ")
                    .hasMessageContaining("of its 1048576 bytes arrived in ")
                    .hasMessageContaining("(sessionj.tcp.frameTimeout, sessionj.tcp.frameMinRate)")
                    .hasMessageContaining("via relay");
        } finally {
            trickle.interrupt();
        }
    }

    /** The seconds of reading a deadline failure reports ("... arrived in 0.301 s; ..."). */
    private static double reportedSeconds(Throwable failure) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("arrived in ([0-9.]+) s;").matcher(failure.getMessage());
        assertThat(m.find()).as(failure.getMessage()).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
