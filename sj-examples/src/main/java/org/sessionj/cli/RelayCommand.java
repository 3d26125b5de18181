package org.sessionj.cli;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.sessionj.transport.http.relay.HttpRelay;
import org.sessionj.transport.http.relay.ListenKeys;
import org.sessionj.transport.http.relay.RelayLimits;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.TlsConfig;
import org.sessionj.transport.tls.TlsContexts;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sj relay}: the relay of the http/https transports, in the foreground until interrupted. */
@Command(name = "relay",
        mixinStandardHelpOptions = true,
        description = {
            "Run the relay of the http/https transports: peers that cannot reach each other both connect out to it"
                    + " (-Dsessionj.http.relay=HOST:PORT on both sides); it pairs them and moves their bytes.",
            "Says it is listening once it has answered a request of its own through its port (so the first peer does"
                    + " not pay for a cold start), then runs until interrupted (Ctrl-C).",
            "Put it behind a reverse proxy or open its port in the firewall."
        })
final class RelayCommand implements Callable<Integer> {
    /** How long the relay waits for the answer to its own first request before it gives up starting. */
    static final Duration SELF_CHECK_TIMEOUT = Duration.ofSeconds(60);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "PORT", description = "The TCP port to listen on (0: any free one).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "The address to listen on (default: every interface).")
    String bind;

    @Option(names = "--tls", description = "Speak HTTPS (with --cert/--key, or sessionj.tls.cert/key).")
    boolean tls;

    @Option(names = "--cert", paramLabel = "FILE", description = "PEM certificate chain for --tls.")
    Path cert;

    @Option(names = "--key", paramLabel = "FILE", description = "PEM private key for --tls.")
    Path key;

    @Option(names = "--max-sessions", paramLabel = "N", description = "Relayed connections at most (default 1024).")
    int maxSessions = RelayLimits.defaults().maxSessions();

    @Option(names = "--buffer-mib", paramLabel = "MIB", description = "Buffered bytes in all, in MiB (default 256).")
    long bufferMib = RelayLimits.defaults().bufferBytes() >> 20;

    @Option(names = "--max-servers-per-address", paramLabel = "N",
            description = "Registered servers one source address may have at once (default 16); more are answered 429.")
    int maxServersPerAddress = RelayLimits.defaults().maxListenersPerSource();

    @Option(names = "--max-sessions-per-address", paramLabel = "N",
            description = "Relayed connections one source address may have at once (default 256; behind a proxy every"
                    + " client has the proxy's address); more are answered 429.")
    int maxSessionsPerAddress = RelayLimits.defaults().maxSessionsPerSource();

    @Option(names = "--max-tls-handshakes", paramLabel = "N",
            description = "With --tls: connections in their TLS handshake at once (default 1024); a new one waits, and at"
                    + " the limit the oldest that has not finished within 5 s is dropped for it.")
    int maxTlsHandshakes = RelayLimits.defaults().maxPendingTlsHandshakes();

    @Option(names = "--listen-key", paramLabel = "FILE",
            description = {"Register only servers that prove a key in FILE (one key per line, at least 16 characters,"
                    + " e.g. from `openssl rand -hex 32`; # comments; read again when it changes, so a key is rotated by"
                    + " adding the new one, moving the servers, removing the old). Servers name a file with the key in"
                    + " -Dsessionj.http.relayKeyFile=FILE. A file, not the key, so that the secret is not on a command"
                    + " line. Without it any client that reaches the relay can register any server name not taken"
                    + " (docs/http-transport.md, \"Who may register a name at the relay\")."})
    Path listenKey;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--port must be 0..65535, found " + port);
        }
        if ((cert == null) != (key == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cert and --key go together");
        }
        if (!tls && cert != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cert/--key need --tls");
        }
        SslContext ssl = null;
        if (tls) {
            TlsConfig config = cert != null
                    ? TlsConfig.builder().keyMaterial(Certificates.read(cert, key)).build()
                    : TlsConfig.fromSystemProperties();
            ssl = TlsContexts.server(config);
            if (ssl == null) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--tls needs a certificate: --cert/--key, or -Dsessionj.tls.cert/-Dsessionj.tls.key");
            }
        }
        InetSocketAddress address = bind == null ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
        if (maxServersPerAddress <= 0 || maxSessionsPerAddress <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-servers-per-address and"
                    + " --max-sessions-per-address must be positive, found " + maxServersPerAddress + " and "
                    + maxSessionsPerAddress);
        }
        if (maxTlsHandshakes <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-tls-handshakes must be positive, found "
                    + maxTlsHandshakes);
        }
        RelayLimits limits = RelayLimits.defaults().withSessions(maxSessions, bufferMib << 20)
                .withPerSource(maxServersPerAddress, Math.min(maxSessionsPerAddress, maxSessions))
                .withPendingTlsHandshakes(maxTlsHandshakes);
        ListenKeys keys = null;
        if (listenKey != null) {
            try {
                keys = ListenKeys.fromFile(listenKey);
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--listen-key " + listenKey + ": "
                        + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
            }
        }
        HttpRelay relay = HttpRelay.start(address, ssl, limits, keys);
        Duration check;
        try {
            // Announce only what answers: the first request of a fresh process (TLS above all) is slow,
            // and a peer that took the announcement at its word paid for it within its own bound.
            check = relay.selfCheck(SELF_CHECK_TIMEOUT);
        } catch (IOException e) {
            relay.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            relay.close();
            stopped.countDown();
        }, "sj-relay-shutdown"));
        out.println("sj relay: listening on " + (bind == null ? "*" : bind) + ":" + relay.port() + " ("
                + (tls ? "https" : "http") + "); peers use -Dsessionj.http.relay=HOST:" + relay.port()
                + " (answered its own request in " + check.toMillis() + " ms)");
        if (keys == null) {
            out.println("sj relay: WARNING: no --listen-key: any client that reaches this port can register any server"
                    + " name not taken and receive its requesters (docs/http-transport.md, \"Who may register a name at"
                    + " the relay\")");
        } else {
            out.println("sj relay: servers register with a key of " + listenKey
                    + " (-Dsessionj.http.relayKeyFile on the servers)");
        }
        out.flush();
        stopped.await();
        return 0;
    }
}
