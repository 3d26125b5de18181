package org.sessionj.runtime.spi.support;

import java.time.Duration;

/**
 * Runtime-level liveness of network and cross-process connections: each end sends a heartbeat when
 * it has sent nothing for {@code interval}, and fails the connection when it has heard nothing (no
 * data, no heartbeat) for {@code timeout}. Heartbeats are sent by the transport's own threads (the
 * Netty event loop, the ipc doorbell thread), not by the program, so a peer whose process is frozen
 * (SIGSTOP, a debugger, a machine that stopped) is detected although its sockets stay open.
 *
 * <p>Settings {@code sessionj.heartbeat.interval} (default 5 s) and {@code sessionj.heartbeat.timeout}
 * (default 20 s: four missed heartbeats, conservative so that a long GC pause or a loaded machine is
 * not mistaken for a dead peer); a timeout of {@code none} turns heartbeats off.
 *
 * @param intervalNanos how long an end stays silent before it sends a heartbeat
 * @param timeoutNanos how long an end waits without hearing anything; 0 when heartbeats are off
 */
public record Heartbeat(long intervalNanos, long timeoutNanos) {
    /** The default interval. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    /** The default timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);
    /** No heartbeats. */
    public static final Heartbeat OFF = new Heartbeat(0, 0);

    /** Checks that the interval is shorter than the timeout. */
    public Heartbeat {
        if (timeoutNanos != 0 && (intervalNanos <= 0 || intervalNanos >= timeoutNanos)) {
            throw new IllegalArgumentException("sessionj.heartbeat.interval must be positive and shorter than"
                    + " sessionj.heartbeat.timeout, found " + Duration.ofNanos(intervalNanos) + " and "
                    + Duration.ofNanos(timeoutNanos));
        }
    }

    /** Whether heartbeats are on. */
    public boolean enabled() {
        return timeoutNanos > 0;
    }

    /** The heartbeat settings of this JVM's system properties. */
    public static Heartbeat fromSystemProperties() {
        return from(SystemSettings.system());
    }

    /** The heartbeat settings of {@code settings}. */
    public static Heartbeat from(SystemSettings settings) {
        // Not Optional.map: "none" parses to null, which map would turn into "not set".
        String timeoutText = settings.value("heartbeat.timeout").orElse(null);
        Duration timeout = timeoutText == null ? DEFAULT_TIMEOUT : parse("heartbeat.timeout", timeoutText);
        if (timeout == null) {
            return OFF;
        }
        String intervalText = settings.value("heartbeat.interval").orElse(null);
        Duration interval = intervalText == null
                ? (timeout.compareTo(DEFAULT_TIMEOUT) >= 0 ? DEFAULT_INTERVAL : timeout.dividedBy(4))
                : parse("heartbeat.interval", intervalText);
        if (interval == null) {
            throw SystemSettings.invalid("heartbeat.interval", "a duration shorter than sessionj.heartbeat.timeout",
                    "none");
        }
        return new Heartbeat(interval.toNanos(), timeout.toNanos());
    }

    /** {@code PT5S}, {@code 500ms}, {@code 5s}, {@code 2m}, or {@code none} (null). */
    private static Duration parse(String name, String text) {
        return SystemSettings.parseDuration(name, text);
    }
}
