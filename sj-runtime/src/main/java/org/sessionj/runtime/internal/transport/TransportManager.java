package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;

/**
 * Chooses transports for a runtime: a server socket listens on every configured transport with one
 * session port; a request uses the most preferred transport that can reach the peer (so peers in one
 * JVM end up on the in-JVM transport). The paper's full two-phase negotiation is not done yet.
 */
public final class TransportManager {
    /** The name of the in-JVM transport, preferred by default. */
    public static final String IN_JVM = "shm";
    private static final int PORT_ATTEMPTS = 20;

    private final List<Transport> transports;

    private TransportManager(List<Transport> transports) {
        this.transports = transports;
    }

    /** The installed transports named in {@code preferences}, in that order; all installed (in-JVM first) if empty. */
    public static TransportManager select(List<String> preferences) {
        List<Transport> installed = installed();
        if (installed.isEmpty()) {
            throw new IllegalStateException("no SJ transport on the class path: add org.sessionj:sj-transport-shm"
                    + " (in-JVM) or org.sessionj:sj-transport-netty (TCP)");
        }
        if (preferences.isEmpty()) {
            List<Transport> all = new ArrayList<>(installed);
            all.sort(Comparator.comparing((Transport t) -> !t.name().equals(IN_JVM)).thenComparing(Transport::name));
            return new TransportManager(List.copyOf(all));
        }
        List<Transport> chosen = new ArrayList<>();
        for (String name : preferences) {
            chosen.add(installed.stream().filter(t -> t.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("transport '" + name + "' is not installed;"
                            + " installed transports: " + installed.stream().map(Transport::name).toList())));
        }
        return new TransportManager(List.copyOf(chosen));
    }

    private static List<Transport> installed() {
        List<Transport> found = new ArrayList<>();
        ServiceLoader.load(Transport.class, TransportManager.class.getClassLoader()).forEach(found::add);
        return found;
    }

    /** The transports in order of preference. */
    public List<Transport> transports() {
        return transports;
    }

    /** Connects with the most preferred transport that reaches {@code host:port}. */
    public Connection connect(String host, int port, long timeoutNanos) {
        List<String> failures = new ArrayList<>();
        for (Transport transport : transports) {
            if (!transport.canReach(host, port)) {
                failures.add(transport.name() + ": cannot reach it");
                continue;
            }
            try {
                return transport.connect(host, port, timeoutNanos);
            } catch (IOException e) {
                failures.add(transport.name() + ": " + e.getMessage());
            }
        }
        throw new SJIOException("cannot connect to session port " + host + ":" + port + " (" + String.join("; ", failures)
                + ")");
    }

    /** Listens on every transport with one session port ({@code 0} picks one free on all of them). */
    public AcceptorGroup listen(int port) {
        IOException last = null;
        for (int attempt = 0; attempt < (port == 0 ? PORT_ATTEMPTS : 1); attempt++) {
            List<ConnectionAcceptor> acceptors = new ArrayList<>();
            try {
                int chosen = port;
                for (Transport transport : transports) {
                    ConnectionAcceptor acceptor = transport.listen(chosen);
                    acceptors.add(acceptor);
                    chosen = acceptor.port();
                }
                return new AcceptorGroup(acceptors);
            } catch (IOException e) {
                last = e;
                acceptors.forEach(ConnectionAcceptor::close);
            }
        }
        throw new SJIOException("cannot listen on session port " + port + ": " + last.getMessage(), last);
    }
}
