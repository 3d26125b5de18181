package org.sessionj.runtime.internal.transport;

import java.util.List;

/**
 * SJ's own transports, by name and class: the index a runtime reads before it asks
 * {@link java.util.ServiceLoader}. A runtime that names its transports ({@code transports("shm")},
 * {@code sessionj.transports=shm}) makes a built-in one by loading its class, so a fresh JVM's first
 * session reads no service file: a service look-up opens and indexes every jar on the class path,
 * which was about half of the first session's CPU time with an AOT cache (issue 15, docs/benchmarks.md
 * "Cold start"). Third-party transports are still found by the service loader, which runs only for a
 * name that is not here, or whose class is not on the class path, or when a transport list is left to
 * the defaults. Each transport module's tests check that its service file and this index agree.
 */
public final class BuiltInTransports {
    /** Name, class name (the order is of no consequence: a list left to the defaults is sorted). */
    private static final String[][] INDEX = {
        {"shm", "org.sessionj.transport.shm.ShmTransport"},
        {"ipc", "org.sessionj.transport.ipc.IpcTransport"},
        {"tcp", "org.sessionj.transport.tcp.TcpTransport"},
        {"tls", "org.sessionj.transport.tls.TlsTransport"},
        {"http", "org.sessionj.transport.http.HttpTransport"},
        {"https", "org.sessionj.transport.http.HttpsTransport"},
    };

    private BuiltInTransports() {
    }

    /** The class of SJ's own transport {@code name}, or null when no built-in transport has that name. */
    public static String className(String name) {
        for (String[] entry : INDEX) {
            if (entry[0].equals(name)) {
                return entry[1];
            }
        }
        return null;
    }

    /** The name of SJ's own transport class {@code className}, or null when it is not one. */
    public static String nameOf(String className) {
        for (String[] entry : INDEX) {
            if (entry[1].equals(className)) {
                return entry[0];
            }
        }
        return null;
    }

    /** Every built-in transport's name. */
    public static List<String> names() {
        String[] names = new String[INDEX.length];
        for (int i = 0; i < INDEX.length; i++) {
            names[i] = INDEX[i][0];
        }
        return List.of(names);
    }
}
