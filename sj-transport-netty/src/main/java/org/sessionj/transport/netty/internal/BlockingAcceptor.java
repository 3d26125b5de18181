package org.sessionj.transport.netty.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A listening TCP socket whose connections are {@link BlockingConnection}s. A virtual thread
 * accepts in a loop and queues them, so that {@link #accept} may wait with a timeout and from
 * several threads at once (the accept itself is not on a session's round trip).
 */
final class BlockingAcceptor extends QueuedAcceptor {
    private static final System.Logger LOG = System.getLogger(BlockingAcceptor.class.getName());
    /** The pause after an accept failed while the port stayed open (Netty's acceptor also waits 1 s). */
    private static final long RETRY_MILLIS = 1_000;

    private final ServerSocketChannel server;
    private final NettySettings settings;
    /** Heartbeats to the accepted connections that have no whole frame yet (and so no keeper of their own). */
    private final PendingHeartbeats heartbeats;

    private BlockingAcceptor(ServerSocketChannel server, String transportName, NettySettings settings) throws IOException {
        super(transportName);
        this.server = server;
        this.settings = settings;
        bound(((InetSocketAddress) server.getLocalAddress()).getPort());
        this.heartbeats = new PendingHeartbeats(settings.heartbeat(), transportName + "-" + port());
    }

    /**
     * Listens on {@code port} (0: any free port) on the address {@code sessionj.bindAddress} names, by
     * default every interface.
     */
    static BlockingAcceptor listen(int port, String transportName, NettySettings settings) throws IOException {
        InetSocketAddress local = TcpAddresses.listening(port, transportName);
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(local, io.netty.util.NetUtil.SOMAXCONN); // the kernel's limit: see NettyTransportSupport.listen
        } catch (IOException e) {
            server.close();
            throw LocalPorts.listenFailure("cannot listen on TCP port " + port + " (" + transportName + "): "
                    + e.getMessage(), e);
        }
        BlockingAcceptor acceptor = new BlockingAcceptor(server, transportName, settings);
        Thread.ofVirtual().name("sj-" + transportName + "-accept-" + acceptor.port()).start(acceptor::acceptLoop);
        return acceptor;
    }

    private void acceptLoop() {
        while (!isClosed()) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                if (isClosed()) {
                    return;
                }
                if (!server.isOpen()) {
                    LOG.log(System.Logger.Level.WARNING, "accepting on " + transportName() + " port " + port()
                            + " failed; the port is closed", e);
                    close();
                    return;
                }
                // The listening socket is still open: out of file descriptors (EMFILE, ENFILE) or another
                // failure of this one accept. Closing the port for it would leave the server deaf for good
                // once descriptors come back; pause instead (as Netty's acceptor does), while the next peers
                // wait in the kernel's backlog, and accept again.
                LOG.log(System.Logger.Level.WARNING, "accepting on " + transportName() + " port " + port()
                        + " failed (" + e.getMessage() + "); trying again in " + RETRY_MILLIS + " ms", e);
                try {
                    Thread.sleep(RETRY_MILLIS);
                } catch (InterruptedException interrupted) {
                    return;
                }
                continue;
            } catch (RuntimeException | Error e) {
                pauseAfter(e); // not the end of the port (hostile H5): see below
                continue;
            }
            try {
                // No keeper of its own until its first whole frame (PendingHeartbeats): a requester waiting in the
                // queue hears heartbeats (as from an event loop), or it would take the server for gone while a
                // slowloris fills the handshakes ahead of it, but a stalled connection costs no thread for it.
                BlockingConnection connection = new BlockingConnection(channel, transportName(), settings);
                heartbeats.add(connection);
                if (enqueue(connection)) {
                    // Accept no more until half are taken: the next peers wait in the kernel's backlog.
                    java.util.concurrent.CountDownLatch room = new java.util.concurrent.CountDownLatch(1);
                    whenRoom(room::countDown);
                    room.await();
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException | Error e) {
                // The peer went away before we could look at the socket (IOException), or the JVM could not make
                // the connection (an OutOfMemoryError while a flood fills the heap): drop this one and go on. The
                // loop is the port's only way in; ended by an Error, the port accepted in the kernel and answered
                // no one, for good (hostile H5).
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // closed anyway
                }
                if (!(e instanceof IOException)) {
                    pauseAfter(e);
                }
            }
        }
    }

    /** Logs an unexpected failure of the accept loop (at most the message: the heap may be full) and pauses. */
    private void pauseAfter(Throwable e) {
        try {
            LOG.log(System.Logger.Level.WARNING, "accepting on " + transportName() + " port " + port() + " failed ("
                    + e + "); dropped that connection, accepting again in " + RETRY_MILLIS + " ms");
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (Throwable stillFailing) {
            // logging itself failed (no heap): go on without a word
        }
    }

    @Override
    Release closeSocket() {
        heartbeats.close();
        try {
            server.close();
        } catch (IOException e) {
            // closed anyway
        }
        // A thread blocked in accept defers the socket's final close until it has left the call;
        // wait for it, so that a later listen or canReach sees the port free.
        return Release.AWAIT;
    }
}
