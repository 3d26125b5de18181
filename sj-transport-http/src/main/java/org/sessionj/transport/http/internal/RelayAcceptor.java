package org.sessionj.transport.http.internal;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.support.PendingConnections;

/**
 * A relay-mode acceptor: registers the session port under this host's names at the relay and waits
 * there (a long poll, {@code POST /sessionj/v1/listen}) for connections to it; each arrives as a token
 * to which this side attaches as the relay's client. Nothing listens on this host: every byte goes out
 * as an outbound request.
 */
public final class RelayAcceptor implements ConnectionAcceptor {
    private static final System.Logger LOG = System.getLogger(RelayAcceptor.class.getName());
    private static final long EXTRA_WAIT_MILLIS = 15_000;
    /** An IPv4 literal, or an IPv6 one (it has a colon: {@code InetAddress} parses it without a look-up). */
    private static final Pattern IP_LITERAL = Pattern.compile(
            "\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(%[A-Za-z0-9_.-]+)?");

    private final String transportName;
    private final Endpoint relay;
    private final String id = Wire.newToken();
    private final List<String> names;
    private final HttpClientChannel control;
    private final PendingConnections pending = new PendingConnections(this::describe);
    private final Backoff backoff;
    /** The relay's listen key ({@code sessionj.http.relayKeyFile}), or null: registrations carry no proof. */
    private final byte[] key;
    private volatile int port;
    private volatile boolean closed;
    private boolean warned;
    /** Whether it said once that a key was configured and the relay asked for none. */
    private volatile boolean warnedOpen;

    private RelayAcceptor(String transportName, Endpoint relay, List<String> names, byte[] key) {
        this.transportName = transportName;
        this.relay = relay;
        this.names = names;
        this.key = key;
        this.control = new HttpClientChannel(relay);
        this.backoff = new Backoff(relay.settings().vanishMillis());
    }

    /** Registers session port {@code port} (0: the relay picks one) under {@code names} at {@code relay}. */
    public static RelayAcceptor listen(String transportName, Endpoint relay, int port, List<String> names,
            long timeoutNanos) throws IOException {
        return listen(transportName, relay, port, names, timeoutNanos, null);
    }

    /**
     * Registers session port {@code port} (0: the relay picks one) under {@code names} at {@code relay},
     * proving {@code key} (null: none) when the relay asks for it (its 401 with a nonce).
     */
    public static RelayAcceptor listen(String transportName, Endpoint relay, int port, List<String> names,
            long timeoutNanos, byte[] key) throws IOException {
        RelayAcceptor acceptor = new RelayAcceptor(transportName, relay, names, key);
        acceptor.port = port;
        try {
            acceptor.register(timeoutNanos);
        } catch (IOException e) {
            acceptor.control.close();
            throw e;
        }
        acceptor.control.loop().execute(acceptor::poll);
        return acceptor;
    }

    private String listenUri(String extra) {
        StringBuilder uri = new StringBuilder(Wire.LISTEN).append("?id=").append(id).append("&port=").append(port);
        for (String name : names) {
            uri.append("&name=").append(URLEncoder.encode(name, StandardCharsets.UTF_8));
        }
        return uri.append(extra).toString();
    }

    /**
     * Registers within {@code timeoutNanos}. An attempt may use all the time left, so a slow first answer
     * (a cold TLS handshake on both sides, seconds on a loaded machine) is waited for, not abandoned; what
     * a relay that is starting or briefly away answers (no connection, a dropped one, 408, 429, 502, 503,
     * 504: a proxy in front of a relay that is not up yet says 502) is retried with backoff until then.
     */
    private void register(long timeoutNanos) throws IOException {
        long deadline = System.nanoTime() + timeoutNanos;
        Backoff retries = new Backoff(TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        String proof = "";
        int proofs = 0;
        while (true) {
            long left = Math.max(1, deadline - System.nanoTime());
            String why = null;
            FullHttpResponse response;
            try {
                response = TunnelConnection.await(control.send(control.request(HttpMethod.POST,
                        listenUri("&register=1" + proof), null), TunnelConnection.millis(left)), left, relay);
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                response = null;
                why = e.getMessage();
            }
            if (response != null) {
                try {
                    int status = response.status().code();
                    why = LongPollLink.describe(response);
                    if (status == 200) {
                        port = Integer.parseInt(response.headers().get(Wire.PORT, String.valueOf(port)).strip());
                        registeredWithout(proof);
                        return;
                    }
                    // The relay asks for proof of its listen key: answer its nonce at once; a second refusal
                    // (a fresh nonce after a stale one on a loaded machine) is the last.
                    String answer = status == 401 ? proofFor(response) : null;
                    if (answer != null && proofs++ < 2) {
                        proof = answer;
                        continue;
                    }
                    if (status == 401) {
                        throw new IOException("cannot register session port " + port + " at the relay " + relay + ": "
                                + why + (key == null ? "; this server has no key (sessionj.http.relayKeyFile)" : ""));
                    }
                    if (!LongPollLink.retryable(status)) {
                        throw new IOException("cannot register session port " + port + " at the relay " + relay + ": "
                                + why);
                    }
                } catch (NumberFormatException e) {
                    throw new IOException("the relay " + relay + " answered a bad port: " + e.getMessage(), e);
                } finally {
                    response.release();
                }
            }
            long delay = retries.nextDelayMillis();
            if (delay < 0 || TimeUnit.MILLISECONDS.toNanos(delay) >= deadline - System.nanoTime()) {
                throw new IOException("cannot register session port " + port + " at the relay " + relay + " within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (sessionj.http.vanishMillis): " + why);
            }
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while registering at the relay " + relay);
            }
        }
    }

    /**
     * The query part proving the key over the nonce of the relay's 401, or null when there is no key or
     * no nonce.
     */
    private String proofFor(FullHttpResponse response) {
        String nonce = response.headers().get(Wire.NONCE);
        if (key == null || nonce == null || !nonce.strip().matches("[0-9a-f]{1,128}")) {
            return null;
        }
        nonce = nonce.strip();
        return "&nonce=" + nonce + "&proof=" + ListenProof.proof(key, nonce, id, port, names);
    }

    /** Warns once when this server has a key and the relay registered it without asking for a proof. */
    private void registeredWithout(String proof) {
        if (key != null && proof.isEmpty() && !warnedOpen) {
            warnedOpen = true;
            LOG.log(System.Logger.Level.WARNING, "the relay {0} registered session port {1} without asking for a proof of"
                    + " sessionj.http.relayKeyFile: it lets any server register any name not taken (start it with"
                    + " ./sj relay --listen-key FILE)", relay, port);
        }
    }

    /** On the control channel's loop: the next long poll for connections. */
    private void poll() {
        if (closed) {
            return;
        }
        control.send(control.request(HttpMethod.POST, listenUri(""), null),
                relay.settings().pollMillis() + EXTRA_WAIT_MILLIS).whenComplete((response, failure) -> {
                    if (failure != null) {
                        retry(failure.getMessage());
                        return;
                    }
                    try {
                        int status = response.status().code();
                        if (status == 200) {
                            backoff.reset();
                            warned = false;
                            takeAll(response.content().toString(StandardCharsets.UTF_8), Wire.versionOf(response));
                            poll();
                        } else if (status == 204) {
                            backoff.reset();
                            poll();
                        } else if (status == 404) {
                            reRegister(); // the relay forgot us (it restarted, or we were away too long)
                        } else {
                            retry(LongPollLink.describe(response));
                        }
                    } finally {
                        response.release();
                    }
                });
    }

    private void reRegister() {
        reRegister("", 0);
    }

    /** Registers again on the control channel's loop, with {@code proof} (the query part, or empty). */
    private void reRegister(String proof, int proofs) {
        control.send(control.request(HttpMethod.POST, listenUri("&register=1" + proof), null), relay.settings().pollMillis())
                .whenComplete((response, failure) -> {
                    if (response != null) {
                        int status = response.status().code();
                        String why = LongPollLink.describe(response);
                        String answer = status == 401 && proofs < 2 ? proofFor(response) : null;
                        response.release();
                        if (status == 200) {
                            registeredWithout(proof);
                            poll();
                        } else if (answer != null) {
                            reRegister(answer, proofs + 1);
                        } else {
                            retry(why);
                        }
                    } else {
                        retry(failure.getMessage());
                    }
                });
    }

    private void retry(String why) {
        if (closed) {
            return;
        }
        long delay = backoff.nextDelayMillis();
        if (delay < 0) {
            if (!warned) {
                warned = true;
                LOG.log(System.Logger.Level.WARNING, "session port {0} cannot reach its relay {1} ({2}); retrying",
                        port, relay, why);
            }
            delay = 2_000;
        }
        control.loop().schedule(this::poll, delay, TimeUnit.MILLISECONDS);
    }

    /** A connection of a listen answer: its token, and the requester's address when the relay vouched for it. */
    record Offer(String token, InetAddress from) {
    }

    /** Takes the connections of a listen answer ({@link #offers}). */
    private void takeAll(String answer, int wire) {
        for (Offer offer : offers(answer, key)) {
            take(offer.token(), wire, offer.from());
        }
    }

    /**
     * The connections of a listen answer, in order: a token per line, each followed by the relay's {@code from}
     * line ({@code from ADDRESS MAC}) when the relay vouches for the requester's address under {@code key}, this
     * server's listen key (null: no address is believed); other lines skipped.
     */
    static List<Offer> offers(String answer, byte[] key) {
        List<Offer> offers = new ArrayList<>();
        for (String line : answer.split("\n")) {
            line = line.strip();
            if (Wire.isToken(line)) {
                offers.add(new Offer(line, null));
            } else if (!offers.isEmpty() && line.startsWith(Wire.FROM_LINE)) {
                Offer last = offers.get(offers.size() - 1);
                offers.set(offers.size() - 1, new Offer(last.token(),
                        vouchedAddress(key, last.token(), line.substring(Wire.FROM_LINE.length()))));
            }
        }
        return offers;
    }

    /**
     * The address of a {@code from} line's words ({@code ADDRESS MAC}) for connection {@code token}, or null
     * unless its MAC proves that the relay holds {@code key} ({@link ListenProof#vouches}) and the address is
     * an IP literal (never a name: no DNS look-up on a relay's word). A relay without the key, or anyone on a
     * plain-http path, cannot make the server believe an address (docs/http-transport.md).
     */
    private static InetAddress vouchedAddress(byte[] key, String token, String words) {
        int space = words.lastIndexOf(' ');
        if (key == null || space <= 0) {
            return null;
        }
        String address = words.substring(0, space);
        if (!ListenProof.vouches(key, words.substring(space + 1), token, address) || !IP_LITERAL.matcher(address).matches()) {
            LOG.log(System.Logger.Level.DEBUG, "the relay named an address for a connection that this server's key"
                    + " does not vouch for: ignored");
            return null;
        }
        try {
            return InetAddress.getByName(address);
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    private void take(String token, int wire, InetAddress from) {
        Thread.ofVirtual().name("sj-relay-attach").start(() -> {
            try {
                Connection connection = TunnelConnection.attach(transportName, relay, token,
                        "via relay " + relay + " on session port " + port, null, wire, TimeUnit.SECONDS.toNanos(10),
                        from);
                pending.add(connection);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "could not take a relayed connection: {0}", e.getMessage());
            }
        });
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public Connection accept(long timeoutNanos) throws IOException {
        return pending.take(timeoutNanos);
    }

    private String describe() {
        return transportName + " acceptor on session port " + port + " (via relay " + relay + ")";
    }

    /** Unregisters at the relay (at once, so the port is free there) and stops accepting. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        HttpClientChannel goodbye = new HttpClientChannel(relay);
        try {
            TunnelConnection.await(goodbye.send(goodbye.request(HttpMethod.POST, listenUri("&close=1"), null), 2_000),
                    TimeUnit.SECONDS.toNanos(2), relay).release();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not unregister from {0}: {1}", relay, e.getMessage());
        } finally {
            goodbye.close();
            control.close();
        }
        pending.close();
    }
}
