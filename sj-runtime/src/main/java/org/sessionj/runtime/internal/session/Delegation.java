package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.Frames;
import org.sessionj.runtime.spi.support.HeapFrame;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.internal.monitor.Conformance;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.monitor.RemainingType;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.monitor.StateMachine;
import org.sessionj.runtime.internal.wire.FailureNotice;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Reconnection-based session delegation (docs/delegation.md §2): the delegator drains the session
 * from the passive peer and hands it, with everything the peer sent that the delegator did not
 * consume, to the new owner, who reconnects to the peer directly over the transport the negotiation
 * finds. The three roles are the static methods {@link #handOff} (delegator), {@link #takeOver} (new
 * owner) and {@link #follow} (passive peer).
 */
final class Delegation {
    static final byte SESSION = 2;
    /** Modes of a handed-off session. */
    static final byte PEER_FINISHED = 0;
    static final byte RESUME_AT_PEER = 1;

    private Delegation() {
    }

    // ---- delegator ---------------------------------------------------------------------------

    /**
     * Delegation, the delegator's side: {@code value} (a session socket) moves to the peer of
     * {@code carrier}, as the item {@code type} declares. The SESSION item goes into the carrier's
     * output and is flushed at once (the passive peer waits for the new owner).
     */
    static void delegate(SessionSocket carrier, MessageType type, Object value) throws IOException {
        if (!(value instanceof SessionSocket session)) {
            throw new SJIOException("only sockets of this runtime can be delegated, not " + value);
        }
        if (session == carrier) {
            throw new org.sessionj.api.SJProtocolViolationException("a session cannot be delegated over itself");
        }
        SessionContext context = carrier.settings().context();
        long timeout = (context != null ? context.config().initiationTimeout()
                : org.sessionj.runtime.SJRuntimeConfig.DEFAULT_INITIATION_TIMEOUT).toNanos();
        HandOff handOff = handOff(session, type, timeout);
        SessionOutput output = carrier.output();
        try {
            write(output.buffer(), handOff, carrier.connection());
        } catch (IOException e) {
            session.abandonDelegation(e.getMessage());
            throw e;
        } finally {
            handOff.drained().release();
        }
        try {
            output.flush(); // the peer waits for the new owner: do not let batching keep the session back
        } catch (SJIOException e) {
            session.abandonDelegation("the new owner could not be reached: " + e.getMessage());
            throw e;
        }
        session.completeDelegation();
    }

    /** The delegator's part, done before the SESSION item goes to the new owner. */
    record HandOff(SessionSocket session, String remaining, byte mode, UUID token, String host, int port,
            Frame drained, ArrayDeque<Object> references) {
    }

    /**
     * Takes {@code session} out of this side's hands: checks that a program following {@code declared}
     * may take it over, flushes it, sends DELEGATE to the peer and drains the peer up to its DRAINED
     * marker (or its close, when the peer finished its part). Nothing is sent to the new owner yet.
     */
    static HandOff handOff(SessionSocket session, MessageType declared, long timeoutNanos) {
        State remainingState = session.stateForDelegation();
        if (!Conformance.conforms(declared.sessionStart(), remainingState, JavaSubtyping.reflective(declared.loader()))) {
            throw new org.sessionj.api.SJProtocolViolationException("protocol violation: the session type expects "
                    + "a session of type " + declared + " but the program tried to delegate one whose remaining type is "
                    + print(remainingState));
        }
        String remaining = print(remainingState);
        Connection connection = session.flushForDelegation();
        ArrayDeque<Object> carried = session.takePrefixReferences();
        UUID token = UUID.randomUUID();
        Frame drained = new HeapFrame(256);
        Frame unread = session.takeUnreadInput();
        if (unread != null) {
            drained.writeBytes(unread);
            unread.release();
        }
        if (connection instanceof FinishedConnection) {
            // Received by delegation from a peer that had already finished: only the carried input is left.
            return new HandOff(session, remaining, PEER_FINISHED, null, null, 0, drained, carried);
        }
        try {
            Frame notice = Frames.allocate(connection, 17);
            writeToken(notice.writeByte(Tags.DELEGATE), token);
            Frames.write(connection, notice);
            connection.flush();
        } catch (IOException closedByPeer) {
            // The peer closed already (it finished its part, or it is gone): the drain below reads
            // what it sent before closing and then sees the close.
        }
        long deadline = System.nanoTime() + timeoutNanos;
        // The carried input goes to the new owner in one frame, so it is bounded like one (H21-3): before, what a
        // peer sent without reading (it sees DELEGATE only when it reads) was all buffered here, up to the
        // initiation timeout: a front end's 254 MB calendar stream ended the portal demo (256 MiB heap) with an
        // OutOfMemoryError out of the delegating send(); a smaller excess failed only once drained, as a frame
        // too large to send.
        int maxCarried = SystemSettings.system().integer("tcp.maxFrameBytes", 16 << 20);
        while (true) {
            Frame frame;
            try {
                frame = Frames.read(connection, Math.max(0, deadline - System.nanoTime()));
            } catch (IOException closed) {
                // The peer closed: it finished its part, and every frame it wrote was read before the close.
                return new HandOff(session, remaining, PEER_FINISHED, null, null, 0, drained, merge(carried, references(connection)));
            }
            if (frame == null) {
                drained.release();
                throw session.failDelegation("the peer did not acknowledge the delegation within "
                        + java.time.Duration.ofNanos(timeoutNanos), null);
            }
            try {
                byte tag = frame.isReadable() ? frame.getByte(frame.readerIndex()) : 0;
                if (tag == Tags.DRAINED) {
                    frame.skipBytes(1);
                    UUID echoed = readToken(frame);
                    String host = ServicePassing.readBounded(frame, ServicePassing.MAX_HOST_BYTES, "the peer's host in its"
                            + " DRAINED marker", "");
                    int port = frame.readInt();
                    if (!token.equals(echoed) || host == null) {
                        throw new MalformedInputException("a DRAINED marker for another delegation");
                    }
                    return new HandOff(session, remaining, RESUME_AT_PEER, token, host, port, drained,
                            merge(carried, references(connection)));
                }
                if (tag == Tags.FAIL) {
                    frame.skipBytes(1);
                    String reason = FailureNotice.received(ValueCodec.readString(frame));
                    drained.release();
                    throw session.failDelegation("the peer failed the session during its delegation: " + reason, null);
                }
                if (tag == Tags.DELEGATE) {
                    drained.release();
                    throw session.failDelegation("both ends of the session were delegated at the same time,"
                            + " which this runtime does not support", null);
                }
                if (frame.readableBytes() > maxCarried - drained.readableBytes()) {
                    drained.release();
                    throw session.failDelegation("the peer sent more than " + maxCarried + " bytes that this side had"
                            + " not read, before it acknowledged the delegation (it sees the delegation only when it"
                            + " reads): a delegated session carries at most one frame of the peer's unread input to its"
                            + " new owner (sessionj.tcp.maxFrameBytes)", null);
                }
                drained.writeBytes(frame);
            } catch (MalformedInputException | IndexOutOfBoundsException e) {
                drained.release();
                throw session.failDelegation("bad frame from the peer during delegation: " + e.getMessage(), e);
            } finally {
                frame.release();
            }
        }
    }

    private static ArrayDeque<Object> merge(ArrayDeque<Object> first, ArrayDeque<Object> then) {
        if (first == null || first.isEmpty()) {
            return then;
        }
        if (then != null) {
            first.addAll(then);
        }
        return first;
    }

    /** The references the peer passed before its last frame (on an in-JVM connection), in order. */
    private static ArrayDeque<Object> references(Connection connection) {
        LocalConnection local = connection.capability(LocalConnection.class);
        if (local == null) {
            return null;
        }
        ArrayDeque<Object> references = new ArrayDeque<>();
        while (true) {
            try {
                references.add(local.readReference());
            } catch (IOException none) {
                return references.isEmpty() ? null : references;
            }
        }
    }

    /**
     * Writes the SESSION item for the new owner:
     * {@code 0x22 · 2 · remaining:string · mode:int8 · [token · host:string · port:int32] · references:int32
     * · drained-length:int32 · drained}. Passed references travel beside the frame on {@code target}
     * (only possible when it is an in-JVM connection).
     */
    static void write(Frame out, HandOff handOff, Connection target) throws IOException {
        ArrayDeque<Object> references = handOff.references();
        if (references != null && !references.isEmpty()) {
            LocalConnection local = target.capability(LocalConnection.class);
            if (local == null) {
                throw new IOException("the delegated session holds " + references.size() + " value(s) passed by"
                        + " reference and not yet received; they cannot leave this JVM (receive them before delegating)");
            }
            for (Object reference : references) {
                local.writeReference(reference);
            }
        }
        out.writeByte(Tags.SESSION).writeByte(SESSION);
        ValueCodec.writeString(out, handOff.remaining());
        out.writeByte(handOff.mode());
        if (handOff.mode() == RESUME_AT_PEER) {
            writeToken(out, handOff.token());
            ValueCodec.writeString(out, handOff.host());
            out.writeInt(handOff.port());
        }
        out.writeInt(references == null ? 0 : references.size());
        out.writeInt(handOff.drained().readableBytes());
        out.writeBytes(handOff.drained());
    }

    // ---- new owner ---------------------------------------------------------------------------

    /**
     * Reads a SESSION item (its tag read) for the declared type {@code declared} and reconnects to the
     * peer: the socket continues the session at the state the delegator left it in.
     */
    static SessionSocket takeOver(Frame in, MessageType declared, SessionSocket carrier)
            throws MalformedInputException {
        if (!in.isReadable() || in.readByte() != SESSION) {
            throw new MalformedInputException("expected a session where the type says " + declared + ", found a service");
        }
        String remaining = ServicePassing.readBounded(in, ServicePassing.maxTypeBytes(carrier.settings().context()),
                "the delegated session's remaining type", " (sessionj.maxRequesterTypeBytes)");
        if (remaining == null || !in.isReadable()) {
            throw new MalformedInputException("truncated delegated session");
        }
        byte mode = in.readByte();
        UUID token = null;
        String host = null;
        int port = 0;
        if (mode == RESUME_AT_PEER) {
            token = readToken(in);
            host = ServicePassing.readBounded(in, ServicePassing.MAX_HOST_BYTES, "the delegated session's peer host", "");
            port = in.readInt();
        } else if (mode != PEER_FINISHED) {
            throw new MalformedInputException("unknown delegation mode " + mode);
        }
        int referenceCount = in.readInt();
        int length = in.readInt();
        if (length < 0 || length > in.readableBytes() || referenceCount < 0 || referenceCount > length) {
            throw new MalformedInputException("bad delegated input: " + length + " bytes, " + referenceCount
                    + " references, " + in.readableBytes() + " bytes left in the frame");
        }
        State theirs;
        try {
            theirs = StateMachine.compile(SessionTypes.parse(remaining), declared.loader());
        } catch (RuntimeException e) {
            throw new MalformedInputException("the delegated session's type " + remaining + " is not usable here: "
                    + e.getMessage());
        }
        ArrayDeque<Object> references = takeReferences(carrier.local(), referenceCount);
        SessionContext context = carrier.settings().context();
        if (context == null) {
            throw new SJIOException("this socket belongs to no runtime, so it cannot receive delegated sessions");
        }
        Connection connection;
        String refusal = Conformance.conforms(declared.sessionStart(), theirs,
                JavaSubtyping.reflective(declared.loader())) ? null
                : "received a delegated session whose remaining type " + remaining
                        + " does not match the declared type " + declared;
        if (mode == RESUME_AT_PEER) {
            // Only where the delegator may send this runtime (hostile17 H8: else a peer could make it connect
            // anywhere and learn from what happens), and the delegator learns no more than that it failed.
            String refused = ReconnectTargets.refusal(host, carrier.connection().peerAddress(), SystemSettings.system());
            if (refused != null) {
                throw new ReconnectFailure("refused to reconnect to the delegated session's peer at " + host + ":" + port
                        + ": " + refused, null);
            }
            try {
                connection = Initiation.resume(host, port, token, context);
            } catch (SJIOException e) {
                throw new ReconnectFailure("could not reconnect to the delegated session's peer at " + host + ":" + port
                        + ": " + e.getMessage(), e);
            }
        } else {
            connection = new FinishedConnection(carrier.connection());
        }
        if (refusal != null) {
            org.sessionj.runtime.internal.wire.FailureNotice.send(connection, refusal);
            connection.close();
            throw new SJIOException(refusal);
        }
        Frame prefix = null;
        if (length > 0) {
            prefix = new HeapFrame(length);
            in.readBytes(prefix, length);
        }
        return new SessionSocket(connection, declared.sessionStart(), carrier.settings(), print(declared.sessionStart()),
                prefix, references);
    }

    /**
     * The new owner could not, or would not, reconnect a delegated session: the message says where and why,
     * for this side's program; the delegator is told only {@link #TO_PEER} (the reason could tell it whether
     * an address it chose is reachable from here).
     */
    static final class ReconnectFailure extends SJIOException {
        private static final long serialVersionUID = 1L;
        /** What the delegator is told. */
        static final String TO_PEER = "the new owner could not take over the delegated session (its reconnection to the"
                + " session's peer failed or was refused; the reason went to the new owner's program)";

        ReconnectFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** New owner: the {@code count} references the delegator passed beside the SESSION item just read. */
    private static ArrayDeque<Object> takeReferences(LocalConnection local, int count) throws MalformedInputException {
        if (count == 0) {
            return null;
        }
        if (local == null) {
            throw new MalformedInputException("the delegated session carries " + count
                    + " passed references over a connection that cannot pass references");
        }
        ArrayDeque<Object> references = new ArrayDeque<>(count);
        try {
            for (int i = 0; i < count; i++) {
                references.add(local.readReference());
            }
        } catch (IOException e) {
            throw new MalformedInputException("the delegated session's passed references are missing: " + e.getMessage());
        }
        return references;
    }

    // ---- passive peer ------------------------------------------------------------------------

    /**
     * The passive peer, on reading DELEGATE (its tag at {@code notice}'s reader index): registers the
     * token at its runtime's resumption endpoint, answers DRAINED (after which it sends nothing more on
     * the old connection), and waits for the new owner's reconnection while watching the old connection
     * for a failure or a vanished delegator. Returns the new connection.
     */
    static Connection follow(Frame notice, Connection old, SessionContext context)
            throws IOException, MalformedInputException {
        notice.skipBytes(1);
        UUID token = readToken(notice);
        if (context == null) {
            throw new IOException("the session was delegated by the peer, but this socket belongs to no runtime");
        }
        Resumptions resumptions = context.resumptions();
        CompletableFuture<Connection> reconnection = new CompletableFuture<>();
        int port = resumptions.open(token, reconnection);
        boolean switched = false;
        try {
            Frame marker = Frames.allocate(old, 64);
            writeToken(marker.writeByte(Tags.DRAINED), token);
            ValueCodec.writeString(marker, Resumptions.advertisedHost());
            marker.writeInt(port);
            Frames.write(old, marker);
            old.flush();
            Connection fresh = awaitNewOwner(reconnection, old, context.config().initiationTimeout().toNanos());
            switched = true;
            return fresh;
        } finally {
            resumptions.forget(token);
            old.readinessListener(null);
            if (!switched) {
                // A reconnection that raced with this failure is closed: the new owner learns at once.
                reconnection.thenAccept(Connection::close);
            }
        }
    }

    private static Connection awaitNewOwner(CompletableFuture<Connection> reconnection, Connection old,
            long timeoutNanos) throws IOException {
        long deadline = System.nanoTime() + timeoutNanos;
        AtomicReference<CompletableFuture<Void>> signal = new AtomicReference<>();
        old.readinessListener(() -> {
            CompletableFuture<Void> s = signal.get();
            if (s != null) {
                s.complete(null);
            }
        });
        boolean watching = true;
        boolean handedOver = false;
        while (true) {
            CompletableFuture<Void> event = new CompletableFuture<>();
            signal.set(event);
            if (reconnection.isDone()) {
                return join(reconnection);
            }
            if (watching && old.isReadable()) {
                String problem = null;
                try {
                    Frame frame = Frames.read(old, 0);
                    if (frame != null) {
                        try {
                            byte tag = frame.isReadable() ? frame.readByte() : 0;
                            if (tag == Tags.HANDED_OVER) {
                                handedOver = true;
                            } else if (tag == Tags.FAIL) {
                                problem = "the delegator failed the session during its delegation: " + readReason(frame);
                            } else {
                                problem = "the delegator sent " + Tags.describe(tag) + " after announcing the delegation";
                            }
                        } finally {
                            frame.release();
                        }
                    }
                } catch (IOException closed) {
                    watching = false;
                    if (!handedOver) {
                        problem = "the delegator vanished before handing the session over to its new owner";
                    }
                }
                if (problem != null) {
                    throw new IOException(problem);
                }
                continue;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new SJTimeoutException("the session was delegated, but its new owner did not reconnect within "
                        + java.time.Duration.ofNanos(timeoutNanos)
                        + (handedOver ? "" : " (and the delegator never confirmed the hand-over)"));
            }
            try {
                CompletableFuture.anyOf(reconnection, event).get(remaining, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // loop: the deadline check reports it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for the new owner of the session");
            } catch (ExecutionException e) {
                // the reconnection failed: reported by join
            }
        }
    }

    private static Connection join(CompletableFuture<Connection> reconnection) throws IOException {
        try {
            return reconnection.get();
        } catch (ExecutionException e) {
            throw new IOException("the new owner's reconnection failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the new owner of the session");
        }
    }

    private static String readReason(Frame frame) {
        try {
            return FailureNotice.received(ValueCodec.readString(frame));
        } catch (MalformedInputException e) {
            return "(unreadable reason)";
        }
    }

    // ---- helpers -----------------------------------------------------------------------------

    private static String print(State state) {
        SessionType type = RemainingType.of(state);
        return SessionTypes.print(type);
    }

    private static void writeToken(Frame out, UUID token) {
        out.writeLong(token.getMostSignificantBits()).writeLong(token.getLeastSignificantBits());
    }

    private static UUID readToken(Frame in) throws MalformedInputException {
        if (in.readableBytes() < 16) {
            throw new MalformedInputException("truncated delegation token");
        }
        return new UUID(in.readLong(), in.readLong());
    }
}
