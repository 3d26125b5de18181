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
    private final PendingConnections pending = new PendingConnections(this::describe);
    private final AtomicInteger unaccepted = new AtomicInteger();
    private final TunnelServer server;
    private final AtomicInteger shutDown = new AtomicInteger();
    private volatile boolean closed;
    /** The server socket's pending-handshake slots, which an https connection holds through its TLS handshake. */
    private volatile org.sessionj.runtime.spi.HandshakeSlots slots;

    private DirectAcceptor(String transportName, HttpSettings settings, int portOffset, int tcpPort, SslContext ssl)
            throws IOException {
        this.transportName = transportName;
        this.settings = settings;
        this.portOffset = portOffset;
        this.halves = new Halves(settings.vanishMillis(), now -> shutDownWhenIdle());
        try {
            this.server = TunnelServer.bind(bindAddress(tcpPort), ssl, settings, this, connectionLimit(),
                    REQUEST_MILLIS, BODY_BYTES, () -> slots);
        } catch (IOException e) {
            halves.close();
            throw e;
        }
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
        int tcpPort = sessionPort == 0 ? 0 : sessionPort + portOffset;
        if (tcpPort < 0 || tcpPort > 65535) {
            throw new IOException("session port " + sessionPort + " maps to TCP port " + tcpPort
                    + " (sessionj.http.portOffset " + portOffset + "), which does not exist");
        }
        DirectAcceptor acceptor = new DirectAcceptor(transportName, settings, portOffset, tcpPort, ssl);
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
        if (unaccepted.get() >= MAX_UNACCEPTED || halves.size() >= MAX_HALVES) {
            exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "too many connections waiting; retry later");
            return;
        }
        Half half = new Half(Wire.newToken(), new ByteStream(settings.streamBytes(), Budget.unlimited()),
                new ByteStream(settings.streamBytes(), Budget.unlimited()));
        halves.add(half);
        ServedConnection connection = new ServedConnection(transportName, half, settings,
                "from " + exchange.remote() + " on port " + port());
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
            halves.close();
        }
    }
}
