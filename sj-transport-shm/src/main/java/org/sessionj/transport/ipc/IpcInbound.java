package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * The reading end of one ring: takes records off it (turned into frames by {@link IpcFrameAssembly}),
 * and waits for more by spinning (adaptively, {@link #spin}), then yielding its core (adaptively too,
 * {@link #yieldThenPoll}), then, while a core is free and its recent frames came quickly, polling a
 * little longer ({@link #spinWhileFree}), then announcing that it sleeps (the flag in the shared
 * header) and sleeping: a platform thread in the
 * connection's own selector over the doorbell socket, woken by the kernel ({@link DirectWait}); a
 * virtual thread parked until the doorbell thread ({@link Doorbells}) unparks it. Neither holds a
 * monitor, so a virtual thread never pins. One read operation at a time ({@link #BUSY}); {@link #close}
 * may come from any thread and releases held buffers exactly once.
 */
final class IpcInbound {
    /** The session's watch over the connection (adv18 A13), or null. */
    private volatile org.sessionj.runtime.spi.OwnerWatch ownerWatch;
    /** The session's thread as the doorbell's last look saw it ended, or null (doorbell thread only). */
    private Thread ownerSeenEnded;
    private static final int CLOSED = 1;
    private static final int BUSY = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(IpcInbound.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SharedRing ring;
    private final IpcFrameAssembly frames;
    private final IpcMemory memory;
    private final int direction;
    /** Polls of an empty ring before the yields: {@code sessionj.ipc.spins}, with more than one CPU only. */
    private final Budget spinning;
    /** Polls after a {@link Thread#yield} before the sleep: {@code sessionj.ipc.yields}, with one CPU only. */
    private final Budget yielding;
    private static final int PROBE = 64;
    /** How long recent reads waited, for the longer spin while a core is free ({@code sessionj.ipc.spinMicros}). */
    private final WaitHistory waits;
    private final FreeCores cores;
    private final int cpus;
    /** Reads whose frame came during the longer spin (tests). */
    private int foundWhileFree;
    /** Where a platform-thread reader sleeps; null until the connection has its doorbell. */
    private volatile DirectWait direct;

    // Reader state, touched only inside a read operation.
    /** Set by any thread whose access of the mapping faulted ({@link MemoryFault}); the reader fails on it. */
    private volatile String fault;

    private volatile int state;
    private volatile Thread waiter;
    private volatile Runnable listener;
    /** The doorbell socket reached its end or failed: the peer process closed it or died. */
    private volatile boolean peerGone;
    /** Why the peer counts as gone when it did not close its socket (it fell silent), or null. */
    private volatile String silence;
    /** When the doorbell thread last heard a bell or heartbeat from the peer (System.nanoTime). */
    private volatile long lastHeard = System.nanoTime();
    /** Run once when the reader is closed and no read is in progress any more (it never touches the ring again). */
    private volatile Runnable onQuiet;

    /** The reader of ring {@code direction} of {@code memory}. */
    IpcInbound(IpcMemory memory, int direction, ByteBufAllocator alloc, IpcSettings settings) {
        this.ring = memory.ring(direction);
        this.frames = new IpcFrameAssembly(ring, alloc, settings.maxFrameBytes(), UnfinishedFrames.ipcShared(), this::wake,
                "ipc connection, ring " + direction);
        this.memory = memory;
        this.direction = direction;
        // One CPU: spinning would hold the core the writer needs; a yield hands it over. More than one:
        // the writer may run elsewhere, and a yield on a busy core can leave the reader off the CPU for a
        // whole time slice of another process while its frame waits (measured: a loaded 2-vCPU machine),
        // where a sleeping reader is woken at once by the bell.
        this.spinning = new Budget(settings.cpus() > 1 ? settings.spins() : 0);
        this.yielding = new Budget(settings.cpus() == 1 ? settings.yields() : 0);
        this.waits = new WaitHistory(settings.cpus() > 1 ? settings.spinNanos() : 0);
        this.cores = settings.cores();
        this.cpus = settings.cpus();
    }

    /** Where platform-thread readers sleep from now on (set once the doorbell is registered). */
    void directWait(DirectWait wait) {
        this.direct = wait;
    }

    // ---- reading ----

    /** Waits for the next frame; null after {@code timeoutNanos} (negative: for ever). */
    ByteBuf read(long timeoutNanos) throws IOException {
        if (!enter()) {
            throw new IOException("ipc connection closed");
        }
        try {
            ByteBuf frame = poll();
            if (frame != null) {
                return frame;
            }
            // The spells end at the read's deadline too: a yield on a busy machine can cost another
            // process's whole time slice, and a spell of them used to outlast a short timeout by minutes.
            long started = System.nanoTime();
            long deadline = timeoutNanos < 0 || timeoutNanos > NO_DEADLINE / 4 ? NO_DEADLINE : started + timeoutNanos;
            frame = spin(deadline);
            if (frame == null) {
                frame = yieldThenPoll(deadline);
            }
            if (frame == null) {
                frame = spinWhileFree(started, deadline);
            }
            if (frame == null) {
                frame = park(deadline == NO_DEADLINE ? timeoutNanos : Math.max(0, deadline - System.nanoTime()));
            }
            if (frame != null) {
                waits.waited(System.nanoTime() - started);
            }
            return frame;
        } catch (InternalError e) {
            // A fault in JIT-compiled code is raised asynchronously, at a later safepoint: it can
            // surface past the guard of the access that caused it (seen under load, from poll()
            // inlined here). The read fails with it as with a guarded one, and so does every later one.
            faulted(e);
            throw MemoryFault.io(e);
        } finally {
            exit();
        }
    }

    /**
     * Polls the empty ring while the peer may be about to answer: adaptive, like a JVM's spinning on a
     * contended lock. A spell that finds a frame restores the full budget ({@code sessionj.ipc.spins});
     * one that finds nothing halves it, so where the writer has no core to run on (an oversubscribed
     * machine) the reader soon stops burning the core it needs and sleeps at once, trying a spell
     * again every {@value #PROBE} reads to see whether a core has come free.
     */
    private ByteBuf spin(long deadline) throws IOException {
        int budget = spinning.spell();
        ByteBuf frame = null;
        for (int i = 0; frame == null && i < budget && waitable() && !past(deadline, i); i++) {
            Thread.onSpinWait();
            frame = poll();
        }
        spinning.after(budget, frame != null);
        return frame;
    }

    /**
     * Gives the core away ({@link Thread#yield}) and polls, a few times, before sleeping: where the
     * writer shares the reader's core (a JVM on one CPU, or pinned to one), a yield runs it at once
     * with no wake-up, and the answer is often there when the reader runs again; a sleep would cost
     * the writer a bell (a {@code write}) and the reader an {@code epoll_wait}, a drain and a wake-up.
     * Adaptive as the spinning is ({@code sessionj.ipc.yields}).
     */
    private ByteBuf yieldThenPoll(long deadline) throws IOException {
        int budget = yielding.spell();
        ByteBuf frame = null;
        for (int i = 0; frame == null && i < budget && waitable() && !past(deadline, i); i++) {
            Thread.yield();
            frame = poll();
        }
        yielding.after(budget, frame != null);
        return frame;
    }

    /**
     * Goes on polling, up to {@code sessionj.ipc.spinMicros} after the read found the ring empty, while
     * a core is free ({@link FreeCores}: every runnable thread of the machine has one, so this spin takes
     * no core from the writer or anyone else) and while the reader's recent frames came within that
     * bound ({@link WaitHistory}): a frame found here costs the writer no bell and the reader no sleep
     * and wake-up, which is what Open MPI's polling ranks save. On an oversubscribed machine, or when
     * the writer is busy for longer (a computation between messages), the reader sleeps as before.
     */
    private ByteBuf spinWhileFree(long started, long deadline) throws IOException {
        if (!waits.spinWanted()) {
            return null;
        }
        long end = started + waits.bound();
        if (deadline != NO_DEADLINE && deadline - end < 0) {
            end = deadline;
        }
        ByteBuf frame = null;
        for (int i = 0; frame == null && waitable(); i++) {
            if ((i & 63) == 0) {
                long now = System.nanoTime();
                if (now - end >= 0 || !cores.free(cpus, now)) {
                    return null;
                }
            }
            Thread.onSpinWait();
            frame = poll();
        }
        if (frame != null) {
            foundWhileFree++;
        }
        return frame;
    }

    /** Reads whose frame came while polling longer on a free core (tests). */
    int foundWhileFree() {
        return foundWhileFree;
    }

    /** The recent average wait of this reader's reads, in nanoseconds (tests). */
    long recentWait() {
        return waits.recent();
    }

    /** A read without a deadline. */
    private static final long NO_DEADLINE = Long.MAX_VALUE;

    /** Whether {@code deadline} has passed, looked at every 64th poll of a spell (a clock read costs ~20 ns). */
    private static boolean past(long deadline, int poll) {
        return deadline != NO_DEADLINE && (poll & 63) == 63 && System.nanoTime() - deadline > 0;
    }

    private boolean waitable() {
        return !frames.ended() && !peerGone && state == BUSY;
    }

    /** The polls the next read spends spinning on an empty ring before it yields (for tests). */
    int spinBudget() {
        return spinning.left;
    }

    /** The polls after a yield the next read spends before it sleeps (for tests). */
    int yieldBudget() {
        return yielding.left;
    }

    /**
     * An adaptive number of polls: all of them after a spell that found a frame, half as many after
     * one that found nothing, and at none a whole spell again every {@value #PROBE} reads.
     */
    private static final class Budget {
        private final int full;
        private int left;
        private int probes;

        Budget(int full) {
            this.full = full;
            this.left = full;
        }

        /** The polls of this read's spell. */
        int spell() {
            return left == 0 && full > 0 && ++probes % PROBE == 0 ? full : left;
        }

        /** After a spell of {@code polls}: whether it found a frame. */
        void after(int polls, boolean found) {
            if (polls > 0) {
                left = found ? full : polls / 2;
            }
        }
    }

    /** Whether a read would return at once. */
    boolean isReadable() {
        if (!enter()) {
            return (state & CLOSED) != 0;
        }
        try {
            try {
                return fill() || peerGone;
            } catch (IOException e) {
                return true; // the close or a corruption, which the next read reports
            }
        } finally {
            exit();
        }
    }

    private ByteBuf park(long timeoutNanos) throws IOException {
        long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
        waiter = Thread.currentThread();
        try {
            while (true) {
                arm(); // the writer appends, fences, then reads the flag: one of us sees the other
                ByteBuf frame = poll();
                if (frame != null) {
                    disarm();
                    return frame;
                }
                if ((state & CLOSED) != 0) {
                    throw new IOException("ipc connection closed");
                }
                if (peerGone) {
                    // Everything the peer wrote precedes its socket's end: look once more, then it is lost.
                    frame = poll();
                    if (frame != null) {
                        return frame;
                    }
                    String why = silence;
                    throw new IOException(why != null ? "ipc connection lost: " + why
                            : "ipc connection lost: the peer process exited or closed its socket without"
                            + " closing the connection");
                }
                long remaining = -1;
                if (timeoutNanos >= 0) {
                    remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        disarm();
                        return null;
                    }
                }
                sleep(remaining);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting on an ipc connection");
                }
            }
        } finally {
            waiter = null;
        }
    }

    /**
     * Sleeps until a bell (or a wake-up, or {@code nanos}; negative: no limit): a platform thread on a
     * connection without a listener in the connection's own selector, where the kernel wakes it
     * directly ({@link DirectWait}); otherwise parked, for the doorbell thread to unpark.
     */
    private void sleep(long nanos) throws IOException {
        DirectWait wait = direct;
        if (wait != null && listener == null && DirectWait.suits(Thread.currentThread())) {
            wait.await(nanos);
            return;
        }
        if (wait != null) {
            wait.watch();
        }
        if (nanos < 0) {
            LockSupport.park(this);
        } else {
            LockSupport.parkNanos(this, nanos);
        }
    }

    private void disarm() {
        if (listener == null) {
            try {
                memory.wake(direction);
            } catch (InternalError e) {
                faulted(e); // the next read reports it
            }
        }
    }

    /**
     * Says in the shared memory that this reader sleeps (the next append rings); a fault is remembered.
     * The doorbell thread and a listener's owner call this outside a read, so it may come after the
     * connection closed and unmapped the memory: that access is checked ({@link Mapping}) and fails with
     * an {@link IllegalStateException}, which means only that there is nothing left to arm.
     */
    private void arm() {
        try {
            memory.sleeping(direction);
        } catch (InternalError e) {
            faulted(e);
        } catch (IllegalStateException e) {
            // unmapped: the connection is closed
        }
    }

    /** An access of the mapping faulted, on any thread: the reader fails with it at its next look. */
    private void faulted(InternalError e) {
        if (fault == null) {
            fault = MemoryFault.describe(e);
        }
    }

    /** The next whole frame, or null; throws once the close record or a corruption was read. */
    private ByteBuf poll() throws IOException {
        return fill() ? frames.take() : null;
    }

    /**
     * Reads records until a whole frame waits in {@link #frames} (true) or the ring is empty (false);
     * throws once the close record or a corruption was read.
     */
    private boolean fill() throws IOException {
        while (!frames.hasFrame()) {
            frames.failIfOver();
            if (fault != null) {
                frames.fail(fault);
                continue;
            }
            try {
                if (!ring.read(frames)) {
                    return false;
                }
            } catch (RuntimeException e) { // SharedRing.CorruptRingException, or a bound a damaged ring broke
                frames.corrupt(e.getMessage());
            } catch (InternalError e) { // the file under the mapping shrank
                faulted(e);
            }
        }
        return true;
    }

    // ---- the doorbell thread's side ----

    /** The peer rang: wake the reader and the selector's listener, and stay armed for the listener. */
    void rung() {
        if (listener != null) {
            arm();
        }
        wake();
    }

    /** Sets the session's watch over this connection (adv18 A13), looked at by the doorbell once per heartbeat. */
    void ownerWatch(org.sessionj.runtime.spi.OwnerWatch watch) {
        ownerWatch = watch;
    }

    /**
     * The doorbell thread, once per heartbeat interval: fails the session if its thread ended with it open
     * (seen at two beats in a row, {@link org.sessionj.runtime.spi.support.OwnerLook}).
     */
    void lookAtOwner() {
        ownerSeenEnded = org.sessionj.runtime.spi.support.OwnerLook.look(ownerWatch, ownerSeenEnded);
    }

    /** The doorbell thread heard from the peer (a bell or a heartbeat). */
    void heard(long now) {
        lastHeard = now;
    }

    /** When the peer was last heard from (System.nanoTime). */
    long lastHeard() {
        return lastHeard;
    }

    /** The peer sent no bell and no heartbeat for too long: it counts as gone, with {@code why}. */
    void peerSilent(String why) {
        silence = why;
        peerGone();
    }

    /** The doorbell socket ended. */
    void peerGone() {
        peerGone = true;
        wake();
    }

    boolean isPeerGone() {
        return peerGone;
    }

    /** Why the peer counts as gone for a writer ({@code doing}: what it was doing), once {@link #isPeerGone}. */
    IOException peerGoneWhile(String doing) {
        String why = silence;
        return new IOException(why != null ? "ipc connection lost while " + doing + ": " + why
                : "ipc connection closed by the peer");
    }

    void listener(Runnable listener) {
        this.listener = listener;
        if (listener != null) {
            DirectWait wait = direct;
            if (wait != null) {
                wait.watch(); // the doorbell thread runs the listener
            }
            arm(); // every later frame rings
        }
    }

    private void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
            DirectWait wait = direct;
            if (wait != null) {
                wait.wakeup();
            }
        }
        Runnable l = listener;
        if (l != null) {
            l.run();
        }
    }

    // ---- closing ----

    /**
     * Closes the reader; {@code quiet} runs once no read is in progress any more (here, or when the
     * read in progress ends), after which this reader never touches the shared memory again.
     */
    void close(Runnable quiet) {
        onQuiet = quiet;
        close();
    }

    void close() {
        int previous = (int) STATE.getAndBitwiseOr(this, CLOSED);
        if ((previous & CLOSED) != 0) {
            return;
        }
        wake();
        releaseIfFree();
    }

    private boolean enter() {
        return STATE.compareAndSet(this, 0, BUSY);
    }

    private void exit() {
        int previous = (int) STATE.getAndBitwiseAnd(this, ~BUSY);
        if ((previous & CLOSED) != 0) {
            releaseIfFree();
        }
    }

    private void releaseIfFree() {
        if (STATE.compareAndSet(this, CLOSED, CLOSED | BUSY)) {
            frames.release();
            // stays BUSY: nothing reads after a close
            Runnable quiet = onQuiet;
            if (quiet != null) {
                quiet.run();
            }
        }
    }
}
