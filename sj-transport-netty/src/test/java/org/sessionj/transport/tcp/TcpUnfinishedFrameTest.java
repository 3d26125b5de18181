package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.netty.buffer.ByteBuf;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.NettySettings;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Peers that start large frames and never finish them (the hostile-peer pass's trickling peers: all
 * but a few bytes of a large frame, then a byte now and then), over tcp with event loops and with
 * blocking sockets (tls shares the event-loop decoder): a budget the test sets for all unfinished
 * frames holds, the oldest unfinished frame is given up for a newer one, an honest client's large
 * frame is served next to them, and a frame that misses its deadline fails its connection, each
 * with a reason naming the rule, the peer and the figures.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpUnfinishedFrameTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final int KIB = 1024;

    private static TcpTransport transport(TcpTransport.IoMode mode, UnfinishedFrames rules) {
        return new TcpTransport(NettySettings.fromSystemProperties().withUnfinishedFrames(rules), mode);
    }

    /** A raw peer that sends a header claiming {@code length} and {@code sent} bytes of it. */
    private Socket startFrame(int port, int length, int sent) throws IOException {
        Socket raw = track(new Socket("localhost", port));
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        out.writeInt(length);
        out.write(new byte[sent]);
        out.flush();
        return raw;
    }

    /** Reads on {@code accepted} (briefly: the blocking mode reads only then) until {@code rules} hold at least {@code bytes}. */
    private static void readUntilHeld(Connection accepted, UnfinishedFrames rules, long bytes) throws IOException {
        long deadline = System.nanoTime() + 20 * SECOND;
        while (rules.used() < bytes) {
            assertThat(accepted.read(TimeUnit.MILLISECONDS.toNanos(20))).as("the frame is not all there").isNull();
            assertThat(System.nanoTime()).as("%d bytes held in unfinished frames, waiting for %d", rules.used(), bytes)
                    .isLessThan(deadline);
        }
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void tricklingPeersHoldNoMoreThanTheBudgetAndAnHonestLargeFrameIsServedNextToThem(TcpTransport.IoMode mode)
            throws Exception {
        // 1.5 MiB for all unfinished frames: three tricklers of 400 KiB fit (blocking mode counts its 512 KiB buffers).
        UnfinishedFrames rules = new UnfinishedFrames(1536 * KIB, Duration.ofSeconds(30), 64 * KIB);
        TcpTransport transport = transport(mode, rules);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        List<Connection> tricklers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            startFrame(acceptor.port(), 8 << 20, 400 * KIB);
            Connection accepted = track(acceptor.accept(10 * SECOND));
            tricklers.add(accepted);
            if (i < 3) {
                readUntilHeld(accepted, rules, (i + 1) * 400L * KIB);
                assertThat(rules.count()).isEqualTo(i + 1);
            }
        }
        // The fourth does not fit: the oldest unfinished frame (the first trickler's) is given up for it.
        assertThatThrownBy(() -> {
            for (int i = 0; i < 1000; i++) {
                tricklers.get(3).read(TimeUnit.MILLISECONDS.toNanos(20));
                tricklers.get(0).read(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }).isInstanceOf(IOException.class)
                .hasMessageContaining("unfinished frame from the peer given up: it held")
                .hasMessageContaining("(of a frame of 8388608)")
                .hasMessageContaining("budget of 1572864 bytes for unfinished frames (sessionj.tcp.unfinishedFrameBytes)")
                .hasMessageContaining("tcp ");
        assertThat(rules.used()).as("held in unfinished frames").isLessThanOrEqualTo(rules.budgetBytes());

        // An honest client's 1 MiB frame, longer than any one read, makes room by giving up older tricklers.
        Socket honest = track(new Socket("localhost", acceptor.port()));
        Connection served = track(acceptor.accept(10 * SECOND));
        byte[] body = new byte[1 << 20];
        Arrays.fill(body, (byte) 7);
        DataOutputStream out = new DataOutputStream(honest.getOutputStream());
        out.writeInt(body.length);
        out.write(body);
        out.flush();
        ByteBuf frame = served.read(10 * SECOND);
        try {
            assertThat(frame).isNotNull();
            assertThat(frame.readableBytes()).isEqualTo(body.length);
            assertThat(frame.getByte(body.length - 1)).isEqualTo((byte) 7);
        } finally {
            frame.release();
        }
        assertThat(rules.used()).isLessThanOrEqualTo(rules.budgetBytes());
        for (Connection c : tricklers) {
            c.close();
        }
        served.close();
        long deadline = System.nanoTime() + 20 * SECOND;
        while (rules.used() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // closing on the event loop releases the frames' bytes
        }
        assertThat(rules.used()).as("nothing held once the connections are closed").isZero();
        assertThat(rules.count()).isZero();
    }

    @ParameterizedTest
    @EnumSource(TcpTransport.IoMode.class)
    void aFrameTrickledAByteAtATimeFailsItsConnectionAtItsDeadline(TcpTransport.IoMode mode) throws Exception {
        // 300 ms for any frame (the rate is high enough never to lengthen it).
        UnfinishedFrames rules = new UnfinishedFrames(64 << 20, Duration.ofMillis(300), 1L << 30);
        TcpTransport transport = transport(mode, rules);
        ConnectionAcceptor acceptor = track(transport.listen(0));
        Socket raw = startFrame(acceptor.port(), 1 << 20, 100 * KIB);
        Connection accepted = track(acceptor.accept(10 * SECOND));
        Thread trickle = Thread.ofVirtual().start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    raw.getOutputStream().write(0); // a byte at a time: the heartbeat timeout never fires
                    raw.getOutputStream().flush();
                    Thread.sleep(20); // the hostile peer's pace, not a synchronisation
                }
            } catch (IOException | InterruptedException e) {
                // the server closed the connection
            }
        });
        try {
            IOException failure = catchThrowableOfType(IOException.class, () -> accepted.read(20 * SECOND));
            assertThat(failure)
                    .hasMessageContaining("unfinished frame from the peer: ")
                    .hasMessageContaining("of its 1048576 bytes arrived in ")
                    .hasMessageContaining("max(0.3 s, its length at 1073741824 bytes/s) = 0.3 s of reading")
                    .hasMessageContaining("(sessionj.tcp.frameTimeout, sessionj.tcp.frameMinRate)")
                    .hasMessageContaining("tcp ");
            assertThat(reportedSeconds(failure)).as("not before its deadline, by the server's own clock").isGreaterThanOrEqualTo(0.3);
        } finally {
            trickle.interrupt();
        }
        long deadline = System.nanoTime() + 20 * SECOND;
        while (rules.used() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(rules.used()).isZero();
    }

    /** The seconds of reading a deadline failure reports ("... arrived in 0.301 s; ..."). */
    private static double reportedSeconds(Throwable failure) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("arrived in ([0-9.]+) s;").matcher(failure.getMessage());
        assertThat(m.find()).as(failure.getMessage()).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
