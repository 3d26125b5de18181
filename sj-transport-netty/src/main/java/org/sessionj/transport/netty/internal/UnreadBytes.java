package org.sessionj.transport.netty.internal;

import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * What the frames received and not yet read may make this process hold, over all its event-loop connections. Each
 * connection stops reading its socket once its own unread frames are charged past
 * {@code sessionj.tcp.inboundHighBytes} (1 MiB: bytes plus {@link NettyConnection#FRAME_COST} a frame), but that
 * mark is per connection: N peers that pipeline frames and never read the answers held N times it, and 60 of them
 * filled a 128 MiB server for good (hostile H6). So the charge past a connection's own share ({@link #shareBytes},
 * 64 KiB: what a connection whose program keeps up ever holds) comes out of one budget for the process
 * ({@code sessionj.tcp.unreadBytes}, by default a quarter of the smaller of the heap and the direct-memory limit, as
 * {@link UnfinishedFrames#defaultBudget}). While the budget is spent, a connection holding more than its share stops
 * reading until its program has read it down to its share: backpressure on the connections that hold most, through
 * TCP itself, never a failure. A connection whose program keeps up is not held back, and one held back reads again
 * as soon as its own program catches up, so no connection waits for another's reader.
 *
 * <p>Each connection adds only the change in its excess over its share, computed from its own counter's atomic
 * updates, so the sum telescopes to the excesses exactly and a connection within its share never touches this
 * counter (no contention between event loops on the usual path). Thread-safe.
 */
public final class UnreadBytes {
    /** What a connection may hold unread on its own, outside the budget. */
    public static final int DEFAULT_SHARE = 64 << 10;
    private static volatile UnreadBytes shared;

    private final long budgetBytes;
    private final long shareBytes;
    /** The excesses over their shares of all connections' unread charges. */
    private final AtomicLong used = new AtomicLong();

    /** A budget of {@code budgetBytes} for the unread charges of all connections past {@code shareBytes} each. */
    public UnreadBytes(long budgetBytes, long shareBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("sessionj.tcp.unreadBytes must be positive, found " + budgetBytes);
        }
        if (shareBytes < 0) {
            throw new IllegalArgumentException("a connection's share must not be negative, found " + shareBytes);
        }
        this.budgetBytes = budgetBytes;
        this.shareBytes = shareBytes;
    }

    /** The process's budget, from {@code sessionj.tcp.unreadBytes} the first time it is needed. */
    public static UnreadBytes shared() {
        UnreadBytes budget = shared;
        if (budget == null) {
            synchronized (UnreadBytes.class) {
                budget = shared;
                if (budget == null) {
                    budget = new UnreadBytes(SystemSettings.system().integer("tcp.unreadBytes",
                            (int) Math.min(Integer.MAX_VALUE, UnfinishedFrames.defaultBudget())), DEFAULT_SHARE);
                    shared = budget;
                }
            }
        }
        return budget;
    }

    /** The budget for the connections' unread charges past their shares. */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** What one connection may hold unread without drawing on the budget. */
    public long shareBytes() {
        return shareBytes;
    }

    /** The connections' unread charges past their shares now. */
    public long used() {
        return used.get();
    }

    /** Whether the budget is spent: connections past their share stop reading. */
    public boolean spent() {
        return used.get() > budgetBytes;
    }

    /**
     * A connection's unread charge went from {@code after - delta} to {@code after} (one atomic update of its counter):
     * the change in its excess over its share is added.
     */
    void changed(long after, long delta) {
        long before = after - delta;
        long excess = Math.max(0, after - shareBytes) - Math.max(0, before - shareBytes);
        if (excess != 0) {
            used.addAndGet(excess);
        }
    }
}
