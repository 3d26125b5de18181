package org.sessionj.transport.shm;

import java.time.Duration;
import java.util.Objects;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * The in-JVM transport's bounds, read from system properties when a connection is made.
 *
 * @param backlogBytes bytes written to one direction and not yet read past which the writer waits, up
 *     to its send timeout, as on TCP ({@code sessionj.shm.backlogBytes}, default 4 MiB)
 * @param orphanTimeoutNanos how long after the last thread of an end ended without closing it the
 *     peer gives up waiting on that end ({@code sessionj.shm.orphanTimeout}, default 2 s); 0: never
 */
record ShmSettings(long backlogBytes, long orphanTimeoutNanos) {
    /** The default backlog bound: as the ipc transport's. */
    static final int DEFAULT_BACKLOG_BYTES = 4 << 20;
    /** The default orphan timeout. */
    static final Duration DEFAULT_ORPHAN_TIMEOUT = Duration.ofSeconds(2);
    /** No bound, no watch: for the acceptor's sentinel, which never carries data. */
    static final ShmSettings UNBOUNDED = new ShmSettings(Long.MAX_VALUE, 0);

    ShmSettings {
        if (backlogBytes <= 0) {
            throw new IllegalArgumentException("sessionj.shm.backlogBytes must be positive, found " + backlogBytes);
        }
        if (orphanTimeoutNanos < 0) {
            throw new IllegalArgumentException("negative orphan timeout " + orphanTimeoutNanos);
        }
    }

    /** The properties the last settings were read from, and those settings. */
    private record Read(String backlog, String orphan, String oldBacklog, String oldOrphan, ShmSettings settings) {
        boolean matches(String b, String o, String ob, String oo) {
            return Objects.equals(backlog, b) && Objects.equals(orphan, o) && Objects.equals(oldBacklog, ob)
                    && Objects.equals(oldOrphan, oo);
        }
    }

    private static volatile Read last;
    // The property names, made once: a name built per call is a new String whose hash the property
    // table computes again on every lookup (four per session).
    private static final String BACKLOG = SystemSettings.property("shm.backlogBytes");
    private static final String ORPHAN = SystemSettings.property("shm.orphanTimeout");
    private static final String OLD_BACKLOG = SystemSettings.DEPRECATED_PREFIX + "shm.backlogBytes";
    private static final String OLD_ORPHAN = SystemSettings.DEPRECATED_PREFIX + "shm.orphanTimeout";

    /**
     * The settings of this JVM's system properties now: parsed again only when one of the properties
     * changed since the last call (a connection is made per session; parsing a duration per session was
     * a measurable part of an in-JVM session's set-up).
     */
    static ShmSettings fromSystemProperties() {
        String b = System.getProperty(BACKLOG);
        String o = System.getProperty(ORPHAN);
        String ob = System.getProperty(OLD_BACKLOG);
        String oo = System.getProperty(OLD_ORPHAN);
        Read read = last;
        if (read != null && read.matches(b, o, ob, oo)) {
            return read.settings();
        }
        ShmSettings settings = parse();
        last = new Read(b, o, ob, oo, settings);
        return settings;
    }

    private static ShmSettings parse() {
        SystemSettings settings = SystemSettings.system();
        int backlog = settings.integer("shm.backlogBytes", DEFAULT_BACKLOG_BYTES);
        if (backlog <= 0) {
            throw SystemSettings.invalid("shm.backlogBytes", "a positive number of bytes", String.valueOf(backlog));
        }
        Duration orphan = settings.duration("shm.orphanTimeout", DEFAULT_ORPHAN_TIMEOUT).orElse(null);
        return new ShmSettings(backlog, orphan == null ? 0 : orphan.toNanos());
    }

    /** How often a waiting end looks at its peer's thread: half the orphan timeout (0: never). */
    long watchNanos() {
        return orphanTimeoutNanos / 2;
    }
}
