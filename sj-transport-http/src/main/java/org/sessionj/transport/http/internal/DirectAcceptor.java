package org.sessionj.transport.http.internal;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.PendingConnections;

/**
 * A direct-mode acceptor: an HTTP(S) server on the session port's TCP port. {@code POST
 * /sessionj/v1/open} makes a connection (its answer is the client's token) and queues its server end
 * for {@link #accept}.
 *
 * <p>A connection opened and not used yet (no request with its token) counts toward its source address's
 * {@code sessionj.http.maxUnusedOpensPerAddress} (64), and when the tables are full an open evicts unused ones of the
 * address holding the most ({@link UnusedOpens}): before, opens alone from one client took every half (hostile18 H4).
 */
public final class DirectAcceptor implements ConnectionAcceptor, Routes {
    /** Connections opened but not yet accepted, at most (more are answered 503). */
    private static final int MAX_UNACCEPTED = 1024;
    private static final int MAX_HALVES = 8192;
    /** The most connections a direct server holds open, whatever the descriptor limit. */
    static final int MAX_CONNECTIONS = 4 * MAX_HALVES;
    private static final int REQUEST_MILLIS = 30_000;
    /** Request bodies held at once, over all connections of the acceptor (each is at most a segment). */
    private static final long BODY_BYTES = 256L << 20;

    private final String transportName;
    private final HttpSettings settings;
    private final int portOffset;
    private final Halves halves;
    /** The most halves at once ({@link #MAX_HALVES} but in tests). */
    private final int maxHalves;
    private final UnusedOpens unused;
    /** The process's bound on the stream bytes of direct servers ({@code sessionj.http.bufferedBytes}). */
    private final StreamMemory memory;
    private final PendingConnections pending = new PendingConnections(this::describe);
    private final AtomicInteger unaccepted = new AtomicInteger();
    private final TunnelServer server;
    private final AtomicInteger shutDown = new AtomicInteger();
    private volatile boolean closed;
    /** The server socket's pending-handshake slots, which an https connection holds through its TLS handshake. */
    private volatile org.sessionj.runtime.spi.HandshakeSlots slots;

    private DirectAcceptor(String transportName, HttpSettings settings, int portOffset, int tcpPort, SslContext ssl,
            int maxHalves, UnusedOpens unused, StreamMemory memory) throws IOException {
        this.transportName = transportName;
        this.memory = memory;
        this.settings = settings;
        this.portOffset = portOffset;
        this.maxHalves = maxHalves;
        this.unused = unused;
        this.halves = new Halves(settings.vanishMillis(), now -> shutDownWhenIdle());
        try {
            this.server = TunnelServer.bind(bindAddress(tcpPort), ssl, settings, this, connectionLimit(),
                    REQUEST_MILLIS, BODY_BYTES, () -> slots);
        } catch (IOException e) {
            halves.close();
            throw e;
        }
        memory.register(halves);
    }

    /**
     * The most connections a direct server holds open: half the process's descriptor limit (the soft
     * {@code RLIMIT_NOFILE}, as {@code /proc/self/limits} gives it; the JVM raises it to the hard limit at start),
     * at most {@link #MAX_CONNECTIONS} (32,768) and at least 64; 32,768 where the limit cannot be read. Past it a new
     * connection drops one whose request has stalled, or is closed at once. Before, the bound was 32,768 whatever the
     * limit: at {@code ulimit -n 4096} a slowloris used up the descriptors first, and then the server's accepts failed
     * ("Too many open files", a warning a second) and real clients waited for the flood's 30 s request deadlines.
     * Half leaves the other half for the rest of the process: its other transports, its own clients, its files.
     */
    static int connectionLimit() {
        try {
            return connectionLimit(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/limits")));
        } catch (IOException | RuntimeException e) {
            return MAX_CONNECTIONS; // not Linux, or not readable: the fixed bound
        }
    }

    /** {@link #connectionLimit()} from the text of {@code /proc/self/limits}. */
    static int connectionLimit(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                if (soft.equals("unlimited")) {
                    return MAX_CONNECTIONS;
                }
                long descriptors = Long.parseLong(soft);
                return (int) Math.max(64, Math.min(MAX_CONNECTIONS, descriptors / 2));
            }
        }
        return MAX_CONNECTIONS;
    }

    /** TCP port {@code tcpPort} on {@code sessionj.bindAddress} (by default every interface). */
    private static InetSocketAddress bindAddress(int tcpPort) throws IOException {
        try {
            return org.sessionj.runtime.spi.support.BindAddress.forPort(tcpPort);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Listens on TCP port {@code sessionPort + portOffset} (session port 0: a free port, whose session
     * port is then {@code tcpPort - portOffset}).
     */
    public static DirectAcceptor listen(String transportName, HttpSettings settings, int sessionPort, int portOffset,
            SslContext ssl) throws IOException {
        return listen(transportName, settings, sessionPort, portOffset, ssl, MAX_HALVES, new UnusedOpens(),
                StreamMemory.shared());
    }

    /** As {@link #listen(String, HttpSettings, int, int, SslContext)} with at most {@code maxHalves} connections and {@code unused}'s cap (tests). */
    static DirectAcceptor listen(String transportName, HttpSettings settings, int sessionPort, int portOffset,
            SslContext ssl, int maxHalves, UnusedOpens unused, StreamMemory memory) throws IOException {
        int tcpPort = sessionPort == 0 ? 0 : sessionPort + portOffset;
        if (tcpPort < 0 || tcpPort > 65535) {
            throw new IOException("session port " + sessionPort + " maps to TCP port " + tcpPort
                    + " (sessionj.http.portOffset " + portOffset + "), which does not exist");
        }
        DirectAcceptor acceptor = new DirectAcceptor(transportName, settings, portOffset, tcpPort, ssl, maxHalves, unused,
                memory);
        if (acceptor.port() < 1) {
            acceptor.close();
            throw new IOException("the free TCP port " + acceptor.server.port() + " maps to no session port with "
                    + "sessionj.http.portOffset " + portOffset);
        }
        return acceptor;
    }

    @Override
    public int port() {
        return server.port() - portOffset;
    }

    @Override
    public Half half(String token) {
        return halves.get(token);
    }

    @Override
    public void route(Exchange exchange) {
        if (!exchange.query().path().equals(Wire.OPEN)) {
            exchange.fail(HttpResponseStatus.NOT_FOUND, "no such path: this is an SJ " + transportName
                    + " acceptor (" + Wire.OPEN + ")");
            return;
        }
        if (!exchange.request().method().equals(HttpMethod.POST)) {
            exchange.fail(HttpResponseStatus.METHOD_NOT_ALLOWED, "open with a POST");
            return;
        }
        if (closed) {
            exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "the acceptor is closed");
            return;
        }
        java.net.InetAddress from = exchange.sourceAddress();
        if (!unused.enter(from)) {
            exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "the address " + from.getHostAddress() + " has "
                    + unused.cap() + " connections opened here and not used yet, the most one address may have"
                    + " (sessionj.http.maxUnusedOpensPerAddress); retry once they are used or gone");
            return;
        }
        if (unaccepted.get() >= MAX_UNACCEPTED || halves.size() >= maxHalves) {
            // Full: unused connections of the address holding most go (their server ends fail at once, which
            // frees their handshakes too); the newcomer stays if that made room in the table.
            boolean evicted = unused.evict(halves, describe());
            if (!evicted || unaccepted.get() >= MAX_UNACCEPTED || halves.size() >= maxHalves) {
                unused.leave(from);
                unused.refusedFull(describe(), halves.size(), unaccepted.get());
                exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "too many connections waiting; retry later");
                return;
            }
        }
        Half half = new Half(Wire.newToken(), new ByteStream(settings.streamBytes(), memory.budget()),
                new ByteStream(settings.streamBytes(), memory.budget()));
        unused.track(from, half);
        halves.add(half);
        ServedConnection connection = new ServedConnection(transportName, half, settings,
                "from " + exchange.remote() + " on port " + port(), memory.budget(), from);
        unaccepted.incrementAndGet();
        pending.add(connection);
        exchange.respond(Wire.versioned(Wire.text(exchange.version(), HttpResponseStatus.OK, half.token())));
    }

    /**
     * Over https, each TLS connection holds one of the server socket's pending-handshake slots from its
     * accept to the end of its TLS handshake, as a {@code tls} connection does; its TLS handshake must
     * succeed within the initiation timeout, and one that fails is counted as a failed handshake.
     */
    @Override
    public void countHandshakes(org.sessionj.runtime.spi.HandshakeSlots handshakeSlots) {
        this.slots = handshakeSlots;
    }

    /** Connections closed so far because their address had its most connections in a TLS handshake. */
    public long refusedPerAddress() {
        return server.refusedPerAddress();
    }

    /** Opens answered 503 so far because their address had its most connections opened and not used. */
    public long refusedUnusedPerAddress() {
        return unused.refusedPerAddress();
    }

    /** Connections opened and not used evicted so far for an open when the tables were full. */
    public long evictedUnused() {
        return unused.evicted();
    }

    /** Opens answered 503 so far because the tables were full and no unused connection could be evicted. */
    public long refusedFull() {
        return unused.refusedFull();
    }

    @Override
    public Connection accept(long timeoutNanos) throws IOException {
        Connection next = pending.take(timeoutNanos);
        if (next != null) {
            unaccepted.decrementAndGet();
        }
        return next;
    }

    private String describe() {
        return transportName + " acceptor on port " + port();
    }

    /**
     * Stops accepting: opens are refused from now on, connections not yet accepted are closed. The
     * HTTP port stays open while connections accepted before still run (their clients keep making
     * requests to it) and is released when the last one ends.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        pending.close();
        shutDownWhenIdle();
    }

    private void shutDownWhenIdle() {
        if (closed && halves.size() == 0 && shutDown.compareAndSet(0, 1)) {
            server.close();
            memory.unregister(halves);
            halves.close();
        }
    }
}
