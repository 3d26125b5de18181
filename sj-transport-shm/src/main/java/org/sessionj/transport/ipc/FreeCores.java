package org.sessionj.transport.ipc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a reader may spin without taking a core another thread waits for: the kernel's count of
 * threads runnable right now (the fourth field of {@code /proc/loadavg}, {@code running/total}; the
 * thread reading it is one of them) is at most the CPUs this JVM may use. On an oversubscribed machine
 * (three ranks on two vCPUs all computing, or other processes' builds) it is above them, and a spinning
 * reader would hold a core the writer it waits for may need.
 *
 * <p>The file is read at most once per {@link #TTL_NANOS} per instance (a read costs a few
 * microseconds: an open, a read and a close); where it cannot be read or parsed (not Linux) the answer
 * is always no, and the file is not tried again.
 */
final class FreeCores {
    /** How long one look at the run queue stands for (1 ms). */
    static final long TTL_NANOS = 1_000_000L;

    /** Where the text comes from (a file; a fake in tests). */
    interface Source {
        /** The text of {@code /proc/loadavg}. */
        String read() throws IOException;
    }

    /** This machine's run queue. */
    static final FreeCores SYSTEM = new FreeCores(() -> Files.readString(Path.of("/proc/loadavg")));

    private final Source source;
    private volatile boolean unreadable;
    private volatile boolean looked;
    private volatile long lookedAt;
    private volatile int running;

    FreeCores(Source source) {
        this.source = source;
    }

    /** A run queue that always has room (tests). */
    static FreeCores always() {
        return new FreeCores(() -> "0.00 0.00 0.00 1/1 1");
    }

    /** A run queue that never has room (tests). */
    static FreeCores never() {
        return new FreeCores(() -> "9.00 9.00 9.00 1000000/1000000 1");
    }

    /** Whether every runnable thread has one of {@code cpus} CPUs, as of a look at most 1 ms before {@code now}. */
    boolean free(int cpus, long now) {
        if (unreadable) {
            return false;
        }
        if (!looked || now - lookedAt >= TTL_NANOS) {
            int found;
            try {
                found = running(source.read());
            } catch (IOException | RuntimeException e) {
                found = -1;
            }
            if (found < 0) {
                unreadable = true;
                return false;
            }
            running = found;
            lookedAt = now;
            looked = true;
        }
        return running <= cpus;
    }

    /** The runnable threads in a {@code /proc/loadavg} text ({@code 0.52 0.58 0.59 3/512 12345}), or -1. */
    static int running(String loadavg) {
        String[] fields = loadavg.strip().split("\\s+");
        if (fields.length < 4) {
            return -1;
        }
        int slash = fields[3].indexOf('/');
        if (slash <= 0) {
            return -1;
        }
        try {
            int running = Integer.parseInt(fields[3], 0, slash, 10);
            return running >= 0 ? running : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
