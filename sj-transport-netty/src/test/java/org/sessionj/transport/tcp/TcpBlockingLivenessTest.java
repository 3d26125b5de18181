package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.WriteTimeoutException;
import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.testing.ConnectionTestSupport;
import org.sessionj.transport.netty.internal.HeartbeatCount;
import org.sessionj.transport.netty.internal.NettySettings;

/**
 * Blocking TCP ({@code sessionj.tcp.io=blocking}) has the event-loop path's liveness: heartbeats
 * written by the runtime when the program writes nothing, a read that hears nothing for the timeout
 * fails, heartbeats from either kind of peer are dropped, and a write the peer does not take fails
 * after the send timeout. No test here needs a thread to be scheduled within some span: what must stay
 * up has a timeout out of reach, what must fail is waited for.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpBlockingLivenessTest extends ConnectionTestSupport {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** For a peer that must be found dead: waited for as an event, with a generous bound. */
    private static final Heartbeat FAST = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MILLISECONDS.toNanos(600));
    /**
     * For connections that must stay up: frequent heartbeats, and a timeout no stall of a loaded
     * machine reaches (that heartbeats reset the timeout is shown on a test clock: HeartbeatsTest,
     * BlockingKeeperTest).
     */
    static final Heartbeat LIVELY = new Heartbeat(TimeUnit.MILLISECONDS.toNanos(20), TimeUnit.SECONDS.toNanos(120));

    private static TcpTransport blocking(Heartbeat heartbeat) {
        return new TcpTransport(NettySettings.fromSystemProperties().withHeartbeat(heartbeat), TcpTransport.IoMode.BLOCKING);
    }

    private static TcpTransport eventLoop(Heartbeat heartbeat) {
        return new TcpTransport(NettySettings.fromSystemProperties().withHeartbeat(heartbeat), TcpTransport.IoMode.EVENT_LOOP);
    }

    /**
     * Waits (reading, and finding no frame) until {@code end} has received {@code count} heartbeats:
     * an event, however long a loaded machine takes to send them.
     */
    static void awaitHeartbeats(Connection end, int count) throws IOException {
        HeartbeatCount counted = (HeartbeatCount) end;
        while (counted.heartbeatsReceived() < count) {
            assertThat(end.read(TimeUnit.MILLISECONDS.toNanos(20))).as("heartbeats are not delivered as frames").isNull();
        }
    }

    private void idleThenData(TcpTransport accepting, TcpTransport requesting) throws IOException {
        ConnectionAcceptor acceptor = track(accepting.listen(0));
        Connection requester = track(requesting.connect("localhost", acceptor.port(), 10 * SECOND));
        Connection accepter = track(acceptor.accept(10 * SECOND));
        // Neither program writes: the runtimes' heartbeats flow both ways and are dropped.
        awaitHeartbeats(accepter, 5);
        awaitHeartbeats(requester, 5);
        requester.write(requester.alloc().buffer().writeInt(42));
        requester.flush();
        ByteBuf frame = accepter.read(10 * SECOND);
        try {
            assertThat(frame.readInt()).isEqualTo(42);
        } finally {
            frame.release();
        }
        accepter.write(accepter.alloc().buffer().writeInt(43));
        accepter.flush();
        frame = requester.read(10 * SECOND);
        try {
            assertThat(frame.readInt()).as("heartbeats in front of it were dropped").isEqualTo(43);
        } finally {
            frame.release();
        }
    }

    @Test
    void heartbeatsFlowBetweenIdleBlockingEndsAndAreNeverDelivered() throws IOException {
        idleThenData(blocking(LIVELY), blocking(LIVELY));
    }

    @Test
    void aBlockingEndAndAnEventLoopEndUnderstandEachOthersHeartbeats() throws IOException {
        idleThenData(blocking(LIVELY), eventLoop(LIVELY));
        idleThenData(eventLoop(LIVELY), blocking(LIVELY));
    }

    @Test
    void aPeerThatSendsNothingNotEvenHeartbeatsFailsABlockedReadWithinTheTimeoutAndIsSentHeartbeats() throws Exception {
        ConnectionAcceptor acceptor = track(blocking(FAST).listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        long started = System.nanoTime();
        assertThatThrownBy(() -> accepted.read(20 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageContaining("no data and no heartbeat from the peer for PT0.6S")
                .hasMessageContaining("sessionj.heartbeat.timeout");
        long waited = System.nanoTime() - started;
        assertThat(waited).as("about the timeout").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(600))
                .isLessThan(10 * SECOND);
        DataInputStream in = new DataInputStream(raw.getInputStream());
        assertThat(in.readInt()).as("the raw peer was sent heartbeats by the runtime: a header of length -1")
                .isEqualTo(-1);
    }

    @Test
    void anUntimedReadIsBoundedByTheHeartbeatTimeoutToo() throws Exception {
        ConnectionAcceptor acceptor = track(blocking(FAST).listen(0));
        Socket raw = track(new Socket("localhost", acceptor.port()));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        out.writeInt(-1); // one heartbeat, then silence
        out.flush();
        assertThatThrownBy(() -> accepted.read(-1)).isInstanceOf(IOException.class)
                .hasMessageContaining("no data and no heartbeat");
    }

    @Test
    void withHeartbeatsOffAQuietPeerIsWaitedFor() throws Exception {
        ConnectionAcceptor acceptor = track(blocking(Heartbeat.OFF).listen(0));
        track(new Socket("localhost", acceptor.port()));
        Connection accepted = track(acceptor.accept(10 * SECOND));
        assertThat(accepted.read(TimeUnit.MILLISECONDS.toNanos(1500))).isNull();
    }

    @Test
    void aWriteThePeerDoesNotTakeFailsAfterTheSendTimeoutAndClosesTheConnection() throws Exception {
        for (Heartbeat heartbeat : new Heartbeat[] {FAST, Heartbeat.OFF}) {
            ConnectionAcceptor acceptor = track(blocking(heartbeat).listen(0));
            Socket raw = track(new Socket("localhost", acceptor.port())); // never reads
            Connection writer = track(acceptor.accept(10 * SECOND));
            writer.sendTimeout(TimeUnit.MILLISECONDS.toNanos(300));
            byte[] chunk = new byte[64 * 1024];
            long sent = 0;
            long started = System.nanoTime();
            IOException failure = null;
            try {
                while (sent < 1L << 30) {
                    writer.write(writer.alloc().buffer(chunk.length).writeBytes(chunk));
                    writer.flush();
                    sent += chunk.length;
                }
            } catch (IOException e) {
                failure = e;
            }
            assertThat(failure).as("heartbeat %s, after %d bytes", heartbeat, sent).isInstanceOf(WriteTimeoutException.class)
                    .hasMessageContaining("took nothing for PT0.3S");
            assertThat(System.nanoTime() - started).isLessThan(20 * SECOND);
            assertThatThrownBy(() -> {
                writer.write(writer.alloc().buffer(4).writeInt(1));
                writer.flush();
            }).as("the connection is closed").isInstanceOf(IOException.class);
            raw.close();
        }
    }
}
