package org.sessionj.transport.shm;

import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.sessionj.runtime.spi.support.HandoffQueue;
import org.sessionj.runtime.spi.support.SpinThenPark;

/**
 * One direction of an in-JVM connection: frames and passed references, in one order, from the
 * writing end to the reading end. The queue is created on the first write, so an idle connection
 * costs no queue memory.
 */
final class Pipe extends HandoffQueue<Object> {
    /**
     * How a reader waits: {@code sessionj.shm.spins} polls (none on one CPU), then
     * {@code sessionj.shm.yields} yields, then it parks; a wake-up across cores costs tens of microseconds.
     */
    static final SpinThenPark IDLE = SpinThenPark.fromSetting("shm.spins", SpinThenPark.defaultSpins())
            .withYieldsFromSetting("shm.yields", 20);

    private static final VarHandle SPARE;

    static {
        try {
            SPARE = MethodHandles.lookup().findVarHandle(Pipe.class, "spare", RecycledFrame.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A frame the reader released, for the writer's next one. One slot is enough in a round trip:
     * the reader releases frame n as it starts reading frame n+1, before it answers, so the writer
     * finds it there when it writes frame n+2.
     */
    @SuppressWarnings("unused") // through SPARE
    private volatile RecycledFrame spare;

    Pipe() {
        super(IDLE);
    }

    /** Producer: a frame to write into, the released one if any (else a new one of {@code capacity}). */
    RecycledFrame frame(int capacity) {
        RecycledFrame f = (RecycledFrame) SPARE.getAndSet(this, (RecycledFrame) null);
        return f != null ? f.reuse() : new RecycledFrame(this, capacity);
    }

    /**
     * Any thread: keeps {@code released} for the writer's next frame; false if a spare is kept
     * already or this direction is closed (the caller frees it).
     */
    boolean giveBack(RecycledFrame released) {
        return !isClosed() && SPARE.compareAndSet(this, (RecycledFrame) null, released);
    }

    /** Producer: hands {@code element} to the reading end; the caller keeps it if this fails. */
    void send(Object element) throws IOException {
        taken(offer(element));
    }

    /** Producer: as {@link #send}, without waking the reader (a reference; the frame announcing it follows). */
    void sendQuietly(Object element) throws IOException {
        taken(offerWithoutWaking(element));
    }

    private void taken(boolean taken) throws IOException {
        if (!taken) {
            throw new IOException(isClosed() ? "in-JVM connection closed by the peer" : "in-JVM connection already closed");
        }
    }

    @Override
    protected void release(Object element) {
        // Frames are reference counted; passed references are not, and are simply dropped.
        ReferenceCountUtil.release(element);
    }

    @Override
    protected IOException closedException() {
        return new IOException("in-JVM connection closed");
    }

    @Override
    protected IOException endedException() {
        return new IOException("in-JVM connection closed by the peer");
    }

    @Override
    protected InterruptedIOException interruptedException() {
        return new InterruptedIOException("interrupted while waiting on an in-JVM connection");
    }
}
