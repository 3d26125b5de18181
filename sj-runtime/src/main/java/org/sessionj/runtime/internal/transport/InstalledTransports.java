package org.sessionj.runtime.internal.transport;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.sessionj.api.SJException;
import org.sessionj.runtime.spi.Transport;

/**
 * The transports on the class path ({@link ServiceLoader}), each made only when it is first needed:
 * looked up by name, or all of them when a transport list is left to the defaults. A runtime
 * configured to named transports ({@code transports("shm")}) thus makes only those (and the ones
 * listed before them in the service files), and a program that runs in-JVM sessions does not load
 * the TCP, TLS or HTTP transports, their Netty channels and TLS contexts: a third of a fresh JVM's
 * class loading before its first session (issue 15, docs/benchmarks.md "Cold start"). When two
 * transports share a name the first on the class path wins, as it did when all were made at once.
 *
 * <p>Lookups of names already found read an immutable snapshot without a lock (every session set-up
 * does a few); only finding a new transport takes the lock.
 */
final class InstalledTransports {
    private final Iterator<Transport> undiscovered;
    /** Every transport made so far by name, in class-path order; replaced, never changed. */
    private volatile Map<String, Transport> found = Map.of();
    private volatile boolean complete;

    /** Transports made one by one from {@code undiscovered}, as they are needed. */
    InstalledTransports(Iterator<Transport> undiscovered) {
        this.undiscovered = undiscovered;
    }

    /** The transports {@code loader} finds, none made yet. */
    static InstalledTransports load(ClassLoader loader) {
        return new InstalledTransports(ServiceLoader.load(Transport.class, loader).iterator());
    }

    /** Exactly {@code transports} (tests). */
    static InstalledTransports of(List<Transport> transports) {
        return new InstalledTransports(transports.iterator());
    }

    /** The installed transport {@code name}, made now if it was not yet; null when none has that name. */
    Transport find(String name) {
        Transport transport = found.get(name);
        if (transport != null || complete) {
            return transport;
        }
        synchronized (this) {
            while ((transport = found.get(name)) == null && discoverOne()) {
                // the next transport on the class path was made; look again
            }
            return transport;
        }
    }

    /** Every installed transport, in class-path order (all made now). */
    List<Transport> all() {
        if (!complete) {
            synchronized (this) {
                while (discoverOne()) {
                    // make the rest
                }
            }
        }
        return List.copyOf(found.values());
    }

    /** Whether every installed transport has been made ({@link #all()} was needed). */
    boolean complete() {
        return complete;
    }

    /** Whether no transport is installed at all (makes at most the first). */
    synchronized boolean isEmpty() {
        return found.isEmpty() && !hasNext();
    }

    /** Makes the next transport on the class path; false when there is none left. Holds the lock. */
    private boolean discoverOne() {
        if (complete || !hasNext()) {
            complete = true;
            return false;
        }
        Transport next;
        try {
            next = undiscovered.next();
        } catch (ServiceConfigurationError e) {
            throw failed(e);
        }
        if (!found.containsKey(next.name())) {
            Map<String, Transport> more = new LinkedHashMap<>(found);
            more.put(next.name(), next);
            found = Collections.unmodifiableMap(more);
        }
        return true;
    }

    private boolean hasNext() {
        try {
            return undiscovered.hasNext();
        } catch (ServiceConfigurationError e) {
            throw failed(e);
        }
    }

    /** A transport on the class path that cannot be made: say which, as an exception the API may throw. */
    private static SJException failed(ServiceConfigurationError e) {
        return new SJException("an SJ transport on the class path cannot be loaded: " + e.getMessage(), e);
    }
}
