package org.sessionj.runtime.internal.transport;

import java.lang.reflect.InvocationTargetException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sessionj.api.SJException;
import org.sessionj.runtime.spi.Transport;

/**
 * The installed transports, each made only when it is first needed: looked up by name, or all of them
 * when a transport list is left to the defaults. A runtime configured to named transports
 * ({@code transports("shm")}) thus makes only those, and a program that runs in-JVM sessions does not
 * load the TCP, TLS or HTTP transports, their Netty channels and TLS contexts (issue 15,
 * docs/benchmarks.md "Cold start").
 *
 * <p>Two ways to find one. SJ's own transports ({@link BuiltInTransports}) are made by loading their
 * class by name, which reads no service file: the first {@link ServiceLoader} look-up of a fresh JVM
 * opens and indexes every jar on the class path, about half of the first session's CPU time with an
 * AOT cache. Every other name, a built-in one whose class is not on the class path, and a list left to
 * the defaults ({@link #all()}) ask the service loader, in class-path order, created only then. A
 * built-in transport whose class loads owns its name: the service loader's entry for the same class is
 * the instance already made, and another transport of that name is ignored. Among the others, when two
 * share a name the first on the class path wins.
 *
 * <p>Lookups of names already found read an immutable snapshot without a lock (every session set-up
 * does a few); only finding a new transport takes the lock.
 */
final class InstalledTransports {
    /** A transport the service loader offers: its class's name (null when unknown) and how to make it. */
    record Offered(String className, Supplier<Transport> maker) {
    }

    /** Makes the built-in transport of a name; null when none has it or its class is not on the class path. */
    private final Function<String, Transport> builtIns;
    private final Supplier<Iterator<Offered>> discovery;
    /** The service loader's transports not yet looked at; made on first need. Guarded by this. */
    private Iterator<Offered> undiscovered;
    /** Built-in names already tried by class (made or absent). Guarded by this. */
    private final Set<String> triedBuiltIns = new HashSet<>();
    /** Every transport made so far by name, in the order made; replaced, never changed. */
    private volatile Map<String, Transport> found = Map.of();
    private volatile boolean complete;

    /** Transports made one by one from {@code undiscovered}, as they are needed, and no built-in ones (tests). */
    InstalledTransports(Iterator<Transport> undiscovered) {
        this(name -> null, () -> new Iterator<>() {
            @Override
            public boolean hasNext() {
                return undiscovered.hasNext();
            }

            @Override
            public Offered next() {
                Transport next = undiscovered.next();
                return new Offered(null, () -> next);
            }
        });
    }

    /**
     * Built-in transports made by {@code builtIns} (null: not built in, or not on the class path), the
     * others from {@code discovery}, which is asked for its iterator only when a name is not built in.
     */
    InstalledTransports(Function<String, Transport> builtIns, Supplier<Iterator<Offered>> discovery) {
        this.builtIns = builtIns;
        this.discovery = discovery;
    }

    /** The transports {@code loader} sees: built-in ones by class name, the others by its service files. */
    static InstalledTransports load(ClassLoader loader) {
        return new InstalledTransports(name -> makeBuiltIn(BuiltInTransports.className(name), loader),
                () -> ServiceLoader.load(Transport.class, loader).stream()
                        .map(p -> new Offered(p.type().getName(), p::get)).iterator());
    }

    /** Exactly {@code transports} (tests). */
    static InstalledTransports of(List<Transport> transports) {
        return new InstalledTransports(transports.iterator());
    }

    /**
     * A new instance of the transport class {@code className} as {@code loader} loads it; null when
     * {@code className} is null, the class is not there, is no {@link Transport} of this runtime, or the
     * module system does not let this runtime make it (the service loader may, through {@code provides}).
     *
     * @throws SJException when the class is there but cannot be loaded or made (as the service loader's
     *                     error would say)
     */
    static Transport makeBuiltIn(String className, ClassLoader loader) {
        if (className == null) {
            return null;
        }
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            return null;
        } catch (LinkageError e) {
            throw failed(className, e);
        }
        if (!Transport.class.isAssignableFrom(type)) {
            return null;
        }
        try {
            return Transport.class.cast(type.getConstructor().newInstance());
        } catch (IllegalAccessException | java.lang.reflect.InaccessibleObjectException e) {
            return null; // the module system's rules: left to the service loader
        } catch (InvocationTargetException e) {
            throw failed(className, e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw failed(className, e);
        }
    }

    /** The installed transport {@code name}, made now if it was not yet; null when none has that name. */
    Transport find(String name) {
        Transport transport = found.get(name);
        if (transport != null || complete && BuiltInTransports.className(name) == null) {
            return transport;
        }
        synchronized (this) {
            if ((transport = builtIn(name)) != null) {
                return transport;
            }
            while ((transport = found.get(name)) == null && discoverOne()) {
                // the next transport on the class path was made; look again
            }
            return transport;
        }
    }

    /**
     * Every installed transport the service loader finds (all made now), with the built-in ones made
     * by name before, in the order made.
     */
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

    /** Whether no transport is installed at all (makes at most the first the service loader offers). */
    boolean isEmpty() {
        return isEmpty(List.of());
    }

    /**
     * Whether no transport is installed at all. False at once, without the service loader, when one of
     * {@code wanted} is a built-in transport on the class path (it is made now); otherwise the service
     * loader is asked whether it has any (none is made).
     */
    synchronized boolean isEmpty(Collection<String> wanted) {
        if (!found.isEmpty()) {
            return false;
        }
        for (String name : wanted) {
            if (builtIn(name) != null) {
                return false;
            }
        }
        return !hasNext();
    }

    /** The built-in transport {@code name}: made by class on the first call for it. Holds the lock. */
    private Transport builtIn(String name) {
        Transport transport = found.get(name);
        if (transport != null || !triedBuiltIns.add(name)) {
            return transport;
        }
        transport = builtIns.apply(name);
        if (transport == null) {
            return null;
        }
        add(transport);
        return found.get(name);
    }

    /** Looks at the next transport the service loader offers; false when there is none left. Holds the lock. */
    private boolean discoverOne() {
        if (complete || !hasNext()) {
            complete = true;
            return false;
        }
        Transport next;
        try {
            Offered offered = undiscovered.next();
            String builtInName = offered.className() == null ? null : BuiltInTransports.nameOf(offered.className());
            if (builtInName != null && found.containsKey(builtInName)) {
                return true; // made by name already: not a second instance
            }
            next = offered.maker().get();
        } catch (ServiceConfigurationError e) {
            throw failed(e);
        }
        String name = next.name();
        if (found.containsKey(name)) {
            return true; // the first of a name wins
        }
        if (BuiltInTransports.className(name) != null && !next.getClass().getName().equals(BuiltInTransports.className(name))
                && builtIn(name) != null) {
            return true; // a built-in name whose own class is on the class path: that one
        }
        add(next);
        return true;
    }

    private void add(Transport transport) {
        if (!found.containsKey(transport.name())) {
            Map<String, Transport> more = new LinkedHashMap<>(found);
            more.put(transport.name(), transport);
            found = Collections.unmodifiableMap(more);
        }
    }

    private boolean hasNext() {
        try {
            if (undiscovered == null) {
                undiscovered = discovery.get();
            }
            return undiscovered.hasNext();
        } catch (ServiceConfigurationError e) {
            throw failed(e);
        }
    }

    /** A transport on the class path that cannot be made: say which, as an exception the API may throw. */
    private static SJException failed(ServiceConfigurationError e) {
        return new SJException("an SJ transport on the class path cannot be loaded: " + e.getMessage(), e);
    }

    /** A built-in transport whose class is there but cannot be loaded or made. */
    private static SJException failed(String className, Throwable cause) {
        return new SJException("an SJ transport on the class path cannot be loaded: " + className + ": " + cause, cause);
    }
}
