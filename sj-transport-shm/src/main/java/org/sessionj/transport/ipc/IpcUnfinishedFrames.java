package org.sessionj.transport.ipc;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * The process-wide budget for the bytes {@code ipc} readers hold in fragmented frames they have started and
 * not finished ({@code sessionj.ipc.unfinishedFrameBytes}), as {@code sessionj.tcp.unfinishedFrameBytes} is for
 * the network transports. A peer on the same host writes a frame's first fragment, whose length it chooses
 * (up to {@code sessionj.ipc.maxFrame}, 64 MiB), and the rest as it likes: the reader's buffer grows as
 * fragments arrive, never to the length the first one claims, and what all readers hold together is charged
 * here. A frame whose buffer would take the total past the budget makes room by giving up the oldest
 * unfinished frame that started before it (its connection fails, naming the rule); when none is older, the
 * frame that asked fails instead. Never everyone: one connection per frame that does not fit, and an honest
 * peer's frames, which finish, are seldom the oldest.
 *
 * <p>Thread-safe; one lock per fragment of a fragmented frame (whole-frame records are never seen here).
 */
final class IpcUnfinishedFrames {
    private static volatile IpcUnfinishedFrames shared;

    private final long budgetBytes;
    /** Guarded by {@code this}: bytes held by the frames in {@link #frames}. */
    private long used;
    /** Guarded by {@code this}: the unfinished frames holding bytes, oldest first. */
    private final LinkedHashSet<Frame> frames = new LinkedHashSet<>();

    /** A budget of {@code budgetBytes} for all unfinished frames together. */
    IpcUnfinishedFrames(long budgetBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("sessionj.ipc.unfinishedFrameBytes must be positive, found " + budgetBytes);
        }
        this.budgetBytes = budgetBytes;
    }

    /** The process's budget, from the system properties the first time it is needed. */
    static IpcUnfinishedFrames shared() {
        IpcUnfinishedFrames budget = shared;
        if (budget == null) {
            synchronized (IpcUnfinishedFrames.class) {
                budget = shared;
                if (budget == null) {
                    budget = fromSettings(SystemSettings.system());
                    shared = budget;
                }
            }
        }
        return budget;
    }

    /** {@code sessionj.ipc.unfinishedFrameBytes}, by default {@link #defaultBudget}. */
    static IpcUnfinishedFrames fromSettings(SystemSettings settings) {
        int maxFrame = settings.integer("ipc.maxFrame", 64 << 20);
        return new IpcUnfinishedFrames(settings.integer("ipc.unfinishedFrameBytes",
                (int) Math.min(Integer.MAX_VALUE, defaultBudget(maxFrame))));
    }

    /**
     * A quarter of the smaller of the heap's limit and the direct-memory limit (the reader's buffers are
     * Netty's, direct by default), at least {@code maxFrame} so that one frame of the largest size always
     * fits: 64 MiB in a JVM of 256 MiB.
     */
    static long defaultBudget(int maxFrame) {
        long heap = Runtime.getRuntime().maxMemory();
        long direct = io.netty.util.internal.PlatformDependent.maxDirectMemory();
        long smaller = Math.min(heap == Long.MAX_VALUE ? direct : heap, direct <= 0 ? heap : direct);
        return Math.max(maxFrame, smaller / 4);
    }

    /** The budget for the bytes of all unfinished frames together. */
    long budgetBytes() {
        return budgetBytes;
    }

    /** Bytes held in unfinished frames now. */
    synchronized long used() {
        return used;
    }

    /**
     * A frame of {@code length} bytes (its first fragment's claim) read from {@code peer}; if it is given up
     * for a newer frame, {@code giveUp} is called (on the thread that needed the room, never under the lock)
     * with the reason, and must fail the frame's connection.
     */
    Frame start(int length, String peer, Consumer<String> giveUp) {
        return new Frame(length, peer, giveUp);
    }

    /** One unfinished frame and the bytes its buffer holds. */
    final class Frame {
        private final int length;
        private final String peer;
        private final Consumer<String> giveUp;
        /** Guarded by the budget's lock. */
        private long held;
        /** Guarded by the budget's lock: given up for a newer frame, or done. */
        private boolean dropped;

        private Frame(int length, String peer, Consumer<String> giveUp) {
            this.length = length;
            this.peer = peer;
            this.giveUp = giveUp;
        }

        /**
         * The frame's buffer now takes {@code bytes}. False if that does not fit in the budget even after
         * giving up every older unfinished frame: the caller fails the connection with {@link #overBudget}.
         */
        boolean hold(long bytes) {
            List<Frame> givenUp = null;
            boolean fits;
            synchronized (IpcUnfinishedFrames.this) {
                if (dropped) {
                    return true; // its connection is failing already
                }
                long more = bytes - held;
                if (more > 0 && used + more > budgetBytes) {
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
                }
                fits = more <= 0 || used + more <= budgetBytes;
                if (fits) {
                    used += more;
                    held = bytes;
                    frames.add(this);
                }
            }
            if (givenUp != null) {
                for (Frame other : givenUp) {
                    other.giveUp.accept(other.givenUpMessage());
                }
            }
            return fits;
        }

        /** The frame is whole, or its connection failed or closed: its bytes are no longer held. */
        void done() {
            synchronized (IpcUnfinishedFrames.this) {
                if (!dropped && held > 0) {
                    used -= held;
                    frames.remove(this);
                }
                held = 0;
                dropped = true;
            }
        }

        /** Why a frame whose buffer did not fit fails, naming the rule, the peer and the figures. */
        String overBudget(long bytes) {
            return "unfinished ipc frame from the peer refused: its buffer of " + bytes + " bytes (of a frame of "
                    + length + ") would take the bytes held in unfinished ipc frames by this process past its budget"
                    + " of " + budgetBytes + " (sessionj.ipc.unfinishedFrameBytes; " + heldByOthers() + " held now by other"
                    + " frames, none of them older than this one) (" + peer + ")";
        }

        private long heldByOthers() {
            synchronized (IpcUnfinishedFrames.this) {
                return used - (dropped ? 0 : held);
            }
        }

        private String givenUpMessage() {
            return "unfinished ipc frame from the peer given up: it held " + held + " bytes (of a frame of " + length
                    + ") and was the oldest unfinished ipc frame when a newer one needed room within the process's"
                    + " budget of " + budgetBytes + " bytes (sessionj.ipc.unfinishedFrameBytes) (" + peer + ")";
        }
    }
}
