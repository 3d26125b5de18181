package org.sessionj.transport.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How many bytes the reader of a {@link Pipe} has taken, and the writer waiting for room, on a cache
 * line of their own: the reader stores its count after every frame, and sharing a line with the
 * writer's fields would make every send and every read miss. Padding by inheritance, as in JCTools,
 * because the JVM keeps a superclass's fields before a subclass's.
 */
final class ReadProgress extends ReadProgressFields {
    @SuppressWarnings("unused")
    private long q0, q1, q2, q3, q4, q5, q6, q7;
}

/** Padding before the fields. */
abstract class ReadProgressPad {
    @SuppressWarnings("unused")
    private long p0, p1, p2, p3, p4, p5, p6, p7;
}

/** The fields: written by the reader (the count) and by a blocked writer (itself). */
abstract class ReadProgressFields extends ReadProgressPad {
    private static final VarHandle CONSUMED;
    private static final VarHandle WRITER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CONSUMED = lookup.findVarHandle(ReadProgressFields.class, "consumed", long.class);
            WRITER = lookup.findVarHandle(ReadProgressFields.class, "blockedWriter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through CONSUMED
    private long consumed;
    @SuppressWarnings("unused") // through WRITER
    private Thread blockedWriter;

    /**
     * Reader: {@code bytes} more were taken; wakes a writer waiting for room. A release store and a
     * plain load, no fence: a writer that registers just as the reader looks may be missed, so a
     * blocked writer parks in short slices and looks again itself.
     */
    final void taken(int bytes) {
        CONSUMED.setRelease(this, (long) CONSUMED.get(this) + bytes);
        Thread writer = (Thread) WRITER.getOpaque(this);
        if (writer != null) {
            java.util.concurrent.locks.LockSupport.unpark(writer);
        }
    }

    /** Writer: the bytes taken so far. */
    final long consumed() {
        return (long) CONSUMED.getAcquire(this);
    }

    /** Writer: registers (or, with null, unregisters) itself as waiting for room. */
    final void blockedWriter(Thread writer) {
        WRITER.setVolatile(this, writer);
    }
}
