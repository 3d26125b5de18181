package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.Frames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.wire.FailureNotice;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.RecordCodec;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.LocalConnection;

/**
 * The input side of one session: the frame being read, what a delegation carried over (input the
 * delegator had not consumed and the references passed with it), the wait for the next frame with its
 * timeout, the control frames that may come in its place (a failure notice, a delegation notice), and
 * the type-directed decoding of an item.
 *
 * <p>Used by the socket's owner thread only, like the socket.
 */
final class SessionInput {
    private final SessionSocket session;
    /** The frame being read, or null. */
    private Frame in;
    /** References passed by the peer that belong to items of a delegated session's carried-over input. */
    private ArrayDeque<Object> carried;

    /** A timeout argument that stands for the session's receive timeout ({@code sessionj.receiveTimeout}). */
    static final long RECEIVE_TIMEOUT = Long.MIN_VALUE;
    /** Protocol text quoted in a message up to this length (a protocol can be long). */
    private static final int QUOTED = 160;

    SessionInput(SessionSocket session, Frame prefix, ArrayDeque<Object> carried) {
        this.session = session;
        this.in = prefix;
        this.carried = carried;
    }

    /** Whether an item is waiting in the frame being read. */
    boolean hasItem() {
        Frame buf = in;
        return buf != null && buf.isReadable();
    }

    /** The frame holding the next item, waiting up to the session's receive timeout for one if needed. */
    Frame next(State expected) {
        return next(expected, RECEIVE_TIMEOUT);
    }

    /**
     * The frame holding the next item, waiting up to {@code timeoutNanos} (negative: no bound;
     * {@link #RECEIVE_TIMEOUT}: the session's receive timeout) for one if needed. A failure notice from the peer fails the session here; a delegation notice is followed
     * to the new owner's connection.
     */
    Frame next(State expected, long timeoutNanos) {
        // Small, with the rare cases apart: the compiler inlines it into the receive, and a virtual thread
        // that yields while waiting for the frame freezes one frame fewer at every yield.
        Frame buf = in;
        boolean fresh = buf == null || !buf.isReadable();
        if (fresh) {
            buf = fresh(expected, timeoutNanos);
        }
        byte next = buf.getByte(buf.readerIndex());
        if (next == Tags.DELEGATE || next == Tags.FAIL) {
            return control(expected, timeoutNanos, buf, fresh);
        }
        return buf;
    }

    /** The next frame from the connection (the drained one released, batched output sent first). */
    private Frame fresh(State expected, long timeoutNanos) {
        Frame drained = in;
        if (drained != null) {
            drained.release();
            in = null;
        }
        PendingOutputs.flushAll();
        boolean bySetting = timeoutNanos == RECEIVE_TIMEOUT;
        long timeout = bySetting ? session.settings().defaultTimeoutNanos() : timeoutNanos;
        Frame frame;
        try {
            frame = Frames.read(session.connection(), timeout);
        } catch (IOException e) {
            throw lost(expected, e);
        }
        if (frame == null || !frame.isReadable()) {
            throw noItem(expected, frame, timeout, bySetting);
        }
        in = frame;
        return frame;
    }

    /** The read failed: the session fails (unless it had already). */
    private SJIOException lost(State expected, IOException e) {
        String reason = session.failure();
        if (reason != null) {
            return new SJIOException("the session has failed: " + reason, e);
        }
        return session.fail("the connection to the peer was lost (" + e.getMessage()
                + ") while this side of the session " + quoted() + " expected " + expected.describe(), false, e);
    }

    /** No frame within the timeout ({@code frame} null), or an empty one: the session fails. */
    private RuntimeException noItem(State expected, Frame frame, long timeoutNanos, boolean bySetting) {
        if (frame == null) {
            String message = "no input within " + Duration.ofNanos(timeoutNanos) + " for " + expected.describe()
                    + " in the session " + quoted() + (bySetting ? " (sessionj.receiveTimeout)" : " (the receive's timeout)");
            session.fail(message, true, null);
            return new SJTimeoutException(message);
        }
        frame.release();
        return session.fail("the peer sent an empty frame while this side expected " + expected.describe(), true, null);
    }

    /** A control frame at {@code buf}: the peer delegates its end (followed) or failed the session. */
    private Frame control(State expected, long timeoutNanos, Frame buf, boolean fresh) {
        byte next = buf.getByte(buf.readerIndex());
        if (next == Tags.DELEGATE) {
            // A delegating peer flushes its items, then announces the delegation in a frame of its
            // own; a DELEGATE behind items in one frame is no delegation but a lie.
            if (!fresh) {
                throw session.unexpected(expected, next);
            }
            Connection newOwner = session.awaitNewOwner(buf);
            buf.release();
            in = null;
            session.switchConnection(newOwner);
            return next(expected, timeoutNanos);
        }
        buf.skipBytes(1);
        String reason;
        try {
            reason = FailureNotice.received(ValueCodec.readString(buf));
        } catch (MalformedInputException e) {
            reason = "(unreadable reason)";
        }
        throw session.fail("the peer failed the session: " + reason, false, null);
    }

    /** Decodes the item at {@code buf} (its tag next) as a value of the declared {@code type}, in state {@code s}. */
    Object read(MessageType type, Frame buf, State s) {
        byte tag = buf.readByte();
        WireKind kind = type.kind();
        try {
            ArrayDeque<Object> references = carried;
            LocalConnection local = session.local();
            if (tag == Tags.REFERENCE && (local != null || references != null) && !kind.isPrimitive()) {
                Object reference = references != null && !references.isEmpty() ? references.poll()
                        : local.readReference();
                if (reference != null && !type.accepts(reference)) {
                    throw session.fail("the peer passed a " + reference.getClass().getName() + " where "
                            + s.describe() + " was expected", true, null);
                }
                return reference;
            }
            if (tag != kind.tag()) {
                throw session.unexpected(s, tag);
            }
            return switch (kind) {
                case INT, LONG, DOUBLE, FLOAT, BOOLEAN, BYTE, SHORT, CHAR -> ValueCodec.readPrimitive(kind, buf);
                case STRING -> ValueCodec.readString(buf);
                case OBJECT -> ValueCodec.readObject(buf, type.reader(), type.toString());
                case RECORD -> RecordCodec.read(buf, type.layout());
                case RECORD_ARRAY -> RecordCodec.readArray(buf, type.layout());
                case SESSION -> readSession(type, buf);
                default -> ValueCodec.readArray(buf, kind);
            };
        } catch (MalformedInputException | IOException e) {
            throw session.fail("bad message from the peer for " + s.describe() + ": " + e.getMessage(), true, e);
        } catch (org.sessionj.api.SJException e) {
            throw e;
        } catch (RuntimeException e) {
            // The message class's own code refused the value (a record's constructor that validates its
            // components): the item is consumed and no value can be given, so the session fails and the
            // peer is told rather than left waiting (adv12 A5).
            throw session.fail("could not make the message for " + s.describe() + " from what the peer sent: "
                    + "its class's code threw " + e, true, e);
        }
    }

    /** A received service or delegated session; a refusal fails this session (its type cannot go on). */
    private Object readSession(MessageType type, Frame buf) throws MalformedInputException {
        try {
            return type.isService() ? ServicePassing.read(buf, type, session.settings().context())
                    : Delegation.takeOver(buf, type, session);
        } catch (Delegation.ReconnectFailure e) {
            throw session.fail(e.getMessage(), Delegation.ReconnectFailure.TO_PEER, e);
        } catch (SJIOException e) {
            throw session.fail(e.getMessage(), true, e);
        }
    }

    /** Delegator: the input received but not consumed (null if none); this side no longer holds it. */
    Frame takeUnread() {
        Frame unread = in;
        in = null;
        if (unread != null && !unread.isReadable()) {
            unread.release();
            return null;
        }
        return unread;
    }

    /** Delegator: references carried over from an earlier delegation and not yet consumed (null if none). */
    ArrayDeque<Object> takeCarried() {
        ArrayDeque<Object> references = carried;
        carried = null;
        return references;
    }

    /** The session's protocol for a message, cut if long. */
    private String quoted() {
        return quote(session.protocol());
    }

    /** {@code protocol} as messages quote it: cut after {@value #QUOTED} characters. */
    static String quote(String protocol) {
        return protocol.length() <= QUOTED ? protocol : protocol.substring(0, QUOTED) + "…";
    }

    /**
     * Releases the frame being read once every item in it was taken, rather than at the next receive:
     * a session that waits (or is merely held) after a receive then keeps no frame, and an in-JVM
     * writer gets the frame back for its next message sooner.
     */
    void releaseIfDrained() {
        Frame buf = in;
        if (buf != null && !buf.isReadable()) {
            in = null;
            buf.release();
        }
    }

    /** Drops the frame being read. */
    void discard() {
        if (in != null) {
            in.release();
            in = null;
        }
    }
}
