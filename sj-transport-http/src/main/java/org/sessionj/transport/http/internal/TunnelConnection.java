package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.Connection;

/**
 * The client end of a tunnelled connection: a requester's (direct or through the relay), or a server's
 * end of a relayed connection (the server is the relay's client too). Frames written go into a
 * bounded outbound {@link ByteStream} behind 4-byte lengths, uploaded by the {@link Link}; the bytes
 * downloaded are cut into frames for the reader. The link is a WebSocket when the path allows the
 * upgrade, else a pair of kept-alive HTTP connections (uploads, long polls).
 */
public final class TunnelConnection extends StreamConnection {
    private static final System.Logger LOG = System.getLogger(TunnelConnection.class.getName());
    private static final long CLOSE_WAIT_MILLIS = 10_000;
    /** How much longer than a request's own timeout {@link #await} waits for it to fail by itself. */
    private static final long AWAIT_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long UPGRADE_MEMORY_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Endpoints whose path refused a WebSocket upgrade lately: long polling at once. */
    private static final Map<String, Long> NO_UPGRADE = new ConcurrentHashMap<>();

    private final Endpoint endpoint;
    private final String token;
    /** Where the peer's connection came from, as a relay that holds this server's listen key vouched; or null. */
    private final InetAddress peer;
    final ByteStream out;
    final FrameAssembler assembler;
    private volatile Link link;
    /** An unfinished frame from the peer failed the connection and stopped its link: a close waits for nothing. */
    private volatile boolean broken;
    private volatile String description;

    /** How a tunnelled connection moves its bytes. */
    interface Link {
        /** Starts moving bytes both ways. */
        void start();

        /** Outbound bytes (or the end) may be waiting. */
        void upReady();

        /** The reader consumed bytes: downloading may resume. */
        void downResume();

        /** Completes once the outbound end (fin) has been delivered, or exceptionally if it cannot be. */
        CompletableFuture<Void> upDone();

        /** Stops moving bytes and closes the channels. */
        void close();

        /** {@code "websocket"} or {@code "long-poll"}. */
        String mode();

        /** The reader waits for input (see {@link StreamConnection#readerWaiting}); on the reader's thread. */
        default void readerWaiting() {
        }

        /** The writer flushed; on the writer's thread. */
        default void flushed() {
        }

        /** The writer waits for room; on the writer's thread. */
        default void writerWaiting() {
        }
    }

    private TunnelConnection(String transportName, Endpoint endpoint, String token, String via, InetAddress peer) {
        super(transportName, endpoint.settings());
        this.endpoint = endpoint;
        this.token = token;
        this.peer = peer;
        this.out = new ByteStream(settings.streamBytes(), Budget.unlimited());
        this.assembler = newAssembler();
        this.description = transportName + " " + via;
    }

    /**
     * Opens a connection by POSTing to {@code openUri} on {@code endpoint} (a direct server's open, or
     * the relay's connect), which answers the connection's token; then attaches to it.
     *
     * @param via names the path in messages ("to host:port", "via relay r for host:port")
     */
    public static TunnelConnection open(String transportName, Endpoint endpoint, String openUri, String via,
            long timeoutNanos) throws IOException {
        long deadline = System.nanoTime() + timeoutNanos;
        HttpClientChannel control = new HttpClientChannel(endpoint);
        String token;
        int wire;
        try {
            FullHttpResponse response = await(control.send(control.request(HttpMethod.POST, openUri, null),
                    millis(timeoutNanos)), timeoutNanos, endpoint);
            try {
                String body = response.content().toString(StandardCharsets.UTF_8).strip();
                if (response.status().code() != 200 || !Wire.isToken(body)) {
                    throw new IOException("cannot open an " + transportName + " connection " + via + ": " + endpoint
                            + " answered " + response.status() + (body.isEmpty() ? "" : ": " + abbreviate(body)));
                }
                token = body;
                wire = Wire.versionOf(response);
            } finally {
                response.release();
            }
        } catch (IOException e) {
            control.close();
            throw e;
        }
        return attach(transportName, endpoint, token, via, control, wire, Math.max(1, deadline - System.nanoTime()));
    }

    /**
     * Attaches to the existing connection {@code token} on {@code endpoint} (a server taking a relayed
     * connection), reusing {@code control} for uploads if not null; {@code wire} is the wire version the
     * server named ({@link Wire#versionOf}).
     */
    public static TunnelConnection attach(String transportName, Endpoint endpoint, String token, String via,
            HttpClientChannel control, int wire, long timeoutNanos) throws IOException {
        return attach(transportName, endpoint, token, via, control, wire, timeoutNanos, null);
    }

    /**
     * As {@link #attach(String, Endpoint, String, String, HttpClientChannel, int, long)}, for a relayed connection
     * whose requester the relay vouched came from {@code peer} (null: unknown), which {@link #peerAddress()} names.
     */
    static TunnelConnection attach(String transportName, Endpoint endpoint, String token, String via,
            HttpClientChannel control, int wire, long timeoutNanos, InetAddress peer) throws IOException {
        TunnelConnection connection = new TunnelConnection(transportName, endpoint, token, via, peer);
        Link link = null;
        HttpSettings settings = endpoint.settings();
        String key = endpoint.authority();
        Long refused = NO_UPGRADE.get(key);
        if (settings.websocket() && (refused == null || System.nanoTime() - refused > UPGRADE_MEMORY_NANOS)) {
            try {
                link = WebSocketLink.connect(connection, endpoint, token, timeoutNanos);
                NO_UPGRADE.remove(key);
            } catch (IOException e) {
                NO_UPGRADE.put(key, System.nanoTime());
                LOG.log(System.Logger.Level.DEBUG, "no WebSocket through {0} ({1}); using long polling", endpoint,
                        e.getMessage());
            }
        }
        if (link == null) {
            HttpClientChannel up = control != null ? control : new HttpClientChannel(endpoint);
            // Both channels on one loop: an upload's answer and a poll's are handled by one thread.
            link = new LongPollLink(connection, up, new HttpClientChannel(endpoint, up.loop()), token, settings,
                    wire >= 2 && settings.uploadAnswers());
        } else if (control != null) {
            control.close();
        }
        connection.link = link;
        connection.description = connection.description + " (" + link.mode() + ")";
        link.start();
        return connection;
    }

    /**
     * The answer {@code future} completes with, waiting at most {@code timeoutNanos} and a quarter second; every failure as an
     * {@link IOException} naming {@code endpoint}.
     */
    public static FullHttpResponse await(CompletableFuture<FullHttpResponse> future, long timeoutNanos, Endpoint endpoint)
            throws IOException {
        try {
            // A little past the request's own deadline (the same timeout, set on the channel's loop), which
            // fails it naming the step that stalled (connect, TLS handshake, answer) and closes its connection.
            return future.get(timeoutNanos + AWAIT_GRACE_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + endpoint);
        } catch (TimeoutException e) {
            throw new IOException("timed out waiting for " + endpoint);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? new IOException(io.getMessage(), io)
                    : new IOException(String.valueOf(cause), cause);
        }
    }

    static long millis(long nanos) {
        return nanos < 0 ? 30_000 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    static String abbreviate(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /**
     * On a server's end of a relayed connection, the address the requester's connection came from as the relay
     * saw it, when the relay vouched for it under this server's listen key ({@code sessionj.http.relayKeyFile});
     * else null (a requester's end: its peer is behind the relay). No system call.
     */
    @Override
    public InetAddress peerAddress() {
        return peer;
    }

    /** The link in use: {@code "websocket"} or {@code "long-poll"}. */
    public String mode() {
        return link.mode();
    }

    // ---- reading (link side) -----------------------------------------------------------------

    /** Link: downloaded bytes (taken over); false if they broke the framing (the connection failed). */
    boolean received(ByteBuf bytes) {
        try {
            assembler.feed(bytes, deliverer);
            return true;
        } catch (IOException e) {
            failed(e.getMessage());
            return false;
        }
    }

    /** Link: whether downloading should pause (the reader is behind). */
    boolean readerBehind() {
        boolean behind = inboundBytes.get() > settings.streamBytes();
        if (behind) {
            readerBehind(true); // until the reader catches up (readerCaughtUp)
        }
        return behind;
    }

    @Override
    void unfinishedFrameFailed(String reason) {
        broken = true;
        failed(reason);
        Link l = link;
        if (l != null) {
            l.close();
        }
    }

    /** Link: the peer's stream ended normally. */
    void ended() {
        if (assembler.partialBytes() > 0) {
            failInbound("the peer closed in the middle of a frame");
        } else {
            inbound.end();
        }
    }

    /** Link: the connection broke. */
    void failed(String reason) {
        failInbound(reason);
        out.closeReader(reason);
    }

    // ---- Connection --------------------------------------------------------------------------

    @Override
    ByteStream outbound() {
        return out;
    }

    @Override
    void readerWaiting() {
        Link l = link;
        if (l != null) {
            l.readerWaiting();
        }
    }

    @Override
    void flushed() {
        Link l = link;
        if (l != null) {
            l.flushed();
        }
    }

    @Override
    void writerWaiting() {
        Link l = link;
        if (l != null) {
            l.writerWaiting();
        }
    }

    /** The long-polling link, or null when a WebSocket carries the connection (for tests). */
    LongPollLink longPollLink() {
        return link instanceof LongPollLink poll ? poll : null;
    }

    /** The WebSocket link, or null when long polling carries the connection (for tests). */
    WebSocketLink webSocketLink() {
        return link instanceof WebSocketLink ws ? ws : null;
    }

    /** Whether uploads are answered with downloaded bytes (long polling on wire 2), for tests. */
    boolean uploadAnswers() {
        return link instanceof LongPollLink poll && poll.uploadAnswers();
    }

    @Override
    void readerCaughtUp() {
        readerBehind(false);
        Link l = link;
        if (l != null) {
            l.downResume();
        }
    }

    /**
     * Sends what is still buffered and the end, waits (at most ten seconds) until they are delivered
     * so that the process may exit right after, then closes the channels.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        inbound.close();
        out.finish();
        Link l = link;
        if (l == null) {
            return;
        }
        if (broken) {
            l.close();
            out.dispose();
            return;
        }
        l.upReady();
        try {
            l.upDone().get(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing {0}: the end was not delivered ({1})", this, e.getMessage());
        } finally {
            l.close();
            out.dispose();
        }
    }

    /** The connection's token (for logs and tests). */
    String token() {
        return token;
    }

    @Override
    public String toString() {
        return description;
    }
}
