package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.runtime.spi.Connection;

/**
 * What a blocking-tcp connection holds before its requester has said anything (a slowloris opens
 * thousands that send a byte and stall; the server keeps up to 4,096 queued and 4,096 in handshakes):
 * no buffers while it waits in the acceptor's queue, a small input buffer while its first frame has not
 * all come, the usual buffers once it has; its keeper runs from the start, so that a real requester
 * waiting behind a slowloris hears heartbeats. Before, each held an 8 KiB input and an 8 KiB output
 * buffer from the moment it was accepted, and a server with a 128 MiB heap died of a 10,000-connection
 * flood ({@code HostileFaultTest}, fault suite, blocking run).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingPendingConnectionTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final NettySettings settings = NettySettings.fromSystemProperties();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** A connected pair: the raw peer, and this side's end as a blocking acceptor makes it. */
    private BlockingConnection acceptedFrom(Socket[] peer) throws Exception {
        ServerSocketChannel server = track(ServerSocketChannel.open());
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        peer[0] = track(new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort()));
        SocketChannel accepted = server.accept();
        BlockingConnection connection = new BlockingConnection(accepted, "tcp", settings);
        opened.add(connection::close);
        return connection;
    }

    @Test
    void anAcceptedConnectionHoldsNoBuffersUntilItIsReadAndASmallOneForAStalledGreeting() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer).start();
        assertThat(connection.bufferBytes()).as("buffers before anyone reads or writes").isZero();

        peer[0].getOutputStream().write(0); // one byte of a header, then nothing
        assertThat(connection.read(TimeUnit.MILLISECONDS.toNanos(50))).isNull();
        assertThat(connection.bufferBytes()).as("what one byte of a greeting costs")
                .isEqualTo(BlockingInput.GREETING_BUFFER);
    }

    /** Its peer's address, read once at the accept (the pending-limit drop asks it of every handshake). */
    @Test
    void anAcceptedConnectionNamesItsPeersAddress() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer);
        assertThat(connection.peerAddress()).isEqualTo(peer[0].getLocalAddress());
    }

    @Test
    void whatTheRequesterSentCountsWhatWasReadAndNothingOnceClosed() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer).start();
        assertThat(connection.receivedBytes()).isZero();
        peer[0].getOutputStream().write(new byte[3]); // three bytes of a header
        assertThat(connection.read(TimeUnit.MILLISECONDS.toNanos(50))).isNull();
        assertThat(connection.receivedBytes()).isEqualTo(3);
        connection.close();
        assertThat(connection.receivedBytes()).as("closed: nothing to judge by").isEqualTo(-1);
    }

    /**
     * Heartbeats read are not what a requester sent (as on the event-loop path): a slowloris that sends
     * only heartbeats counts as silent, so a server at its pending limit sheds its handshake like any
     * stalled one. Before, blocking tcp counted them, and such a requester was never taken for stalled.
     */
    @Test
    void heartbeatsReadAreNotCountedAsWhatTheRequesterSent() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer).start();
        byte[] heartbeats = new byte[3 * FrameDecoder.HEADER_BYTES];
        java.util.Arrays.fill(heartbeats, (byte) -1); // three headers of length -1: heartbeats
        peer[0].getOutputStream().write(heartbeats);
        assertThat(connection.read(TimeUnit.MILLISECONDS.toNanos(50))).isNull();
        assertThat(connection.heartbeatsReceived()).isEqualTo(3);
        assertThat(connection.receivedBytes()).as("three heartbeats and nothing else").isZero();
        peer[0].getOutputStream().write(new byte[2]); // then two bytes of a real header
        assertThat(connection.read(TimeUnit.MILLISECONDS.toNanos(50))).isNull();
        assertThat(connection.receivedBytes()).isEqualTo(2);
    }

    @Test
    void aGreetingLargerThanTheFirstBufferGrowsItAndAfterItTheBuffersAreTheSessions() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer).start();
        DataOutputStream out = new DataOutputStream(peer[0].getOutputStream());
        byte[] hello = new byte[3 * BlockingInput.GREETING_BUFFER];
        hello[hello.length - 1] = 42;
        out.writeInt(hello.length);
        out.write(hello);
        out.flush();
        ByteBuf frame = connection.read(10 * SECOND);
        try {
            assertThat(frame.readableBytes()).isEqualTo(hello.length);
            assertThat(frame.getByte(hello.length - 1)).isEqualTo((byte) 42);
        } finally {
            frame.release();
        }
        assertThat(connection.bufferBytes()).as("the input buffer once greeted, no output yet")
                .isEqualTo(BlockingInput.STEADY_BUFFER);

        connection.write(connection.alloc().buffer(4).writeInt(7));
        connection.flush();
        assertThat(new java.io.DataInputStream(peer[0].getInputStream()).readLong()).isEqualTo((4L << 32) | 7);
        assertThat(connection.bufferBytes()).isEqualTo(BlockingInput.STEADY_BUFFER + BlockingOutput.INITIAL_BUFFER);
    }

    /**
     * An accepted connection has no keeper thread of its own (and no buffers) until its requester's first
     * whole frame; meanwhile the acceptor's one heartbeat thread writes its heartbeats, so a requester
     * waiting in the queue behind a slowloris hears the server is alive. Before, each accepted connection
     * started a keeper at once, and that keeper a virtual thread per heartbeat: ~4 threads per stalled
     * connection of a flood.
     */
    @Test
    void anAcceptedConnectionHearsTheAcceptorsHeartbeatsAndHasItsOwnKeeperOnlyFromItsFirstFrame() throws Exception {
        NettySettings fast = settings.withHeartbeat(new org.sessionj.runtime.spi.support.Heartbeat(
                TimeUnit.MILLISECONDS.toNanos(50), TimeUnit.SECONDS.toNanos(10)));
        BlockingAcceptor acceptor = track(BlockingAcceptor.listen(0, "tcp", fast));
        Socket requester = track(new Socket(InetAddress.getLoopbackAddress(), acceptor.port()));
        BlockingConnection accepted = (BlockingConnection) acceptor.accept(10 * SECOND);
        opened.add(accepted::close);
        assertThat(accepted.keeperStarted()).as("no keeper thread while it has sent no frame").isFalse();
        assertThat(accepted.bufferBytes()).isZero();
        requester.setSoTimeout(10_000);
        java.io.DataInputStream in = new java.io.DataInputStream(requester.getInputStream());
        for (int i = 0; i < 3; i++) {
            assertThat(in.readInt()).as("heartbeat %d to the waiting requester", i).isEqualTo(FrameDecoder.HEARTBEAT);
        }
        assertThat(accepted.keeperStarted()).isFalse();
        DataOutputStream out = new DataOutputStream(requester.getOutputStream());
        out.writeInt(1);
        out.writeByte(9);
        out.flush();
        ByteBuf frame = accepted.read(10 * SECOND);
        frame.release();
        assertThat(accepted.keeperStarted()).as("its own keeper from its first frame").isTrue();
        // Its keeper writes the heartbeats now; the acceptor's thread lets it go at its next round.
        for (int i = 0; i < 3; i++) {
            assertThat(in.readInt()).isEqualTo(FrameDecoder.HEARTBEAT);
        }
        int byTheAcceptor = accepted.pendingHeartbeats();
        for (int i = 0; i < 3; i++) {
            assertThat(in.readInt()).isEqualTo(FrameDecoder.HEARTBEAT);
        }
        assertThat(accepted.pendingHeartbeats()).as("none more from the acceptor's thread").isEqualTo(byTheAcceptor);
    }

    /** The acceptor's heartbeats to a connection stop after {@link PendingHeartbeats#MOST} (bounded writes on its one thread). */
    @Test
    void theAcceptorWritesAtMostItsBoundOfHeartbeatsToAConnectionThatNeverSendsAFrame() throws Exception {
        NettySettings fast = settings.withHeartbeat(new org.sessionj.runtime.spi.support.Heartbeat(
                TimeUnit.MILLISECONDS.toNanos(2), TimeUnit.SECONDS.toNanos(10)));
        BlockingAcceptor acceptor = track(BlockingAcceptor.listen(0, "tcp", fast));
        Socket requester = track(new Socket(InetAddress.getLoopbackAddress(), acceptor.port()));
        BlockingConnection accepted = (BlockingConnection) acceptor.accept(10 * SECOND);
        opened.add(accepted::close);
        requester.setSoTimeout(10_000);
        java.io.DataInputStream in = new java.io.DataInputStream(requester.getInputStream());
        for (int i = 0; i < PendingHeartbeats.MOST; i++) {
            assertThat(in.readInt()).isEqualTo(FrameDecoder.HEARTBEAT);
        }
        requester.setSoTimeout(300);
        assertThatThrownBy(in::readInt).as("nothing after the last one").isInstanceOf(java.net.SocketTimeoutException.class);
        assertThat(accepted.pendingHeartbeats()).isEqualTo(PendingHeartbeats.MOST);
    }

    @Test
    void aConnectStartsTheKeeperAtOnce() throws Exception {
        BlockingAcceptor acceptor = track(BlockingAcceptor.listen(0, "tcp", settings));
        Connection requester = new BlockingTcp("tcp", settings).connect("127.0.0.1", acceptor.port(), 10 * SECOND);
        opened.add(requester::close);
        assertThat(((BlockingConnection) requester).keeperStarted()).isTrue();
        assertThat(((BlockingConnection) requester).bufferBytes()).isZero();
    }

    /**
     * hostile H5: a peer that sends part of a large frame and resets the connection. The read fails, the
     * unfinished frame's budget is given back, and the input buffer goes with it at once — before, it stayed
     * reachable through the connection (its keeper, the acceptor's heartbeat queue) after the budget no
     * longer counted it, and churning peers took a 128 MiB server to OutOfMemoryError.
     */
    @Test
    void aConnectionResetMidFrameDropsItsInputBufferWithTheFrame() throws Exception {
        Socket[] peer = new Socket[1];
        BlockingConnection connection = acceptedFrom(peer);
        DataOutputStream out = new DataOutputStream(peer[0].getOutputStream());
        out.writeInt(4);
        out.writeInt(7); // a whole first frame: the connection is greeted
        out.writeInt(8 << 20);
        out.write(new byte[1 << 20]);
        out.flush();
        ByteBuf first = connection.read(10 * SECOND);
        first.release();
        assertThat(connection.read(TimeUnit.MILLISECONDS.toNanos(300))).as("the large frame is not all there").isNull();
        assertThat(connection.bufferBytes()).as("buffering the unfinished frame").isGreaterThanOrEqualTo(1 << 20);
        peer[0].setSoLinger(true, 0);
        peer[0].close(); // a reset
        assertThatThrownBy(() -> connection.read(10 * SECOND)).isInstanceOf(java.io.IOException.class);
        assertThat(connection.bufferBytes()).as("the input buffer went with the failed read")
                .isLessThanOrEqualTo(BlockingOutput.INITIAL_BUFFER); // the output buffer's, if any: no input left
    }
}
