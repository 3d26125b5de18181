package org.sessionj.transport.shm;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The JVM-wide table of in-JVM session ports and their acceptors. */
final class ShmPortRegistry {
    static final int FIRST_EPHEMERAL = 49152;
    static final int LAST_PORT = 65535;

    private final ConcurrentHashMap<Integer, ShmAcceptor> acceptors = new ConcurrentHashMap<>();
    private final AtomicInteger nextEphemeral = new AtomicInteger(FIRST_EPHEMERAL);

    /** Binds {@code port} (0 picks a free ephemeral port) to a new acceptor. */
    ShmAcceptor bind(int port) throws IOException {
        if (port < 0 || port > LAST_PORT) {
            throw new IOException("session port must be in 0..65535, got " + port);
        }
        if (port != 0) {
            ShmAcceptor acceptor = new ShmAcceptor(port, this);
            if (acceptors.putIfAbsent(port, acceptor) != null) {
                throw new java.net.BindException("in-JVM session port " + port + " is already in use");
            }
            return acceptor;
        }
        for (int attempt = 0; attempt <= LAST_PORT - FIRST_EPHEMERAL; attempt++) {
            int candidate = nextEphemeral.getAndUpdate(p -> p >= LAST_PORT ? FIRST_EPHEMERAL : p + 1);
            ShmAcceptor acceptor = new ShmAcceptor(candidate, this);
            if (acceptors.putIfAbsent(candidate, acceptor) == null) {
                return acceptor;
            }
        }
        throw new IOException("no free in-JVM session port in " + FIRST_EPHEMERAL + ".." + LAST_PORT);
    }

    ShmAcceptor lookup(int port) {
        return acceptors.get(port);
    }

    void release(int port, ShmAcceptor acceptor) {
        acceptors.remove(port, acceptor);
    }
}
