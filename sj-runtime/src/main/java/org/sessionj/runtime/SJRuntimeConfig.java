package org.sessionj.runtime;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * Settings of a session runtime, built fluently and validated when built:
 *
 * <pre>{@code
 * SJRuntimeConfig config = SJRuntimeConfig.builder()
 *         .setupTransports("shm", "tcp")
 *         .sessionTransports("shm", "tls")
 *         .defaultTimeout(Duration.ofSeconds(30))
 *         .monitor(true)
 *         .batchBytes(64 * 1024)
 *         .build();
 * }</pre>
 *
 * The process-wide default ({@link #defaults()}) comes from system properties, each optional:
 * {@code sessionj.transports} (comma-separated names; sets both lists), {@code sessionj.setupTransports} and
 * {@code sessionj.sessionTransports} (each list on its own, see {@link TransportPreferences}), {@code sessionj.receiveTimeout}
 * (older name {@code sessionj.timeout}) and
 * {@code sessionj.initiationTimeout}, {@code sessionj.setupAttemptTimeout}, {@code sessionj.sendTimeout} (ISO-8601 like {@code PT5S}, or {@code 500ms}, {@code 5s},
 * {@code 2m}, or {@code none}), {@code sessionj.monitor} ({@code true}/{@code false}),
 * {@code sessionj.batchBytes}, {@code sessionj.maxPendingHandshakes}, {@code sessionj.acceptQueue} and
 * {@code sessionj.maxRequesterTypeBytes} (positive integers), {@code sessionj.acceptTimeout} (a duration or {@code none}).
 */
public final class SJRuntimeConfig {
    /** The most output a session buffers before it flushes anyway, by default. */
    public static final int DEFAULT_BATCH_BYTES = 64 * 1024;
    /** The largest accepted batch bound. */
    public static final int MAX_BATCH_BYTES = 64 * 1024 * 1024;
    /** How long a request or accept waits for the peer's half of the initiation, by default. */
    public static final Duration DEFAULT_INITIATION_TIMEOUT = Duration.ofSeconds(30);
    /** How long a requester tries one setup transport before the next, by default. */
    public static final Duration DEFAULT_SETUP_ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    /**
     * How many session requests a server socket handles at once by default: handshakes in progress
     * plus sessions agreed but not yet taken by {@code accept()}.
     */
    public static final int DEFAULT_MAX_PENDING_HANDSHAKES = 4096;
    /** The longest requester session type a server checks, by default: far below any frame limit. */
    public static final int DEFAULT_MAX_REQUESTER_TYPE_BYTES = 64 * 1024;
    /**
     * How long an agreed session may wait for {@code accept()} by default before it is failed: long enough
     * for a server that serves its sessions one at a time to get round to the next, short enough that a
     * requester of a server whose accept loop stopped learns it instead of waiting forever.
     */
    public static final Duration DEFAULT_ACCEPT_TIMEOUT = Duration.ofSeconds(60);
    /**
     * How many agreed sessions may wait for {@code accept()} per server socket by default; the next
     * request is refused until the program takes some.
     */
    public static final int DEFAULT_ACCEPT_QUEUE = 1024;

    private final TransportPreferences transports;
    private final Duration defaultTimeout;
    private final Duration initiationTimeout;
    private final Duration setupAttemptTimeout;
    private final boolean monitor;
    private final int batchBytes;
    private final int maxPendingHandshakes;
    private final int maxRequesterTypeBytes;
    private final Duration sendTimeout;
    private final Duration acceptTimeout;
    private final int acceptQueue;

    private SJRuntimeConfig(Builder builder) {
        this.transports = builder.transports;
        this.defaultTimeout = builder.defaultTimeout;
        this.initiationTimeout = builder.initiationTimeout;
        this.setupAttemptTimeout = builder.setupAttemptTimeout;
        this.monitor = builder.monitor;
        this.batchBytes = builder.batchBytes;
        this.maxPendingHandshakes = builder.maxPendingHandshakes;
        this.maxRequesterTypeBytes = builder.maxRequesterTypeBytes;
        this.sendTimeout = builder.sendTimeout;
        this.acceptTimeout = builder.acceptTimeout;
        this.acceptQueue = builder.acceptQueue;
    }

    /** A builder with every setting at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.transports = transports;
        builder.defaultTimeout = defaultTimeout;
        builder.initiationTimeout = initiationTimeout;
        builder.setupAttemptTimeout = setupAttemptTimeout;
        builder.monitor = monitor;
        builder.batchBytes = batchBytes;
        builder.maxPendingHandshakes = maxPendingHandshakes;
        builder.maxRequesterTypeBytes = maxRequesterTypeBytes;
        builder.sendTimeout = sendTimeout;
        builder.acceptTimeout = acceptTimeout;
        builder.acceptQueue = acceptQueue;
        return builder;
    }

    /** The defaults, overridden by the {@code sessionj.*} system properties. */
    public static SJRuntimeConfig defaults() {
        return fromSettings(SystemSettings.system());
    }

    /** The defaults, overridden by the {@code sessionj.*} keys of {@code properties}. */
    public static SJRuntimeConfig fromProperties(Properties properties) {
        return fromSettings(SystemSettings.of(properties));
    }

    private static SJRuntimeConfig fromSettings(SystemSettings settings) {
        Builder builder = builder();
        settings.value("transports").ifPresent(list -> builder.transports(names(list)));
        settings.value("setupTransports").ifPresent(list -> builder.setupTransports(names(list)));
        settings.value("sessionTransports").ifPresent(list -> builder.sessionTransports(names(list)));
        // receiveTimeout, or its older name timeout
        java.util.Optional<String> receiveTimeout = settings.value("receiveTimeout");
        if (receiveTimeout.isPresent()) {
            builder.defaultTimeout(parseDuration("receiveTimeout", receiveTimeout.get()));
        } else {
            settings.value("timeout").ifPresent(text -> builder.defaultTimeout(parseDuration("timeout", text)));
        }
        settings.value("initiationTimeout")
                .ifPresent(text -> builder.initiationTimeout(parseDuration("initiationTimeout", text)));
        settings.value("setupAttemptTimeout")
                .ifPresent(text -> builder.setupAttemptTimeout(parseDuration("setupAttemptTimeout", text)));
        settings.value("sendTimeout").ifPresent(text -> builder.sendTimeout(parseDuration("sendTimeout", text)));
        builder.monitor(settings.flag("monitor", builder.monitor));
        builder.batchBytes(settings.integer("batchBytes", builder.batchBytes));
        builder.maxPendingHandshakes(settings.integer("maxPendingHandshakes", builder.maxPendingHandshakes));
        builder.maxRequesterTypeBytes(settings.integer("maxRequesterTypeBytes", builder.maxRequesterTypeBytes));
        settings.value("acceptTimeout").ifPresent(text -> builder.acceptTimeout(parseDuration("acceptTimeout", text)));
        builder.acceptQueue(settings.integer("acceptQueue", builder.acceptQueue));
        return builder.build();
    }

    private static String[] names(String list) {
        return list.strip().split("\\s*,\\s*");
    }

    /** Parses setting {@code name}: {@code PT5S}, {@code 500ms}, {@code 5s}, {@code 2m} or {@code none} (null). */
    static Duration parseDuration(String name, String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        if (value.equals("none")) {
            return null;
        }
        try {
            if (value.startsWith("p")) {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            }
            if (value.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            }
            if (value.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
            }
            if (value.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // reported below
        }
        throw SystemSettings.invalid(name, "a duration like PT5S, 500ms, 5s, 2m or none", text);
    }

    /**
     * The setup and session transports in order of preference; an empty list means every installed
     * transport that is enabled by default, in-JVM first (docs/negotiation.md).
     */
    public TransportPreferences transports() {
        return transports;
    }

    /** The input timeout of {@code receive()} and friends without a timeout; null waits forever. */
    public Duration defaultTimeout() {
        return defaultTimeout;
    }

    /** How long session initiation waits for the peer. */
    public Duration initiationTimeout() {
        return initiationTimeout;
    }

    /**
     * How long a requester tries one setup transport when others follow it (a firewall that drops
     * packets makes a connect hang); null: the whole initiation timeout.
     */
    public Duration setupAttemptTimeout() {
        return setupAttemptTimeout;
    }

    /** Whether the runtime monitor checks every action against the session type. */
    public boolean monitor() {
        return monitor;
    }

    /** The output a session buffers before flushing even though its type has no input next. */
    public int batchBytes() {
        return batchBytes;
    }

    /**
     * The most session requests a server socket handles at once: handshakes in progress plus sessions
     * agreed but not yet taken by {@code accept()}. At the limit the server takes no new connection
     * until one of them ends (they wait in the transport's backlog).
     */
    public int maxPendingHandshakes() {
        return maxPendingHandshakes;
    }

    /**
     * How long an output waits for room when the peer takes nothing (its transport's outbound buffers
     * are full) before it fails with {@link org.sessionj.api.SendTimeoutException}; null waits as long
     * as the connection lives.
     */
    public Duration sendTimeout() {
        return sendTimeout;
    }

    /** The longest requester session type (UTF-8 bytes) a server checks; a longer one is refused unread. */
    public int maxRequesterTypeBytes() {
        return maxRequesterTypeBytes;
    }

    /**
     * How long a session agreed by a server socket may wait for {@code accept()}: past it the server fails
     * the session and its requester learns why ("the server did not accept the session within …"),
     * instead of waiting in its first receive for a program that may never call {@code accept()} again;
     * null: as long as the server socket is open.
     */
    public Duration acceptTimeout() {
        return acceptTimeout;
    }

    /**
     * The most agreed sessions that wait for {@code accept()} on one server socket; while that many wait,
     * a new request is refused ("… sessions agreed and not yet accepted …"), so that a server whose program
     * stopped accepting fails its requesters at once instead of taking their sessions.
     */
    public int acceptQueue() {
        return acceptQueue;
    }

    @Override
    public String toString() {
        return "SJRuntimeConfig[setupTransports=" + describe(transports.setup())
                + ", sessionTransports=" + describe(transports.session())
                + ", defaultTimeout=" + (defaultTimeout == null ? "none" : defaultTimeout)
                + ", initiationTimeout=" + initiationTimeout
                + ", setupAttemptTimeout=" + (setupAttemptTimeout == null ? "none" : setupAttemptTimeout) + ", monitor=" + monitor + ", batchBytes=" + batchBytes
                + ", maxPendingHandshakes=" + maxPendingHandshakes + ", maxRequesterTypeBytes=" + maxRequesterTypeBytes
                + ", sendTimeout=" + (sendTimeout == null ? "none" : sendTimeout)
                + ", acceptTimeout=" + (acceptTimeout == null ? "none" : acceptTimeout) + ", acceptQueue=" + acceptQueue + "]";
    }

    private static String describe(List<String> names) {
        return names.isEmpty() ? "installed defaults" : names.toString();
    }

    /** Builds a validated {@link SJRuntimeConfig}; each setter rejects bad values at once. */
    public static final class Builder {
        private TransportPreferences transports = TransportPreferences.unset();
        private Duration defaultTimeout;
        private Duration initiationTimeout = DEFAULT_INITIATION_TIMEOUT;
        private Duration setupAttemptTimeout = DEFAULT_SETUP_ATTEMPT_TIMEOUT;
        private boolean monitor = true;
        private int batchBytes = DEFAULT_BATCH_BYTES;
        private int maxPendingHandshakes = DEFAULT_MAX_PENDING_HANDSHAKES;
        private int maxRequesterTypeBytes = DEFAULT_MAX_REQUESTER_TYPE_BYTES;
        private Duration sendTimeout;
        private Duration acceptTimeout = DEFAULT_ACCEPT_TIMEOUT;
        private int acceptQueue = DEFAULT_ACCEPT_QUEUE;

        private Builder() {
        }

        /**
         * The same transports for setup and for sessions, most preferred first (e.g. {@code "shm", "tcp"});
         * none means all installed that are enabled by default.
         */
        public Builder transports(String... names) {
            List<String> list = TransportPreferences.checked("", Arrays.asList(Objects.requireNonNull(names, "names")));
            this.transports = new TransportPreferences(list, list);
            return this;
        }

        /** The transports tried in order to reach a peer's session port (paper 000 §5.3, S). */
        public Builder setupTransports(String... names) {
            this.transports = new TransportPreferences(Arrays.asList(Objects.requireNonNull(names, "names")),
                    transports.session());
            return this;
        }

        /** The transports this runtime accepts for sessions, most preferred first (paper 000 §5.3, T). */
        public Builder sessionTransports(String... names) {
            this.transports = new TransportPreferences(transports.setup(),
                    Arrays.asList(Objects.requireNonNull(names, "names")));
            return this;
        }

        /** Both lists at once. */
        public Builder transports(TransportPreferences preferences) {
            this.transports = Objects.requireNonNull(preferences, "preferences");
            return this;
        }

        /** The input timeout for inputs without their own; null waits forever. Must be positive. */
        public Builder defaultTimeout(Duration timeout) {
            this.defaultTimeout = positiveOrNull("defaultTimeout", timeout);
            return this;
        }

        /** How long initiation waits for the peer. Must be positive. */
        public Builder initiationTimeout(Duration timeout) {
            this.initiationTimeout = Objects.requireNonNull(positiveOrNull("initiationTimeout", timeout),
                    "initiationTimeout must not be null");
            return this;
        }

        /**
         * How long one setup transport is tried when others follow it (default 3 s); null: the whole
         * initiation timeout. Must be positive.
         */
        public Builder setupAttemptTimeout(Duration timeout) {
            this.setupAttemptTimeout = positiveOrNull("setupAttemptTimeout", timeout);
            return this;
        }

        /** Whether the runtime monitor checks actions (default true). */
        public Builder monitor(boolean monitor) {
            this.monitor = monitor;
            return this;
        }

        /** The batch bound in bytes, from 1 to {@value #MAX_BATCH_BYTES} (default {@value #DEFAULT_BATCH_BYTES}). */
        public Builder batchBytes(int bytes) {
            if (bytes < 1 || bytes > MAX_BATCH_BYTES) {
                throw new IllegalArgumentException("batchBytes must be between 1 and " + MAX_BATCH_BYTES + ", got " + bytes);
            }
            this.batchBytes = bytes;
            return this;
        }

        /**
         * The most session requests a server socket handles at once (default
         * {@value SJRuntimeConfig#DEFAULT_MAX_PENDING_HANDSHAKES}); at least 1.
         */
        public Builder maxPendingHandshakes(int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("maxPendingHandshakes must be at least 1, got " + limit);
            }
            this.maxPendingHandshakes = limit;
            return this;
        }

        /**
         * The longest requester session type a server checks, in UTF-8 bytes (default
         * {@value SJRuntimeConfig#DEFAULT_MAX_REQUESTER_TYPE_BYTES}); at least 64.
         */
        public Builder maxRequesterTypeBytes(int bytes) {
            if (bytes < 64) {
                throw new IllegalArgumentException("maxRequesterTypeBytes must be at least 64, got " + bytes);
            }
            this.maxRequesterTypeBytes = bytes;
            return this;
        }

        /**
         * How long an output waits for a peer that takes nothing (default: as long as the connection
         * lives; heartbeats end it for a dead or frozen peer); null waits. Must be positive.
         */
        public Builder sendTimeout(Duration timeout) {
            this.sendTimeout = positiveOrNull("sendTimeout", timeout);
            return this;
        }

        /**
         * How long an agreed session may wait for {@code accept()} before the server fails it, telling its
         * requester (default {@link SJRuntimeConfig#DEFAULT_ACCEPT_TIMEOUT}); null: as long as the server
         * socket is open. Must be positive.
         */
        public Builder acceptTimeout(Duration timeout) {
            this.acceptTimeout = positiveOrNull("acceptTimeout", timeout);
            return this;
        }

        /**
         * The most agreed sessions that wait for {@code accept()} per server socket (default
         * {@value SJRuntimeConfig#DEFAULT_ACCEPT_QUEUE}); at least 1. A request past it is refused.
         */
        public Builder acceptQueue(int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("acceptQueue must be at least 1, got " + limit);
            }
            this.acceptQueue = limit;
            return this;
        }

        /** The configuration. */
        public SJRuntimeConfig build() {
            return new SJRuntimeConfig(this);
        }

        private static Duration positiveOrNull(String what, Duration timeout) {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException(what + " must be positive, got " + timeout);
            }
            return timeout;
        }
    }
}
