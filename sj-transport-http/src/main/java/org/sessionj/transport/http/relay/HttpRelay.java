package org.sessionj.transport.http.relay;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.sessionj.transport.http.internal.Budget;
import org.sessionj.transport.http.internal.ByteStream;
import org.sessionj.transport.http.internal.Exchange;
import org.sessionj.transport.http.internal.Half;
import org.sessionj.transport.http.internal.Halves;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.ListenProof;
import org.sessionj.transport.http.internal.RelayHandshakeSlots;
import org.sessionj.transport.http.internal.Routes;
import org.sessionj.transport.http.internal.TunnelServer;
import org.sessionj.transport.http.internal.Wire;

/**
 * The relay for the http/https transports (docs/http-transport.md): peers that cannot reach each
 * other both reach it with outbound HTTP(S) requests. A server registers its session port under its
 * host names ({@code POST /sessionj/v1/listen}, a long poll that returns connections made to it); a
 * requester asks for {@code host:port} ({@code POST /sessionj/v1/connect}); the relay pairs them and
 * moves the bytes of each direction through a bounded buffer, never looking inside them.
 *
 * <p>It faces the internet, so everything is bounded ({@link RelayLimits}): connections, sessions,
 * servers and their names, connections waiting for a server, the time a server has to take one, the
 * bytes buffered in all, the time a request may take to arrive. Clients that stop making requests
 * vanish after the vanish time, and their peers are told.
 */
public final class HttpRelay implements AutoCloseable, Routes {
    private static final System.Logger LOG = System.getLogger(HttpRelay.class.getName());
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._%:\\[\\]-]{1,255}");

    private final HttpSettings settings;
    private final RelayLimits limits;
    private final Budget budget;
    private final Halves halves;
    private final Map<String, Listener> listeners = new ConcurrentHashMap<>();
    private final Map<String, Listener> targets = new ConcurrentHashMap<>();
    private final Map<String, Half> unpaired = new ConcurrentHashMap<>();
    /** Guarded by itself: per source address, the requester tokens of the relayed connections it made and that have not ended. */
    private final Map<String, Set<String>> sessionsBySource = new java.util.HashMap<>();
    private final TunnelServer server;
    /** Its connections in a TLS handshake (over HTTPS), bounded; the relay has no runtime's slots. */
    private final RelayHandshakeSlots handshakeSlots;
    /** Where it listens (for {@link #selfCheck}), and whether it speaks HTTPS. */
    private final InetSocketAddress address;
    private final boolean tls;
    /** The listen keys a registration must prove one of, or null: any server registers any name. */
    private final ListenKeys listenKeys;

    /** A server registered at the relay: its names and the connections waiting for it. Guarded by itself. */
    private static final class Listener {
        final String id;
        final int port;
        final Set<String> keys;
        /** The address that registered it (per-source cap). */
        final String source;
        final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
        Exchange held;
        /**
         * The listen key it proved when it registered (last), or null: under it the relay vouches for where
         * its requesters come from ({@link ListenProof#from}).
         */
        volatile byte[] key;
        volatile long lastSeen = System.nanoTime();

        Listener(String id, int port, Set<String> keys, String source) {
            this.id = id;
            this.port = port;
            this.keys = keys;
            this.source = source;
        }
    }

    /** A requester's connection waiting for its server: the server's half's token, and the requester's address. */
    private record Waiting(String token, String from) {
    }

    private HttpRelay(InetSocketAddress address, SslContext ssl, HttpSettings settings, RelayLimits limits,
            ListenKeys listenKeys) throws IOException {
        this.settings = settings;
        this.listenKeys = listenKeys;
        this.limits = limits;
        this.address = address;
        this.tls = ssl != null;
        this.budget = new Budget(limits.bufferBytes());
        this.halves = new Halves(settings.vanishMillis(), this::sweep);
        this.handshakeSlots = RelayHandshakeSlots.forRelay(limits.maxPendingTlsHandshakes(), limits.requestMillis());
        try {
            this.server = TunnelServer.bind(address, ssl, settings, this, limits.maxConnections(), limits.requestMillis(),
                    limits.bufferBytes(), () -> handshakeSlots);
        } catch (IOException e) {
            halves.close();
            throw e;
        }
    }

    /**
     * Starts a relay on {@code address} (port 0: a free one), speaking HTTPS when {@code ssl} is a
     * server context, plain HTTP when it is null.
     *
     * @throws IOException if the port cannot be bound
     */
    public static HttpRelay start(InetSocketAddress address, SslContext ssl, HttpSettings settings, RelayLimits limits)
            throws IOException {
        return start(address, ssl, settings, limits, null);
    }

    /**
     * Starts a relay that registers only servers proving one of {@code listenKeys} (null: any server
     * registers any name not taken, as the other overloads).
     *
     * @throws IOException if the port cannot be bound
     */
    public static HttpRelay start(InetSocketAddress address, SslContext ssl, HttpSettings settings, RelayLimits limits,
            ListenKeys listenKeys) throws IOException {
        HttpRelay relay = new HttpRelay(address, ssl, settings, limits, listenKeys);
        LOG.log(System.Logger.Level.INFO, "SJ relay listening on port {0} ({1}); {2}", String.valueOf(relay.port()),
                ssl == null ? "http" : "https", listenKeys == null
                        ? "any server may register any name not taken (no listen key)"
                        : "servers register with a key of " + listenKeys.file());
        return relay;
    }

    /** A relay on {@code address} with the tunables of the system properties ({@code sessionj.http.*}). */
    public static HttpRelay start(InetSocketAddress address, SslContext ssl, RelayLimits limits) throws IOException {
        return start(address, ssl, HttpSettings.fromSystemProperties(), limits);
    }

    /**
     * A relay on {@code address} with the tunables of the system properties, registering only servers that
     * prove one of {@code listenKeys} (null: any server).
     */
    public static HttpRelay start(InetSocketAddress address, SslContext ssl, RelayLimits limits, ListenKeys listenKeys)
            throws IOException {
        return start(address, ssl, HttpSettings.fromSystemProperties(), limits, listenKeys);
    }

    /** A plain-HTTP relay on {@code port} of every interface, with settings from system properties and default limits. */
    public static HttpRelay start(int port) throws IOException {
        return start(new InetSocketAddress(port), null, HttpSettings.fromSystemProperties(), RelayLimits.defaults());
    }

    /** The TCP port the relay listens on. */
    public int port() {
        return server.port();
    }

    /**
     * TLS handshakes (over HTTPS) that failed so far: bytes that were no TLS, a handshake not finished
     * within the request deadline of its accept, or one dropped at the limit of pending TLS handshakes
     * ({@link RelayLimits#maxPendingTlsHandshakes}) because it had stalled for 5 s while another connection waited.
     * A peer that closed in the middle of its handshake is not counted (like a port probe).
     */
    public long failedTlsHandshakes() {
        return handshakeSlots.failed();
    }

    /** Connections in their TLS handshake now (over HTTPS). */
    public int pendingTlsHandshakes() {
        return handshakeSlots.held();
    }

    /**
     * Connections closed at once so far because their source address had its most connections with an
     * unfinished request ({@code sessionj.http.maxUnfinishedPerAddress}, 64): a plain-HTTP slowloris from one
     * address cannot take the relay's every connection.
     */
    public long refusedUnfinishedPerAddress() {
        return server.refusedUnfinishedPerAddress();
    }

    /**
     * Connections closed so far for a newcomer while the relay had its limit of connections open
     * ({@link RelayLimits#maxConnections}), each because its request had not arrived whole for 5 s (or half the
     * request deadline, when shorter): slowloris connections from many addresses cannot keep every other client out.
     */
    public long droppedStalled() {
        return server.droppedStalled();
    }

    /** Idle kept-alive connections closed so far for newcomers at the connection limit (see {@code TunnelServer#evictedIdle}). */
    public long evictedIdle() {
        return server.evictedIdle();
    }

    /**
     * Registrations refused so far because their proof of the listen key failed: a wrong key, a nonce
     * that is stale, used already (a replay) or not this relay's. A registration without a proof is
     * answered with a nonce to prove the key with, and not counted.
     */
    public long refusedRegistrations() {
        return listenKeys == null ? 0 : listenKeys.refused();
    }

    /** Connections from {@code address} whose request has not arrived whole, now. */
    public int unfinishedRequestsFrom(java.net.InetAddress address) {
        return server.unfinishedRequestsFrom(address);
    }

    /** Connections closed so far because their address had its most connections in a TLS handshake (sessionj.tls.maxHandshakesPerAddress). */
    public long refusedTlsPerAddress() {
        return server.refusedPerAddress();
    }

    /**
     * What the relay holds now.
     *
     * @param sessions relayed connections' halves known (two per connection)
     * @param listeners registered servers
     * @param bufferedBytes bytes buffered in all directions
     */
    public record Stats(int sessions, int listeners, long bufferedBytes) {
    }

    /** What the relay holds now. */
    public Stats stats() {
        return new Stats(halves.size(), listeners.size(), budget.used());
    }

    @Override
    public Half half(String token) {
        return halves.get(token);
    }

    @Override
    public void route(Exchange exchange) {
        String path = exchange.query().path();
        boolean post = exchange.request().method().equals(HttpMethod.POST);
        if (path.equals(Wire.CONNECT) && post) {
            connect(exchange);
        } else if (path.equals(Wire.LISTEN) && post) {
            listen(exchange);
        } else if (path.equals(Wire.TARGET)) {
            String target = Wire.param(exchange.query(), "name");
            boolean known = target != null && targets.containsKey(target.toLowerCase(Locale.ROOT));
            exchange.fail(known ? HttpResponseStatus.OK : HttpResponseStatus.NOT_FOUND, known ? "registered" : "unknown");
        } else {
            exchange.fail(HttpResponseStatus.NOT_FOUND, "no such path: this is an SJ relay (" + Wire.PREFIX + "/...)");
        }
    }

    // ---- requesters --------------------------------------------------------------------------

    private void connect(Exchange exchange) {
        String target = Wire.param(exchange.query(), "target");
        if (target == null || !NAME.matcher(target).matches()) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, "connect needs target=host:port, found "
                    + (target == null ? "no target" : "target=" + shown(target)));
            return;
        }
        Listener listener = targets.get(target.toLowerCase(Locale.ROOT));
        if (listener == null) {
            exchange.fail(HttpResponseStatus.NOT_FOUND, "no server is registered at this relay for " + target);
            return;
        }
        if (halves.size() + 2 > 2L * limits.maxSessions()) {
            exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "the relay carries " + limits.maxSessions()
                    + " connections already; retry later");
            return;
        }
        String source = exchange.source();
        ByteStream toServer = new ByteStream(settings.streamBytes(), budget);
        ByteStream toRequester = new ByteStream(settings.streamBytes(), budget);
        // Both halves on the loop of the requester's connect (its control connection carries its uploads
        // next): a relayed byte then answers the other side's held request without a hop between loops.
        io.netty.channel.EventLoop home = exchange.eventLoop();
        Half requester = new Half(Wire.newToken(), toServer, toRequester, home);
        Half served = new Half(Wire.newToken(), toRequester, toServer, home);
        Exchange poll;
        synchronized (listener) {
            if (listener.waiting.size() >= limits.maxUnpairedPerListener()) {
                exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, target + " has "
                        + limits.maxUnpairedPerListener() + " connections waiting already; retry later");
                return;
            }
            synchronized (sessionsBySource) {
                Set<String> mine = sessionsBySource.computeIfAbsent(source, s -> new java.util.HashSet<>());
                mine.removeIf(token -> halves.get(token) == null);
                if (mine.size() >= limits.maxSessionsPerSource()) {
                    exchange.fail(HttpResponseStatus.TOO_MANY_REQUESTS, "the address " + source + " has "
                            + limits.maxSessionsPerSource() + " relayed connections at this relay already, the most one"
                            + " address may have (./sj relay --max-sessions-per-address); retry once one has ended");
                    return;
                }
                mine.add(requester.token());
            }
            halves.add(requester);
            halves.add(served);
            unpaired.put(served.token(), served);
            listener.waiting.add(new Waiting(served.token(), source));
            poll = listener.held;
            listener.held = null;
        }
        if (poll != null) {
            answerListener(listener, poll);
        }
        exchange.respond(Wire.versioned(Wire.text(exchange.version(), HttpResponseStatus.OK, requester.token())));
    }

    // ---- servers -----------------------------------------------------------------------------

    private void listen(Exchange exchange) {
        String id = Wire.param(exchange.query(), "id");
        long port = Wire.longParam(exchange.query(), "port");
        if (id == null || !Wire.isToken(id) || port < 0 || port > 65535) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, "listen needs id=<32 hex digits> and port=0..65535, found "
                    + (id == null ? "no id" : "id=" + shown(id)) + " and "
                    + (Wire.param(exchange.query(), "port") == null ? "no port"
                            : "port=" + shown(Wire.param(exchange.query(), "port"))));
            return;
        }
        if ("1".equals(Wire.param(exchange.query(), "close"))) {
            Listener gone = listeners.get(id);
            if (gone != null) {
                drop(gone, "the server stopped listening");
            }
            exchange.empty();
            return;
        }
        Listener listener = listeners.get(id);
        boolean registering = "1".equals(Wire.param(exchange.query(), "register"));
        if (listenKeys != null && listener == null && !registering) {
            // A poll of a server this relay does not know registers it only on an open relay: here it must
            // register with a proof (the server does so on 404).
            exchange.fail(HttpResponseStatus.NOT_FOUND, "unknown server: register again");
            return;
        }
        byte[] key = null;
        if (listenKeys != null && registering) {
            key = listenKeys.admits(exchange, id, port);
            if (key == null) {
                return;
            }
        }
        if (listener == null || registering) {
            if (listener == null) {
                listener = register(exchange, id, (int) port);
                if (listener == null) {
                    return;
                }
            }
            listener.key = key;
            FullHttpResponse ok = Wire.versioned(Wire.text(exchange.version(), HttpResponseStatus.OK, "registered"));
            ok.headers().set(Wire.PORT, listener.port);
            exchange.respond(ok);
            return;
        }
        listener.lastSeen = System.nanoTime();
        Exchange replaced;
        boolean now;
        synchronized (listener) {
            now = !listener.waiting.isEmpty();
            replaced = now ? null : listener.held;
            if (!now) {
                listener.held = exchange;
            }
        }
        if (replaced != null) {
            replaced.empty();
        }
        if (now) {
            answerListener(listener, exchange);
            return;
        }
        Listener held = listener;
        exchange.onAbandon(() -> {
            synchronized (held) {
                if (held.held == exchange) {
                    held.held = null;
                }
            }
        });
        exchange.executor().schedule(() -> {
            boolean mine;
            synchronized (held) {
                mine = held.held == exchange;
                if (mine) {
                    held.held = null;
                }
            }
            if (mine) {
                held.lastSeen = System.nanoTime();
                exchange.empty();
            }
        }, settings.pollMillis(), TimeUnit.MILLISECONDS);
    }

    private Listener register(Exchange exchange, String id, int port) {
        List<String> names = exchange.query().parameters().getOrDefault("name", List.of());
        if (names.isEmpty() || names.size() > limits.maxNamesPerListener()) {
            exchange.fail(HttpResponseStatus.BAD_REQUEST, "a server registers 1.." + limits.maxNamesPerListener()
                    + " names, found " + names.size());
            return null;
        }
        for (String name : names) {
            if (!NAME.matcher(name).matches() || name.indexOf(':') >= 0 && !name.startsWith("[")) {
                exchange.fail(HttpResponseStatus.BAD_REQUEST, "a server registers host names (letters, digits, . _ % - or"
                        + " a bracketed IPv6 address, at most 255 characters), found name=" + shown(name));
                return null;
            }
        }
        String source = exchange.source();
        if (listeners.size() >= limits.maxListeners()) {
            exchange.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "the relay has " + limits.maxListeners()
                    + " servers registered already");
            return null;
        }
        synchronized (targets) {
            if (listeners.values().stream().filter(l -> l.source.equals(source)).count() >= limits.maxListenersPerSource()) {
                exchange.fail(HttpResponseStatus.TOO_MANY_REQUESTS, "the address " + source + " has "
                        + limits.maxListenersPerSource() + " servers registered at this relay already, the most one"
                        + " address may register (./sj relay --max-servers-per-address); retry once one has stopped"
                        + " listening");
                return null;
            }
            int chosen = port;
            for (int attempt = 0; chosen == 0 && attempt < 100; attempt++) {
                int candidate = ThreadLocalRandom.current().nextInt(1024, 65536);
                if (names.stream().noneMatch(n -> targets.containsKey(key(n, candidate)))) {
                    chosen = candidate;
                }
            }
            Set<String> keys = new LinkedHashSet<>();
            for (String name : names) {
                String key = key(name, chosen);
                if (targets.containsKey(key)) {
                    exchange.fail(HttpResponseStatus.CONFLICT, "another server is registered at this relay for " + key);
                    return null;
                }
                keys.add(key);
            }
            Listener listener = new Listener(id, chosen, keys, source);
            keys.forEach(k -> targets.put(k, listener));
            listeners.put(id, listener);
            LOG.log(System.Logger.Level.DEBUG, "relay: {0} registered {1}", exchange.remote(), keys);
            return listener;
        }
    }

    /** A value the client sent, for a message: at most 100 characters. */
    private static String shown(String value) {
        return value.length() > 100 ? value.substring(0, 100) + "..." : value;
    }

    private static String key(String name, int port) {
        return name.toLowerCase(Locale.ROOT) + ":" + port;
    }

    /**
     * Answers a server's listen poll with the connections waiting for it: a line per token and, to a server
     * that proved a listen key, after it a line {@code from ADDRESS MAC} (the requester's address as the
     * relay saw it, vouched for under that key: {@link ListenProof#from}). A server that does not know the
     * line skips it (it is no token), so both sides may be older.
     */
    private void answerListener(Listener listener, Exchange exchange) {
        List<Waiting> taken = new ArrayList<>();
        synchronized (listener) {
            Waiting next;
            while ((next = listener.waiting.poll()) != null) {
                taken.add(next);
            }
        }
        listener.lastSeen = System.nanoTime();
        if (taken.isEmpty()) {
            exchange.empty();
            return;
        }
        byte[] key = listener.key;
        StringBuilder body = new StringBuilder();
        for (Waiting waiting : taken) {
            body.append(waiting.token()).append('\n');
            if (key != null) {
                body.append(Wire.FROM_LINE).append(waiting.from()).append(' ')
                        .append(ListenProof.from(key, waiting.token(), waiting.from())).append('\n');
            }
        }
        exchange.respond(Wire.versioned(Wire.text(exchange.version(), HttpResponseStatus.OK, body.toString())));
    }

    private void drop(Listener listener, String reason) {
        synchronized (targets) {
            listeners.remove(listener.id, listener);
            listener.keys.forEach(k -> targets.remove(k, listener));
        }
        List<Waiting> orphans;
        Exchange poll;
        synchronized (listener) {
            orphans = new ArrayList<>(listener.waiting);
            listener.waiting.clear();
            poll = listener.held;
            listener.held = null;
        }
        if (poll != null) {
            poll.empty();
        }
        for (Waiting orphan : orphans) {
            Half half = unpaired.remove(orphan.token());
            if (half != null) {
                half.vanish(reason);
            }
        }
    }

    /** Once a second: pairing deadlines, and servers that stopped polling. */
    private void sweep(long now) {
        long pairing = TimeUnit.MILLISECONDS.toNanos(limits.pairingMillis());
        for (Iterator<Half> it = unpaired.values().iterator(); it.hasNext();) {
            Half half = it.next();
            if (half.seen() || half.isDone()) {
                it.remove();
            } else if (half.ageNanos(now) > pairing) {
                it.remove();
                half.vanish("the server did not take the connection within " + limits.pairingMillis() + " ms");
            }
        }
        synchronized (sessionsBySource) {
            for (Iterator<Set<String>> it = sessionsBySource.values().iterator(); it.hasNext();) {
                Set<String> tokens = it.next();
                tokens.removeIf(token -> halves.get(token) == null);
                if (tokens.isEmpty()) {
                    it.remove();
                }
            }
        }
        long vanish = TimeUnit.MILLISECONDS.toNanos(settings.vanishMillis());
        for (Listener listener : listeners.values()) {
            boolean polling;
            synchronized (listener) {
                polling = listener.held != null;
            }
            if (!polling && now - listener.lastSeen > vanish) {
                LOG.log(System.Logger.Level.DEBUG, "relay: server {0} stopped polling; forgetting it", listener.keys);
                drop(listener, "the server vanished from the relay");
            }
        }
    }

    /**
     * Makes one request to this relay through its own port, as a peer would (a TCP connection, for https
     * the TLS handshake, a request and its answer), and returns how long that took. A fresh process
     * loads and initialises its TLS and HTTP code on its first connection: on a loaded machine that took
     * seconds, which the first peer paid within its own bound (a server registering at a relay that had
     * just said it was listening timed out). {@code ./sj relay} calls this before it says it is
     * listening, so the announcement means that the relay answers.
     *
     * <p>The check trusts whatever certificate answers and does not verify the host name: it talks to
     * this process's own port (loopback when the relay listens on every interface) and sends nothing
     * secret.
     *
     * @param timeout how long to wait for the answer
     * @return how long the request took
     * @throws IOException if no answer came within {@code timeout}: the relay cannot serve
     */
    public Duration selfCheck(Duration timeout) throws IOException {
        return RelaySelfCheck.run(address, port(), tls, settings, timeout);
    }

    /** Stops the relay: the port is released, every relayed connection fails. */
    @Override
    public void close() {
        server.close();
        for (Listener listener : List.copyOf(listeners.values())) {
            drop(listener, "the relay stopped");
        }
        halves.close();
    }
}
