package org.sessionj.runtime.spi.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * What peers may hold in frames they have started and not finished: a frame whose header has arrived
 * is kept, byte by byte as it comes, until its last byte is there, and a peer that sends all but a few
 * bytes of a 16 MiB frame and then one byte every few seconds would keep it for as long as it likes
 * (the inbound bound counts whole frames, and the trickle keeps the heartbeat timeout from firing).
 * Two rules bound that, on every network transport (event-loop and blocking {@code tcp}, {@code tls},
 * {@code http} and the relay's ends):
 *
 * <ul>
 *   <li><b>A completion deadline.</b> A frame of {@code length} bytes must be whole within
 *       {@code max(sessionj.tcp.frameTimeout, length / sessionj.tcp.frameMinRate)}: 10 s, or the time
 *       the frame takes at 64 KiB/s (256 s for 16 MiB), whichever is longer; time while this side had
 *       stopped reading (its reader was behind) does not count. A frame that misses it fails its
 *       connection.</li>
 *   <li><b>A process-wide budget</b> ({@code sessionj.tcp.unfinishedFrameBytes}, by default a quarter of
 *       the smaller of the heap and the direct-memory limit) for the bytes held in unfinished frames. A
 *       frame whose next bytes would take the total past it makes room by giving up the oldest
 *       unfinished frame that started before it (its connection fails, naming the rule); when none is
 *       older, the frame that asked fails instead. Never everyone: one connection fails per frame
 *       that does not fit, and an honest peer's frames, which finish, are seldom the oldest.</li>
 * </ul>
 *
 * <p>Buffers grow as bytes arrive, never to the length a header claims, so a lie in the header costs
 * this side nothing. Thread-safe; the budget's bookkeeping takes one lock per frame that spans more
 * than one read (frames that arrive whole in one read are never seen here).
 *
 * <p>{@code ipc} has a budget of its own made by the same class ({@link #ipc}, {@link #ipcShared}:
 * {@code sessionj.ipc.unfinishedFrameBytes}), without the deadline (a peer on the same host that stops
 * half-way is the heartbeat's business): its fragmented frames are charged the capacity of the buffer
 * that holds them. One class for both, so that the rule of whom to give up stays one rule.
 */
public final class UnfinishedFrames {
    /** The bytes of a frame's length header on the network transports: a frame of the largest size plus its header fits. */
    private static final int HEADER_BYTES = 4;
    /** The largest {@code ipc} frame by default ({@code sessionj.ipc.maxFrame}). */
    private static final int IPC_MAX_FRAME = 64 << 20;
    /** The deadline's floor by default: an unfinished frame of any length may take this long. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** The minimum rate by default, bytes per second: 16 MiB may take 256 s. */
    public static final int DEFAULT_MIN_RATE = 64 << 10;

    private static volatile UnfinishedFrames shared;
    private static volatile UnfinishedFrames ipcShared;

    /** What a frame is called in messages: {@code "unfinished frame"} or {@code "unfinished ipc frame"}. */
    private final String kind;
    /** The property that sets the budget, named in messages. */
    private final String budgetProperty;
    /** What a frame's charge is in messages: its bytes, or (ipc) its buffer's capacity. */
    private final String heldNoun;
    private final long budgetBytes;
    private final long timeoutNanos;
    private final long minRate;
    /** Guarded by {@code this}: bytes held by the frames in {@link #frames}. */
    private long used;
    /** Guarded by {@code this}: the unfinished frames holding bytes, in the order they first held some (oldest first). */
    private final LinkedHashSet<Frame> frames = new LinkedHashSet<>();

    /**
     * Rules of {@code budgetBytes} for all unfinished frames together, a deadline floor of
     * {@code timeout} and a minimum rate of {@code minBytesPerSecond}.
     */
    public UnfinishedFrames(long budgetBytes, Duration timeout, long minBytesPerSecond) {
        this("unfinished frame", "sessionj.tcp.unfinishedFrameBytes", "", budgetBytes, timeout, minBytesPerSecond);
    }

    private UnfinishedFrames(String kind, String budgetProperty, String heldNoun, long budgetBytes, Duration timeout,
            long minBytesPerSecond) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException(budgetProperty + " must be positive, found " + budgetBytes);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("sessionj.tcp.frameTimeout must be positive, found " + timeout);
        }
        if (minBytesPerSecond <= 0) {
            throw new IllegalArgumentException("sessionj.tcp.frameMinRate must be positive, found " + minBytesPerSecond);
        }
        this.kind = kind;
        this.budgetProperty = budgetProperty;
        this.heldNoun = heldNoun;
        this.budgetBytes = budgetBytes;
        this.timeoutNanos = timeout.toNanos();
        this.minRate = minBytesPerSecond;
    }

    /** The process's rules, from system properties the first time they are needed. */
    public static UnfinishedFrames shared() {
        UnfinishedFrames rules = shared;
        if (rules == null) {
            synchronized (UnfinishedFrames.class) {
                rules = shared;
                if (rules == null) {
                    rules = fromSettings(SystemSettings.system());
                    shared = rules;
                }
            }
        }
        return rules;
    }

    /**
     * A budget of {@code budgetBytes} for the fragmented frames {@code ipc} readers hold
     * ({@code sessionj.ipc.unfinishedFrameBytes}); no deadline.
     */
    public static UnfinishedFrames ipc(long budgetBytes) {
        return new UnfinishedFrames("unfinished ipc frame", "sessionj.ipc.unfinishedFrameBytes", "buffer of ", budgetBytes,
                Duration.ofNanos(Long.MAX_VALUE), Long.MAX_VALUE);
    }

    /** The process's {@code ipc} budget, from system properties the first time it is needed. */
    public static UnfinishedFrames ipcShared() {
        UnfinishedFrames budget = ipcShared;
        if (budget == null) {
            synchronized (UnfinishedFrames.class) {
                budget = ipcShared;
                if (budget == null) {
                    budget = ipcFromSettings(SystemSettings.system());
                    ipcShared = budget;
                }
            }
        }
        return budget;
    }

    /**
     * The {@code ipc} budget from {@code settings}: {@code sessionj.ipc.unfinishedFrameBytes}, by default
     * {@link #defaultBudget(long)} with a floor of {@code sessionj.ipc.maxFrame} (64 MiB), so that one frame
     * of the largest size always fits.
     */
    public static UnfinishedFrames ipcFromSettings(SystemSettings settings) {
        int maxFrame = settings.integer("ipc.maxFrame", IPC_MAX_FRAME);
        return ipc(settings.integer("ipc.unfinishedFrameBytes", (int) Math.min(Integer.MAX_VALUE, defaultBudget(maxFrame))));
    }

    /**
     * The rules from {@code settings}: {@code sessionj.tcp.unfinishedFrameBytes} (default
     * {@link #defaultBudget()}), {@code sessionj.tcp.frameTimeout} (10 s) and
     * {@code sessionj.tcp.frameMinRate} (65536 bytes per second).
     */
    public static UnfinishedFrames fromSettings(SystemSettings settings) {
        long budget = settings.integer("tcp.unfinishedFrameBytes", (int) Math.min(Integer.MAX_VALUE, defaultBudget()));
        Duration timeout = settings.duration("tcp.frameTimeout", DEFAULT_TIMEOUT).orElseThrow(() -> SystemSettings.invalid(
                "tcp.frameTimeout", "a positive duration like 10s (an unfinished frame always has a deadline)", "none"));
        return new UnfinishedFrames(budget, timeout, settings.integer("tcp.frameMinRate", DEFAULT_MIN_RATE));
    }

    /**
     * The rules {@code settings} (a configuration of its own, such as a map) give: the process's
     * {@link #shared} rules when they are the same, so that the budget stays one for the process, else
     * rules of their own.
     */
    public static UnfinishedFrames of(SystemSettings settings) {
        UnfinishedFrames wanted = fromSettings(settings);
        UnfinishedFrames process = shared();
        return wanted.budgetBytes == process.budgetBytes && wanted.timeoutNanos == process.timeoutNanos
                && wanted.minRate == process.minRate ? process : wanted;
    }

    /**
     * A quarter of the smaller of the heap's limit and the direct-memory limit (blocking {@code tcp}
     * holds frames on the heap, the event loops in direct memory), at least 16 MiB + 4 bytes, so that one
     * frame of the default maximum size always fits: 64 MiB in a JVM of 256 MiB.
     */
    public static long defaultBudget() {
        return defaultBudget((16L << 20) + HEADER_BYTES);
    }

    /** A quarter of the smaller of the heap's limit and the direct-memory limit, at least {@code floor}. */
    public static long defaultBudget(long floor) {
        long heap = Runtime.getRuntime().maxMemory();
        long direct = io.netty.util.internal.PlatformDependent.maxDirectMemory();
        long smaller = Math.min(heap == Long.MAX_VALUE ? direct : heap, direct <= 0 ? heap : direct);
        return Math.max(floor, smaller / 4);
    }

    /** The budget for the bytes of all unfinished frames together. */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** Bytes held in unfinished frames now. */
    public synchronized long used() {
        return used;
    }

    /** Unfinished frames holding bytes now. */
    public synchronized int count() {
        return frames.size();
    }

    /**
     * How long a frame of {@code length} bytes may stay unfinished: {@code max(frameTimeout,
     * length / frameMinRate)}.
     */
    public long allowanceNanos(long length) {
        long atRate = (long) (length * 1e9 / minRate);
        return Math.max(timeoutNanos, atRate);
    }

    /**
     * A frame of {@code length} bytes whose header came from {@code peer} at {@code startNanos}; if it
     * is given up for a newer frame, {@code giveUp} is called (on the thread that needed the room, never
     * under a lock) with the reason, and must fail the frame's connection.
     */
    public Frame start(int length, String peer, long startNanos, Consumer<String> giveUp) {
        return new Frame(length, peer, startNanos, giveUp);
    }

    /** A frame with no deadline of its own ({@code ipc}): {@link #start(int, String, long, Consumer)} at time 0. */
    public Frame start(int length, String peer, Consumer<String> giveUp) {
        return new Frame(length, peer, 0, giveUp);
    }

    /** The rule a frame that missed its deadline broke, for messages. */
    private String deadlineRule(long length) {
        return "a frame must be whole within max(" + Duration.ofNanos(timeoutNanos).toMillis() / 1000.0 + " s, its length at "
                + minRate + " bytes/s) = " + allowanceNanos(length) / 1_000_000 / 1000.0
                + " s of reading (sessionj.tcp.frameTimeout, sessionj.tcp.frameMinRate)";
    }

    /** One unfinished frame: its bytes held, its deadline. */
    public final class Frame {
        private final int length;
        private final String peer;
        private final long startNanos;
        private final Consumer<String> giveUp;
        /** Guarded by the rules' lock. */
        private long held;
        /** Guarded by the rules' lock: given up for a newer frame (its bytes no longer counted). */
        private boolean dropped;

        private Frame(int length, String peer, long startNanos, Consumer<String> giveUp) {
            this.length = length;
            this.peer = peer;
            this.startNanos = startNanos;
            this.giveUp = giveUp;
        }

        /** The frame's length, from its header. */
        public int length() {
            return length;
        }

        /** When its header arrived. */
        public long startNanos() {
            return startNanos;
        }

        /** How long it may stay unfinished (time this side did not read not counted). */
        public long allowanceNanos() {
            return UnfinishedFrames.this.allowanceNanos(length);
        }

        /**
         * The frame now holds {@code bytes} (its header and what arrived of it, or the buffer holding
         * them). False if that does not fit in the budget even after giving up every older unfinished
         * frame: the caller fails the connection with {@link #overBudget}.
         */
        public boolean hold(long bytes) {
            List<Frame> givenUp = null;
            boolean fits;
            synchronized (UnfinishedFrames.this) {
                if (dropped) {
                    return true; // its connection is failing already
                }
                long more = bytes - held;
                if (more <= 0 || used + more <= budgetBytes) {
                    take(bytes);
                    return true;
                }
                Iterator<Frame> oldest = frames.iterator();
                while (used + more > budgetBytes && oldest.hasNext()) {
                    Frame other = oldest.next();
                    if (other == this) {
                        break; // the rest started holding bytes after this one
                    }
                    oldest.remove();
                    used -= other.held;
                    other.dropped = true;
                    if (givenUp == null) {
                        givenUp = new ArrayList<>();
                    }
                    givenUp.add(other);
                }
                fits = used + more <= budgetBytes;
                if (fits) {
                    take(bytes);
                }
            }
            if (givenUp != null) {
                for (Frame other : givenUp) {
                    other.giveUp.accept(other.givenUpMessage());
                }
            }
            return fits;
        }

        private void take(long bytes) {
            used += bytes - held;
            held = bytes;
            if (bytes > 0) {
                frames.add(this);
            } else {
                frames.remove(this);
            }
        }

        /** The frame is whole (or its connection closed): its bytes are no longer held. */
        public void done() {
            synchronized (UnfinishedFrames.this) {
                if (!dropped && held > 0) {
                    used -= held;
                    frames.remove(this);
                }
                held = 0;
                dropped = true;
            }
        }

        /** Why a frame whose bytes did not fit fails, naming the rule, the peer and the figures. */
        public String overBudget(long bytes) {
            return kind + " from the peer refused: its " + heldNoun + bytes + " bytes (of a frame of " + length
                    + ") would take the bytes held in " + kind + "s by this process past its budget of "
                    + budgetBytes + " (" + budgetProperty + "; " + heldByOthers() + " held now by other"
                    + " frames, none of them older than this one) (" + peer + ")";
        }

        private long heldByOthers() {
            synchronized (UnfinishedFrames.this) {
                return used - (dropped ? 0 : held);
            }
        }

        /** Why a frame past its deadline fails. */
        public String overdue(long activeNanos, long received) {
            return "unfinished frame from the peer: " + received + " of its " + length + " bytes arrived in "
                    + activeNanos / 1_000_000 / 1000.0 + " s; " + deadlineRule(length) + " (" + peer + ")";
        }

        private String givenUpMessage() {
            return kind + " from the peer given up: it held " + held + " bytes (of a frame of " + length
                    + ") and was the oldest " + kind + " when a newer one needed room within the process's"
                    + " budget of " + budgetBytes + " bytes for " + kind + "s (" + budgetProperty + ")"
                    + " (" + peer + ")";
        }
    }
}
