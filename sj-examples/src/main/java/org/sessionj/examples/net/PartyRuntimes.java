package org.sessionj.examples.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sessionj.api.SJServerSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.transport.http.HttpConfig;

/**
 * Runtimes for the parties of the distributed examples (chat, portal). Every party reaches session
 * ports over TCP, and through the http relay too when one is configured ({@link #useRelay(String)});
 * what differs is the transport its sessions may run on: {@code tcp}, or {@code tls} when it demands
 * encryption. A party may also talk to one server over {@code http} or {@code https} (a client behind
 * a firewall that lets only HTTP out): that is a per-service choice ({@link #towards(String)}), served
 * by a server's HTTP port ({@link #httpServing()}) or by the relay.
 * TLS needs key material, which the tls and https transports read from the {@code sessionj.tls.*}
 * system properties when they are first used ({@link #useTls(Path)} sets them).
 */
public final class PartyRuntimes {
    /** The transports a party can name for its session with a server. */
    public static final List<String> TRANSPORTS = List.of("tcp", "tls", "http", "https");
    /** Whether the relay of {@link #useRelay} speaks https (set with the relay's system property). */
    private static volatile boolean relaySpeaksHttps;

    private PartyRuntimes() {
    }

    /**
     * Configures this JVM's tls transport from {@code dir}, as written by {@code ./sj tls keygen}: its
     * {@code cert.pem} and {@code key.pem} are this party's certificate and key, and {@code cert.pem}
     * is also the certificate it trusts (a development set-up where every party shares one key pair).
     *
     * @throws IllegalArgumentException naming the missing file
     */
    public static void useTls(Path dir) {
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        for (Path file : List.of(cert, key)) {
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException("no readable " + file + " (write one with ./sj tls keygen --cn NAME --out "
                        + dir + ")");
            }
        }
        System.setProperty("sessionj.tls.cert", cert.toString());
        System.setProperty("sessionj.tls.key", key.toString());
        System.setProperty("sessionj.tls.trust", cert.toString());
    }

    /** Whether this JVM has TLS key material ({@code sessionj.tls.cert} and {@code .key}). */
    public static boolean tlsConfigured() {
        SystemSettings settings = SystemSettings.system();
        return settings.value("tls.cert").isPresent() && settings.value("tls.key").isPresent();
    }

    /**
     * Points this JVM's http transport at the relay {@code relay} ({@code sessionj.http.relay}):
     * servers then also register their session ports there, and requesters that cannot reach a server
     * over TCP fall back to it. {@code https://host:port} names a relay that speaks https
     * ({@code ./sj relay --tls}): then every session through it runs over the https transport, which
     * needs this JVM's TLS trust ({@link #useTls(Path)}) to verify the relay's certificate;
     * {@code host:port} or {@code http://host:port}, plain http.
     *
     * @throws IllegalArgumentException if {@code relay} is not {@code [http[s]://]host:port}
     */
    public static void useRelay(String relay) {
        boolean https = relay.startsWith("https://");
        String hostPort = relay.replaceFirst("^https?://", "");
        if (hostPort.endsWith("/")) {
            hostPort = hostPort.substring(0, hostPort.length() - 1);
        }
        HttpConfig.HostPort.parse("the relay", hostPort);
        System.setProperty("sessionj.http.relay", hostPort);
        relaySpeaksHttps = https;
    }

    /**
     * The transport of sessions through the configured relay: {@code https} for a relay named
     * {@code https://...}, else {@code http}.
     */
    public static String relayTransport() {
        return relaySpeaksHttps ? "https" : "http";
    }

    /** Whether this JVM has an http relay ({@code sessionj.http.relay}). */
    public static boolean relayConfigured() {
        return HttpConfig.fromSystemProperties().relay().isPresent();
    }

    /**
     * A runtime whose sessions are set up over TCP and run on {@code transport} ({@code tcp} or
     * {@code tls}); with {@code tcp}, TLS is accepted too when {@code alsoTls} (for peers that demand it).
     * With a relay configured, sessions are also set up and run through it, after TCP: servers register
     * there and requesters that TCP cannot take there fall back to it. Every message is flushed as it
     * is sent ({@code batchBytes(1)}): the examples' event streams send while they wait for their user,
     * not for a session input, and a batching runtime flushes only when a session enters an input,
     * ends, or fills a batch.
     */
    public static SJRuntime create(String transport, boolean alsoTls) {
        List<String> session = new ArrayList<>();
        switch (transport) {
            case "tcp" -> {
                session.add("tcp");
                if (alsoTls) {
                    session.add("tls");
                }
            }
            case "tls" -> session.add("tls");
            default -> throw new IllegalArgumentException("transport must be tcp or tls, got '" + transport + "'");
        }
        List<String> setup = new ArrayList<>(List.of("tcp"));
        if (relayConfigured()) {
            setup.add(relayTransport());
            session.add(relayTransport());
        }
        return SJRuntime.create(SJRuntimeConfig.builder().setupTransports(setup.toArray(String[]::new))
                .sessionTransports(session.toArray(String[]::new)).batchBytes(1).build());
    }

    /**
     * The runtime of a party that talks to its server over {@code transport} (one of
     * {@link #TRANSPORTS}): for {@code http} and {@code https} a TCP runtime (for everything but that
     * server: private conversations, delegated sessions), with TLS when {@code alsoTls}; the server's
     * service then takes {@link #towards(String)}.
     */
    public static SJRuntime forParty(String transport, boolean alsoTls) {
        return switch (checked(transport)) {
            case "http", "https" -> create("tcp", alsoTls);
            default -> create(transport, alsoTls);
        };
    }

    /**
     * The preferences of a service requested over {@code transport}: {@code tcp}/{@code tls} → the
     * runtime's; {@code http} → set up and run over http (to the server's HTTP port, or through the
     * relay); {@code https} → set up over http, run over https.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static TransportPreferences towards(String transport) {
        return switch (checked(transport)) {
            case "http" -> TransportPreferences.of(List.of("http"), List.of("http"));
            // Through a relay that speaks https even the set-up must be https.
            case "https" -> TransportPreferences.of(List.of(relayConfigured() && relaySpeaksHttps ? "https" : "http"),
                    List.of("https"));
            default -> TransportPreferences.unset();
        };
    }

    /**
     * Why {@code transport} cannot reach a server through the configured relay, or null if it can: a
     * relay that speaks https takes only https (plain http would reach a TLS port), and https needs TLS
     * trust to verify the relay.
     */
    public static String relayMismatch(String transport) {
        if (!relayConfigured() || !relaySpeaksHttps) {
            return null;
        }
        if (transport.equals("http")) {
            return "the relay speaks https: use --transport https (or tcp/tls)";
        }
        if (!tlsConfigured() && SystemSettings.system().value("tls.trust").isEmpty()) {
            return "an https relay needs --tls-dir (its cert.pem is trusted to verify the relay's certificate)";
        }
        return null;
    }

    /**
     * The preferences of a server's HTTP port (direct mode: an HTTP server on that port): sessions set
     * up over http, run over http, or https when this JVM has TLS key material (and no relay, through
     * which the https port would be registered: a relay speaks either http or https).
     */
    public static TransportPreferences httpServing() {
        return TransportPreferences.of(List.of("http"),
                tlsConfigured() && !relayConfigured() ? List.of("http", "https") : List.of("http"));
    }

    /**
     * Makes the server socket on {@code port} an HTTP server of its own (direct mode) even when a relay
     * is configured ({@code sessionj.http.relay.PORT=none}).
     *
     * @throws IllegalArgumentException for port 0 with a relay: the setting needs the port's number
     */
    public static void serveHttpDirectly(int port) {
        if (relayConfigured()) {
            if (port == 0) {
                throw new IllegalArgumentException("with a relay, an HTTP port of its own needs a number (not 0)");
            }
            System.setProperty("sessionj.http.relay." + port, "none");
        }
    }

    /**
     * A server's HTTP port next to its session port: a server socket of {@code protocol} on
     * {@code httpPort} that is an HTTP server of its own ({@link #serveHttpDirectly},
     * {@link #httpServing}), or null when {@code httpPort} is negative (the server has none). When it
     * cannot be opened, {@code sessionPort} is closed before the failure propagates, so that a server
     * that fails to start leaves no port open.
     */
    public static SJServerSocket httpPortNextTo(SJServerSocket sessionPort, SJRuntime runtime, Class<?> protocol,
            int httpPort) {
        if (httpPort < 0) {
            return null;
        }
        try {
            serveHttpDirectly(httpPort);
            return runtime.serverSocket(protocol, httpPort, httpServing());
        } catch (RuntimeException e) {
            sessionPort.close();
            throw e;
        }
    }

    private static String checked(String transport) {
        if (!TRANSPORTS.contains(transport)) {
            throw new IllegalArgumentException("transport must be one of " + String.join(", ", TRANSPORTS) + ", got '"
                    + transport + "'");
        }
        return transport;
    }
}
