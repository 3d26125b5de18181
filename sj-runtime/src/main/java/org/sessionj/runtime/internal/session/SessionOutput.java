package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.Frames;
import java.io.IOException;
import java.time.Duration;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.api.SendTimeoutException;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.wire.FailureNotice;
import org.sessionj.runtime.internal.wire.RecordCodec;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.runtime.spi.WriteTimeoutException;

/**
 * The output side of one session: the frame being batched, its registration with the thread's
 * {@link PendingOutputs}, the flush (flushed on entering an input or the end, or past the size bound)
 * with the send timeout's failure, and the type-directed encoding of an item.
 *
 * <p>Used by the socket's owner thread only, like the socket.
 */
final class SessionOutput {
    private final SessionSocket session;
    /** The frame being batched, or null. */
    private Frame out;
    /** The thread whose {@link PendingOutputs} list holds this output, or null. */
    private Thread pendingOwner;

    SessionOutput(SessionSocket session) {
        this.session = session;
    }

    /** The frame being batched; one is started if none. */
    Frame buffer() {
        Frame o = out;
        if (o == null) {
            o = Frames.newFrame(session.connection(), 256);
            out = o;
        }
        return o;
    }

    /** Whether a frame is being batched. */
    boolean isPending() {
        return out != null;
    }

    /**
     * The session moved to {@code next}: the batch goes out if {@code next} waits for the peer or the
     * batch is full; a batch that stays is registered as the thread's pending output. Registering only
     * here, not when the frame is started, keeps a thread whose sends are each followed by a receive
     * (a request/response session) off {@link PendingOutputs} altogether, so it never gets a
     * thread-local map (~190 bytes that a million idle virtual threads would each keep).
     */
    void advanced(State next, int batchBytes) {
        Frame o = out;
        if (o == null) {
            return;
        }
        if (next.flushOnEntry() || o.readableBytes() >= batchBytes) {
            flush();
            return;
        }
        batched();
    }

    /*
     * sent() and selected() are advanced() for a frame that exists (an output action just wrote to it),
     * twice the same few lines on purpose: the compiler profiles each method once for all its callers, so
     * a send and a loop condition sharing one would each inline the other's usual path (a send of a
     * request/response loop always flushes, the outwhile(true) before it always batches) and compile past
     * the size up to which it inlines them into the program's loop (SessionLifecycle.advanceAfterSend).
     */

    /** After a send into the batch: as {@link #advanced}. */
    void sent(State next, int batchBytes) {
        if (next.flushOnEntry() || out.readableBytes() >= batchBytes) {
            flush();
            return;
        }
        batched();
    }

    /** After a selection or a loop condition written into the batch: as {@link #advanced}. */
    void selected(State next, int batchBytes) {
        if (next.flushOnEntry() || out.readableBytes() >= batchBytes) {
            flush();
            return;
        }
        batched();
    }

    /** The batch stays: it is registered as the thread's pending output, unless it is already. */
    private void batched() {
        Thread current = Thread.currentThread();
        if (pendingOwner != current) {
            pendingOwner = current;
            PendingOutputs.add(this);
        }
    }

    /** Whether this output is on the current thread's pending list (for tests). */
    boolean isRegisteredWithThread() {
        return pendingOwner == Thread.currentThread();
    }

    /** Sends the batched frame; a failure fails the session (a send timeout as {@link SendTimeoutException}). */
    void flush() {
        Frame o = out;
        out = null;
        var connection = session.connection();
        try {
            Frames.writeAndFlush(connection, o);
        } catch (WriteTimeoutException e) {
            String message = "send timeout: the peer took nothing for "
                    + Duration.ofNanos(session.sendTimeoutNanos()) + " while this side of "
                    + session.protocol() + " sent, before " + session.state().describe() + " (" + e.getMessage() + ")";
            session.fail(message, false, e);
            throw new SendTimeoutException(message);
        } catch (IOException e) {
            String reason = FailureNotice.waiting(connection);
            // Names the session, the peer (the connection's description in the transport's message)
            // and the action that was pending: what a user needs to find which session broke where.
            throw session.fail(reason != null ? "the peer failed the session: " + reason
                    : "the connection to the peer was lost (" + e.getMessage() + ") while this side of the session "
                            + SessionInput.quote(session.protocol()) + " sent, before " + session.state().describe(),
                    false, e);
        }
    }

    /** Called by {@link PendingOutputs} before the thread blocks. */
    void flushPending() {
        pendingOwner = null;
        if (out != null && !session.hasFailed()) {
            try {
                flush();
            } catch (SJIOException e) {
                // The failure is recorded; this session's next action reports it.
            }
        }
    }

    /** Takes this output off the current thread's pending list (the socket closes or moves away). */
    void leaveThread() {
        if (pendingOwner == Thread.currentThread()) {
            PendingOutputs.remove(this);
        }
        pendingOwner = null;
    }

    /** Drops the batched frame unsent. */
    void discard() {
        if (out != null) {
            out.release();
            out = null;
        }
    }

    /**
     * Encodes {@code value} of the declared {@code type} into the batch ({@code pass}: by reference
     * where the connection can carry references).
     */
    void write(MessageType type, Object value, boolean pass) throws IOException {
        WireKind kind = type.kind();
        LocalConnection local = session.local();
        if (pass && local != null && !kind.isPrimitive() && kind != WireKind.SESSION && type.keepsClass(value)) {
            // Ownership moves with the reference: no copy, no encoding.
            local.writeReference(value);
            buffer().writeByte(Tags.REFERENCE);
            return;
        }
        Frame buf;
        switch (kind) {
            case INT -> buffer().writeByte(Tags.INT).writeInt((Integer) value);
            case LONG -> buffer().writeByte(Tags.LONG).writeLong((Long) value);
            case DOUBLE -> buffer().writeByte(Tags.DOUBLE).writeDouble((Double) value);
            case FLOAT -> buffer().writeByte(Tags.FLOAT).writeFloat((Float) value);
            case BOOLEAN -> buffer().writeByte(Tags.BOOLEAN).writeBoolean((Boolean) value);
            case BYTE -> buffer().writeByte(Tags.BYTE).writeByte((Byte) value);
            case SHORT -> buffer().writeByte(Tags.SHORT).writeShort((Short) value);
            case CHAR -> buffer().writeByte(Tags.CHAR).writeChar((Character) value);
            case STRING -> {
                buf = buffer().writeByte(Tags.STRING);
                ValueCodec.writeText(buf, (String) value);
            }
            case OBJECT -> {
                buf = buffer().writeByte(Tags.OBJECT);
                ValueCodec.writeObject(buf, type.writer(), value);
            }
            case RECORD -> RecordCodec.write(buffer().writeByte(Tags.RECORD), type.layout(), value);
            case RECORD_ARRAY -> RecordCodec.writeArray(buffer().writeByte(Tags.RECORD_ARRAY), type.layout(),
                    (Object[]) value);
            case SESSION -> {
                if (type.isService()) {
                    ServicePassing.write(buffer(), (SJService) value);
                } else {
                    Delegation.delegate(session, type, value);
                }
            }
            default -> {
                buf = buffer().writeByte(kind.tag());
                ValueCodec.writeArray(buf, kind, value);
            }
        }
    }
}
