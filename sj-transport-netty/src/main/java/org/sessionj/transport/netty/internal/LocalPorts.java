package org.sessionj.transport.netty.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Answers {@code canReach} for TCP ports without connecting (a probe connection would show up in
 * the acceptor's queue): ports this JVM listens on are reachable; on another host any port may be;
 * on this host a port is reachable when something listens on it, which the kernel's socket table
 * (or else a trial bind) tells.
 */
public final class LocalPorts {
    private static final Set<Integer> LISTENING = ConcurrentHashMap.newKeySet();
    /** Ports of other processes found listening, with when (System.nanoTime); bounded, see canReach. */
    private static final ConcurrentHashMap<Integer, Long> SEEN_LISTENING = new ConcurrentHashMap<>();
    /**
     * When this JVM last released each port (System.nanoTime): a sighting from a table read that began
     * before then is stale. Reads race with closes (awaitReleased's own, or another thread's canReach),
     * and a read that began while the port was still listed may record it after the release.
     */
    private static final ConcurrentHashMap<Integer, Long> RELEASED_AT = new ConcurrentHashMap<>();
    private static final int REMEMBERED_PORTS = 4096;
    private static final long SEEN_VALID_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How old a sighting may be and still answer {@link #canReach} at once while the tables are read
     * again in the background (see there); an older one is read again before the answer.
     */
    private static final long SEEN_USABLE_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Ports whose sightings a background read is to renew. */
    private static final Set<Integer> TO_REFRESH = ConcurrentHashMap.newKeySet();
    /** Whether the background reader runs (at most one at a time). */
    private static final java.util.concurrent.atomic.AtomicBoolean REFRESHING =
            new java.util.concurrent.atomic.AtomicBoolean();
    private static final java.util.concurrent.locks.ReentrantLock REFRESH_LOCK =
            new java.util.concurrent.locks.ReentrantLock();
    private static final java.util.concurrent.locks.Condition REFRESH_DONE = REFRESH_LOCK.newCondition();
    private static final List<Path> PROC_TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private LocalPorts() {
    }

    static void listening(int port) {
        LISTENING.add(port);
    }

    /** Called once the kernel no longer lists {@code port} as listening (see {@link #awaitReleased}). */
    static void released(int port) {
        LISTENING.remove(port);
        if (RELEASED_AT.size() > REMEMBERED_PORTS) {
            RELEASED_AT.clear();
            SEEN_LISTENING.clear();
        }
        RELEASED_AT.put(port, System.nanoTime());
        SEEN_LISTENING.remove(port);
    }

    /**
     * The exception for a listen that failed with {@code cause}: a {@link java.net.BindException} when
     * the port is taken (NIO throws one; Netty's epoll channel an {@code IOException} with the
     * kernel's "Address already in use"), so that a runtime that chose the port tries another
     * (Transport.listen's contract); a plain {@code IOException} otherwise.
     */
    static IOException listenFailure(String message, Throwable cause) {
        Throwable root = cause;
        while (root != null && root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != null && root.getMessage() != null && !message.contains(root.getMessage())) {
            // "Unable to create Channel from class …" says nothing; its cause says "Too many open files"
            message = message + " (" + root.getMessage() + ")";
        }
        boolean taken = false;
        for (Throwable t = cause; t != null && !taken; t = t.getCause() == t ? null : t.getCause()) {
            taken = t instanceof java.net.BindException
                    || (t.getMessage() != null && t.getMessage().contains("Address already in use"));
        }
        IOException failure = taken ? new java.net.BindException(message) : new IOException(message);
        failure.initCause(cause);
        return failure;
    }

    /** Whether a TCP connection to {@code host:port} could succeed, as far as can be told cheaply. */
    public static boolean canReach(String host, int port) {
        if (port < 1 || port > 65535) {
            return false;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return false;
        }
        if (!isLocal(address)) {
            return true;
        }
        if (LISTENING.contains(port)) {
            return true;
        }
        return canReachLocal(port, System.nanoTime());
    }

    /**
     * {@link #canReach} for a port on this host that this JVM does not listen on, at {@code now}
     * (System.nanoTime; a parameter so that tests can age a sighting without waiting).
     *
     * <p>The kernel's tables grow with every socket of the host: after a burst of sessions they list
     * tens of thousands in TIME_WAIT, and one read took 0.1–1.7 s on a loaded 2-core machine. Reading
     * them per request would cost more than the session, so a port seen listening lately is taken to
     * listen still (if it no longer does, the connect is refused and says so, and the next setup
     * transport is tried). A sighting younger than a second answers alone; one up to
     * {@link #SEEN_USABLE_NANOS} old answers too, while one background thread reads the tables again:
     * before, the first request after each second read them itself, so a client next to a busy server
     * waited for that read once a second (the accept-load probe's slowest sessions, 100–380 ms, came
     * exactly 1 s apart). A sighting older than that, or from before this JVM released the port, is
     * read again before the answer.
     */
    static boolean canReachLocal(int port, long now) {
        Long seen = SEEN_LISTENING.get(port);
        Long releasedAt = RELEASED_AT.get(port);
        if (seen != null && (releasedAt == null || seen - releasedAt > 0)) {
            long age = now - seen;
            if (age < SEEN_VALID_NANOS) {
                return true;
            }
            if (age < SEEN_USABLE_NANOS) {
                refreshLater(port);
                return true;
            }
        }
        boolean listening = isListening(port);
        if (listening) {
            remember(port, now);
        } else {
            SEEN_LISTENING.remove(port);
        }
        return listening;
    }

    /** Has {@code port}'s sighting renewed by the background reader, starting it if it does not run. */
    private static void refreshLater(int port) {
        if (TO_REFRESH.add(port) && REFRESHING.compareAndSet(false, true)) {
            try {
                Thread.ofPlatform().daemon().name("sj-local-ports").start(LocalPorts::refreshAll);
            } catch (RuntimeException | OutOfMemoryError e) {
                // No thread to be had: the sighting ages out, and a later canReach reads the tables itself.
                TO_REFRESH.clear();
                REFRESHING.set(false);
                refreshed();
            }
        }
    }

    /** The background reader: renews the sightings asked for, until none is left. */
    private static void refreshAll() {
        do {
            Set<Integer> ports = new HashSet<>(TO_REFRESH);
            try {
                refresh(ports);
            } catch (RuntimeException | Error e) {
                // Unreadable for once: the sightings age out, and a later canReach reads the tables itself.
            } finally {
                TO_REFRESH.removeAll(ports);
            }
            REFRESHING.set(false);
            refreshed();
        } while (!TO_REFRESH.isEmpty() && REFRESHING.compareAndSet(false, true));
    }

    /**
     * One read of the tables for {@code ports}: each listed one is seen listening as of the read's start,
     * each other one loses its sighting (unless a read that began later renewed it meanwhile).
     */
    private static void refresh(Set<Integer> ports) {
        long start = System.nanoTime();
        Set<Integer> listed = tableListeners(start);
        for (int port : ports) {
            boolean listening = listed != null ? listed.contains(port) : isListening(port);
            if (listening) {
                remember(port, start);
            } else {
                SEEN_LISTENING.computeIfPresent(port, (p, seen) -> seen - start < 0 ? null : seen);
            }
        }
    }

    private static void refreshed() {
        REFRESH_LOCK.lock();
        try {
            REFRESH_DONE.signalAll();
        } finally {
            REFRESH_LOCK.unlock();
        }
    }

    /**
     * For tests: waits until no background read is asked for or running, at most {@code timeout}.
     *
     * @return whether it got there in time
     */
    static boolean awaitRefreshes(java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        REFRESH_LOCK.lock();
        try {
            while (REFRESHING.get() || !TO_REFRESH.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                REFRESH_DONE.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
            }
            return true;
        } finally {
            REFRESH_LOCK.unlock();
        }
    }

    /** For tests: when {@code port} was last seen listening (System.nanoTime), or null. */
    static Long seenAt(int port) {
        return SEEN_LISTENING.get(port);
    }

    /**
     * Whether a socket on this host listens on TCP port {@code port}: from {@code /proc/net/tcp*}
     * where there is one (exact: a client socket using the port locally does not count), otherwise
     * by a trial bind.
     */
    static boolean isListening(int port) {
        Boolean listed = listedAsListening(port);
        if (listed != null) {
            return listed;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(port));
            return false; // nobody listens there
        } catch (IOException e) {
            return true; // taken: someone listens
        }
    }

    /**
     * From the kernel's socket tables; null where they cannot be read (not Linux). Every other port the
     * tables list as listening is remembered as seen listening now too ({@link #canReach}): reading the
     * tables is the expensive part (the kernel walks every socket of the host; tens of milliseconds on
     * a busy machine with hundreds of them), and a program that talks to several local servers (the
     * demos' ranks, each with every other) otherwise read them once per server.
     */
    private static Boolean listedAsListening(int port) {
        Set<Integer> listed = tableListeners(System.nanoTime());
        return listed == null ? null : listed.contains(port);
    }

    /**
     * The ports the kernel's tables list as listening, each remembered as seen at {@code readStart};
     * null where the tables cannot be read.
     */
    private static Set<Integer> tableListeners(long readStart) {
        Set<Integer> all = null;
        for (Path table : PROC_TABLES) {
            String text;
            try {
                text = new String(Files.readAllBytes(table), StandardCharsets.ISO_8859_1);
            } catch (IOException | UncheckedIOException e) {
                continue;   // no such table (no IPv6, not Linux)
            }
            if (all == null) {
                all = new HashSet<>();
            }
            for (int listener : listeners(text)) {
                all.add(listener);
                remember(listener, readStart);
            }
        }
        return all;
    }

    /** Records {@code port} as seen listening by a table read that began at {@code readStart}. */
    static void remember(int port, long readStart) {
        if (SEEN_LISTENING.size() > REMEMBERED_PORTS) {
            SEEN_LISTENING.clear();
        }
        SEEN_LISTENING.put(port, readStart);
    }

    /**
     * The local ports of the sockets in state LISTEN ({@code 0A}) in {@code table}, the text of
     * {@code /proc/net/tcp} or {@code tcp6}: columns {@code sl local_address rem_address st …}, each
     * address {@code HEX:PORT} with a port of four hex digits. Parsed by hand, without a regular
     * expression per line: in a fresh JVM that cost milliseconds per read, inside a program's first
     * sessions. Lines that do not parse are skipped.
     */
    static Set<Integer> listeners(String table) {
        Set<Integer> ports = new HashSet<>();
        int line = table.indexOf('\n') + 1;                   // after the header
        while (line > 0 && line < table.length()) {
            int end = table.indexOf('\n', line);
            if (end < 0) {
                end = table.length();
            }
            int local = skipSpaces(table, table.indexOf(':', line) + 1);     // after "  12:"
            int localEnd = table.indexOf(' ', local);
            int state = skipSpaces(table, table.indexOf(' ', skipSpaces(table, localEnd)));
            if (local > line && localEnd > local + 5 && localEnd < end && state + 2 <= end
                    && table.charAt(localEnd - 5) == ':' && table.startsWith("0A", state)) {
                try {
                    ports.add(Integer.parseInt(table, localEnd - 4, localEnd, 16));
                } catch (NumberFormatException e) {
                    // not a table line after all
                }
            }
            line = end + 1;
        }
        return ports;
    }

    private static int skipSpaces(String text, int from) {
        int at = from;
        while (at >= 0 && at < text.length() && text.charAt(at) == ' ') {
            at++;
        }
        return at;
    }

    /**
     * Waits (at most two seconds) until nothing listens on {@code port} any more. With NIO a closed
     * server socket is released only at its selector's next select, after the close has completed.
     */
    static void awaitReleased(int port) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (isListening(port) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }

    private static boolean isLocal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
