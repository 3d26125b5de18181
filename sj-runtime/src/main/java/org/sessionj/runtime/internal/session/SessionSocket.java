package org.sessionj.runtime.internal.session;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import org.sessionj.api.SJException;
import org.sessionj.api.SJService;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.api.SendTimeoutException;
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
import org.sessionj.runtime.spi.WriteTimeoutException;

/**
 * An established session: performs each action over its connection, following the compiled session
 * type. The state machine drives the type-directed encoding, the checks of the runtime monitor and
 * the batching of outputs (flushed on entering an input or the end, or past the size bound).
 *
 * <p>Owned by one thread at a time, like the socket variable in the program; only
 * {@link #failFromElsewhere} may be called from other threads.
 */
public final class SessionSocket implements SJSocket {
    /** Replaced when the peer delegates its end (the new owner reconnects, docs/delegation.md). */
    private Connection connection;
    private LocalConnection local;
    private final SessionSettings settings;
    private final String protocol;
    private State state;
    private ByteBuf out;
    private ByteBuf in;
    private Thread pendingOwner;
    private boolean closed;
    /** Set when this end was delegated: the socket is dead here, the session lives on elsewhere. */
    private boolean delegated;
    /** References passed by the peer that belong to items of a delegated session's carried-over input. */
    private ArrayDeque<Object> prefixReferences;
    /** A selector's listener, kept so that it moves to the new connection when the peer delegates. */
    private volatile Runnable readinessListener;
    private volatile String failure;
    private volatile SessionScope scope;
    /** The thread inside an action of this socket, or null (misuse detection: see {@link #enter}). */
    @SuppressWarnings("unused")
    private Thread inside;
    private static final java.lang.invoke.VarHandle INSIDE;

    static {
        try {
            INSIDE = java.lang.invoke.MethodHandles.lookup().findVarHandle(SessionSocket.class, "inside", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    SessionSocket(Connection connection, State start, SessionSettings settings, String protocol) {
        this.connection = connection;
        this.local = connection.capability(LocalConnection.class);
        this.settings = settings;
        if (settings.sendTimeoutNanos() >= 0) {
            connection.sendTimeout(settings.sendTimeoutNanos());
        }
        this.protocol = protocol;
        this.state = start;
    }

    /**
     * A session taken over by delegation: {@code prefix} holds the items the peer sent before the
     * delegation that the delegator had not consumed (read first), {@code references} the values
     * passed by reference among them.
     */
    SessionSocket(Connection connection, State start, SessionSettings settings, String protocol, ByteBuf prefix,
            ArrayDeque<Object> references) {
        this(connection, start, settings, protocol);
        this.in = prefix;
        this.prefixReferences = references;
    }

    // ---- sends -------------------------------------------------------------------------------

    @Override
    public void send(int message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.INT);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.INT).writeInt(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(long message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.LONG);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.LONG).writeLong(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(double message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.DOUBLE);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.DOUBLE).writeDouble(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(float message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.FLOAT);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.FLOAT).writeFloat(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(boolean message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.BOOLEAN);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.BOOLEAN).writeBoolean(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(byte message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.BYTE);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.BYTE).writeByte(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(short message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.SHORT);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.SHORT).writeShort(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(char message) {
        boolean entered = enter("send");
        try {
            State s = primitiveSend(WireKind.CHAR);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output().writeByte(Tags.CHAR).writeChar(message);
            advance(s.next());
        } finally {
            exit(entered);
        }
    }

    @Override
    public void send(Object message) {
        boolean entered = enter("send");
        try {
            sendObject(message, false);
        } finally {
            exit(entered);
        }
    }

    @Override
    public void pass(Object message) {
        boolean entered = enter("pass");
        try {
            sendObject(message, true);
        } finally {
            exit(entered);
        }
    }

    /**
     * The send state for a primitive of {@code kind}; null when the type declares a reference type
     * (then the value is boxed and checked like any object).
     */
    private State primitiveSend(WireKind kind) {
        State s = usableState();
        if (s.kind() == State.Kind.SEND) {
            WireKind declared = s.message().kind();
            if (declared == kind) {
                return s;
            }
            if (declared == WireKind.OBJECT) {
                return null;
            }
        }
        throw violation(s, "!<" + kind.typeName() + ">");
    }

    private void sendObject(Object message, boolean pass) {
        State s = usableState();
        if (s.kind() != State.Kind.SEND) {
            throw violation(s, "!<" + typeOf(message) + ">");
        }
        MessageType type = s.message();
        if (settings.monitor() && !type.accepts(message)) {
            throw violation(s, "!<" + typeOf(message) + ">");
        }
        ByteBuf buf = output();
        int mark = buf.writerIndex();
        try {
            writeValue(type, message, pass);
        } catch (ClassCastException | com.fasterxml.jackson.databind.exc.InvalidDefinitionException e) {
            // Only reachable with the monitor off: the typed encoder refused the value. Nothing is sent.
            buf.writerIndex(mark);
            throw violation(s, "!<" + typeOf(message) + ">");
        } catch (IOException e) {
            buf.writerIndex(mark);
            throw fail("could not send a " + type + ": " + e.getMessage(), true, e);
        }
        advance(s.next());
    }

    private void writeValue(MessageType type, Object value, boolean pass) throws IOException {
        WireKind kind = type.kind();
        if (pass && local != null && !kind.isPrimitive() && kind != WireKind.SESSION) {
            // Ownership moves with the reference: no copy, no encoding.
            local.writeReference(value);
            output().writeByte(Tags.REFERENCE);
            return;
        }
        ByteBuf buf;
        switch (kind) {
            case INT -> output().writeByte(Tags.INT).writeInt((Integer) value);
            case LONG -> output().writeByte(Tags.LONG).writeLong((Long) value);
            case DOUBLE -> output().writeByte(Tags.DOUBLE).writeDouble((Double) value);
            case FLOAT -> output().writeByte(Tags.FLOAT).writeFloat((Float) value);
            case BOOLEAN -> output().writeByte(Tags.BOOLEAN).writeBoolean((Boolean) value);
            case BYTE -> output().writeByte(Tags.BYTE).writeByte((Byte) value);
            case SHORT -> output().writeByte(Tags.SHORT).writeShort((Short) value);
            case CHAR -> output().writeByte(Tags.CHAR).writeChar((Character) value);
            case STRING -> {
                buf = output().writeByte(Tags.STRING);
                ValueCodec.writeString(buf, (String) value);
            }
            case OBJECT -> {
                buf = output().writeByte(Tags.OBJECT);
                ValueCodec.writeObject(buf, type.writer(), value);
            }
            case RECORD -> RecordCodec.write(output().writeByte(Tags.RECORD), type.layout(), value);
            case RECORD_ARRAY -> RecordCodec.writeArray(output().writeByte(Tags.RECORD_ARRAY), type.layout(),
                    (Object[]) value);
            case SESSION -> {
                if (type.isService()) {
                    ServicePassing.write(output(), (SJService) value);
                } else {
                    delegate(type, value);
                }
            }
            default -> {
                buf = output().writeByte(kind.tag());
                ValueCodec.writeArray(buf, kind, value);
            }
        }
    }

    /** Delegation, the delegator's side (docs/delegation.md): {@code value} moves to the peer of this session. */
    private void delegate(MessageType type, Object value) throws IOException {
        if (!(value instanceof SessionSocket session)) {
            throw new SJIOException("only sockets of this runtime can be delegated, not " + value);
        }
        if (session == this) {
            throw new SJProtocolViolationException("a session cannot be delegated over itself");
        }
        SessionContext context = settings.context();
        long timeout = (context != null ? context.config().initiationTimeout()
                : org.sessionj.runtime.SJRuntimeConfig.DEFAULT_INITIATION_TIMEOUT).toNanos();
        Delegation.HandOff handOff = Delegation.handOff(session, type, timeout);
        try {
            Delegation.write(output(), handOff, connection);
        } catch (IOException e) {
            session.abandonDelegation(e.getMessage());
            throw e;
        } finally {
            handOff.drained().release();
        }
        try {
            flush(); // the peer waits for the new owner: do not let batching keep the session back
        } catch (SJIOException e) {
            session.abandonDelegation("the new owner could not be reached: " + e.getMessage());
            throw e;
        }
        session.completeDelegation();
    }

    /** Delegator: the state the session is delegated at (it must be usable). */
    State stateForDelegation() {
        return usableState();
    }

    /** Delegator: sends pending output and takes the socket off the thread's pending list; the connection. */
    Connection flushForDelegation() {
        if (out != null) {
            flush();
        }
        if (pendingOwner == Thread.currentThread()) {
            PendingOutputs.remove(this);
        }
        pendingOwner = null;
        return connection;
    }

    /** Delegator: the input received but not consumed (null if none); the socket no longer holds it. */
    ByteBuf takeUnreadInput() {
        ByteBuf unread = in;
        in = null;
        if (unread != null && !unread.isReadable()) {
            unread.release();
            return null;
        }
        return unread;
    }

    /** Delegator: references carried over from an earlier delegation and not yet consumed (null if none). */
    ArrayDeque<Object> takePrefixReferences() {
        ArrayDeque<Object> references = prefixReferences;
        prefixReferences = null;
        return references;
    }

    /** Delegator: the delegation cannot go on; the peer is told and the session fails here. */
    SJIOException failDelegation(String reason, Throwable cause) {
        return fail("delegation failed: " + reason, true, cause);
    }

    /** Delegator: the new owner could not be given the session; the waiting peer is told so. */
    void abandonDelegation(String reason) {
        fail("the delegation to a new owner failed: " + reason, true, null);
    }

    /** Delegator: the session is in the new owner's hands; tell the peer and let go of the connection. */
    void completeDelegation() {
        try {
            ByteBuf handedOver = connection.alloc().buffer(1).writeByte(Tags.HANDED_OVER);
            connection.write(handedOver);
            connection.flush();
        } catch (IOException e) {
            // The peer has gone; the new owner's reconnection will find that out.
        }
        delegated = true;
        closed = true;
        releaseBuffers();
        connection.close();
    }

    /** New owner: the {@code count} references the delegator passed beside the SESSION item just read. */
    ArrayDeque<Object> takeReferences(int count) throws MalformedInputException {
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

    SessionSettings settings() {
        return settings;
    }

    // ---- receives ----------------------------------------------------------------------------

    @Override
    public <T> T receive() {
        boolean entered = enter("receive");
        try {
            return receive(settings.defaultTimeoutNanos());
        } finally {
            exit(entered);
        }
    }

    @Override
    public <T> T receive(Duration timeout) {
        boolean entered = enter("receive");
        try {
            return receive(timeout.toNanos());
        } finally {
            exit(entered);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> T receive(long timeoutNanos) {
        State s = usableState();
        if (s.kind() != State.Kind.RECEIVE) {
            throw violation(s, "?(…)");
        }
        ByteBuf buf = inbound(s, timeoutNanos);
        Object value = readValue(s.message(), buf, s);
        advance(s.next());
        return (T) value;
    }

    @Override
    public int receiveInt() {
        boolean entered = enter("receiveInt");
        try {
            ByteBuf buf = primitiveReceive(WireKind.INT);
            if (buf == null) {
                return this.<Integer>unboxed();
            }
            int value = buf.readInt();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public long receiveLong() {
        boolean entered = enter("receiveLong");
        try {
            ByteBuf buf = primitiveReceive(WireKind.LONG);
            if (buf == null) {
                return this.<Long>unboxed();
            }
            long value = buf.readLong();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public double receiveDouble() {
        boolean entered = enter("receiveDouble");
        try {
            ByteBuf buf = primitiveReceive(WireKind.DOUBLE);
            if (buf == null) {
                return this.<Double>unboxed();
            }
            double value = buf.readDouble();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public float receiveFloat() {
        boolean entered = enter("receiveFloat");
        try {
            ByteBuf buf = primitiveReceive(WireKind.FLOAT);
            if (buf == null) {
                return this.<Float>unboxed();
            }
            float value = buf.readFloat();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public boolean receiveBoolean() {
        boolean entered = enter("receiveBoolean");
        try {
            ByteBuf buf = primitiveReceive(WireKind.BOOLEAN);
            if (buf == null) {
                return this.<Boolean>unboxed();
            }
            boolean value = buf.readBoolean();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public byte receiveByte() {
        boolean entered = enter("receiveByte");
        try {
            ByteBuf buf = primitiveReceive(WireKind.BYTE);
            if (buf == null) {
                return this.<Byte>unboxed();
            }
            byte value = buf.readByte();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public short receiveShort() {
        boolean entered = enter("receiveShort");
        try {
            ByteBuf buf = primitiveReceive(WireKind.SHORT);
            if (buf == null) {
                return this.<Short>unboxed();
            }
            short value = buf.readShort();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    @Override
    public char receiveChar() {
        boolean entered = enter("receiveChar");
        try {
            ByteBuf buf = primitiveReceive(WireKind.CHAR);
            if (buf == null) {
                return this.<Character>unboxed();
            }
            char value = buf.readChar();
            advance(state.next());
            return value;
        } finally {
            exit(entered);
        }
    }

    /**
     * Positions the input at the body of a primitive item of {@code kind} (its tag read and checked,
     * the body known to be there); null when the type declares a reference type instead.
     */
    private ByteBuf primitiveReceive(WireKind kind) {
        State s = usableState();
        if (s.kind() == State.Kind.RECEIVE) {
            WireKind declared = s.message().kind();
            if (declared == WireKind.OBJECT && s.message().type() == kind.boxed()) {
                return null;
            }
            if (declared == kind) {
                ByteBuf buf = inbound(s, settings.defaultTimeoutNanos());
                byte tag = buf.readByte();
                if (tag != kind.tag()) {
                    throw unexpected(s, tag);
                }
                if (buf.readableBytes() < kind.size()) {
                    throw fail("truncated frame from the peer: a " + kind.typeName() + " needs " + kind.size()
                            + " bytes, " + buf.readableBytes() + " left", true, null);
                }
                return buf;
            }
        }
        throw violation(s, "?(" + kind.typeName() + ")");
    }

    /** Receives a boxed value declared as a wrapper type and unboxes it; null is a failure. */
    private <B> B unboxed() {
        State s = state;
        B value = receive(settings.defaultTimeoutNanos());
        if (value == null) {
            throw new SJIOException("received null for " + s.describe() + " where a primitive was expected");
        }
        return value;
    }

    private Object readValue(MessageType type, ByteBuf buf, State s) {
        byte tag = buf.readByte();
        WireKind kind = type.kind();
        try {
            ArrayDeque<Object> carried = prefixReferences;
            if (tag == Tags.REFERENCE && (local != null || carried != null) && !kind.isPrimitive()) {
                Object reference = carried != null && !carried.isEmpty() ? carried.poll() : local.readReference();
                if (reference != null && !type.accepts(reference)) {
                    throw fail("the peer passed a " + reference.getClass().getName() + " where " + s.describe()
                            + " was expected", true, null);
                }
                return reference;
            }
            if (tag != kind.tag()) {
                throw unexpected(s, tag);
            }
            return switch (kind) {
                case INT, LONG, DOUBLE, FLOAT, BOOLEAN, BYTE, SHORT, CHAR -> ValueCodec.readPrimitive(kind, buf);
                case STRING -> ValueCodec.readString(buf);
                case OBJECT -> ValueCodec.readObject(buf, type.reader(), type.toString());
                case RECORD -> RecordCodec.read(buf, type.layout());
                case RECORD_ARRAY -> RecordCodec.readArray(buf, type.layout());
                case SESSION -> receiveSession(type, buf);
                default -> ValueCodec.readArray(buf, kind);
            };
        } catch (MalformedInputException | IOException e) {
            throw fail("bad message from the peer for " + s.describe() + ": " + e.getMessage(), true, e);
        }
    }

    /** A received service or delegated session; a refusal fails this session (its type cannot go on). */
    private Object receiveSession(MessageType type, ByteBuf buf) throws MalformedInputException {
        try {
            return type.isService() ? ServicePassing.read(buf, type, settings.context())
                    : Delegation.takeOver(buf, type, this);
        } catch (SJIOException e) {
            throw fail(e.getMessage(), true, e);
        }
    }

    // ---- branching and iteration -------------------------------------------------------------

    @Override
    public void outbranch(String label) {
        boolean entered = enter("outbranch");
        try {
            State s = usableState();
            if (s.kind() != State.Kind.SELECT) {
                throw violation(s, "!{" + label + ": …}");
            }
            State next = s.branch(label);
            if (next == null) {
                throw violation(s, "!{" + label + ": …} (label " + label + " is not among the choices)");
            }
            ByteBuf buf = output().writeByte(Tags.LABEL);
            ValueCodec.writeShortString(buf, label);
            advance(next);
        } finally {
            exit(entered);
        }
    }

    @Override
    public void outbranch(Enum<?> label) {
        boolean entered = enter("outbranch");
        try {
            outbranch(label.name());
        } finally {
            exit(entered);
        }
    }

    @Override
    public String inbranch() {
        boolean entered = enter("inbranch");
        try {
            State s = usableState();
            if (s.kind() != State.Kind.BRANCH) {
                throw violation(s, "?{…}");
            }
            ByteBuf buf = inbound(s, settings.defaultTimeoutNanos());
            byte tag = buf.readByte();
            if (tag != Tags.LABEL) {
                throw unexpected(s, tag);
            }
            String label;
            try {
                label = ValueCodec.readShortString(buf);
            } catch (MalformedInputException e) {
                throw fail("bad label from the peer for " + s.describe() + ": " + e.getMessage(), true, e);
            }
            State next = s.branch(label);
            if (next == null) {
                throw fail("the peer selected label '" + label + "', which " + s.describe() + " does not offer", true, null);
            }
            advance(next);
            return label;
        } finally {
            exit(entered);
        }
    }

    @Override
    public <E extends Enum<E>> E inbranch(Class<E> labels) {
        State s = usableState();
        if (s.kind() == State.Kind.BRANCH) {
            for (String label : s.labels()) {
                if (!hasConstant(labels, label)) {
                    throw violation(s, "?{…} into enum " + labels.getName() + ", which has no constant " + label);
                }
            }
        }
        return Enum.valueOf(labels, inbranch());
    }

    private static boolean hasConstant(Class<? extends Enum<?>> type, String name) {
        for (Enum<?> constant : type.getEnumConstants()) {
            if (constant.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean outwhile(boolean condition) {
        boolean entered = enter("outwhile");
        try {
            State s = usableState();
            if (s.kind() != State.Kind.OUTWHILE) {
                throw violation(s, "![…]*");
            }
            output().writeByte(Tags.LOOP).writeBoolean(condition);
            advance(condition ? s.body() : s.exit());
            return condition;
        } finally {
            exit(entered);
        }
    }

    @Override
    public boolean inwhile() {
        boolean entered = enter("inwhile");
        try {
            State s = usableState();
            if (s.kind() != State.Kind.INWHILE) {
                throw violation(s, "?[…]*");
            }
            ByteBuf buf = inbound(s, settings.defaultTimeoutNanos());
            byte tag = buf.readByte();
            if (tag != Tags.LOOP) {
                throw unexpected(s, tag);
            }
            if (!buf.isReadable()) {
                throw fail("truncated frame from the peer: an iteration flag without its value", true, null);
            }
            byte flag = buf.readByte();
            if (flag != 0 && flag != 1) {
                throw fail("bad iteration flag from the peer: " + flag, true, null);
            }
            advance(flag == 1 ? s.body() : s.exit());
            return flag == 1;
        } finally {
            exit(entered);
        }
    }

    // ---- misuse detection ----------------------------------------------------------------------

    /**
     * Marks the calling thread as inside an action. A socket is used by one thread at a time (the
     * checker forbids anything else; unchecked code can still do it): a second thread that starts an
     * action while another is inside one (blocked in a receive, say) gets a clear {@link SJException}
     * instead of corrupting the session. Acquire/release accesses only, plain moves on x86, so an
     * action pays a nanosecond or two; the price is that two threads entering in the very same
     * instant may both pass, to be caught at a later action. Nested calls (an overload calling
     * another) pass.
     *
     * @return whether this call entered (and must {@link #exit})
     */
    private boolean enter(String action) {
        Thread current = Thread.currentThread();
        Thread other = (Thread) INSIDE.getAcquire(this);
        if (other == null) {
            INSIDE.setRelease(this, current);
            return true;
        }
        if (other == current) {
            return false;
        }
        throw new SJException("concurrent use of a session socket: thread \"" + current.getName() + "\" called "
                + action + "() on the session " + protocol + " while thread \"" + other.getName()
                + "\" was inside another action of it; a session socket is used by one thread at a time"
                + " (hand it over between threads, never share it)");
    }

    private void exit(boolean entered) {
        if (entered) {
            INSIDE.setRelease(this, null);
        }
    }

    // ---- state, batching, input --------------------------------------------------------------

    private State usableState() {
        if (delegated) {
            throw new SJIOException("the session was delegated to another owner; this socket can no longer be used");
        }
        if (failure != null || closed) {
            throw failedOrClosed();
        }
        return state;
    }

    private SJIOException failedOrClosed() {
        String reason = failure;
        if (reason != null) {
            releaseBuffers();
            return new SJIOException("the session has failed: " + reason);
        }
        return new SJIOException("the session is closed");
    }

    private void advance(State next) {
        state = next;
        ByteBuf o = out;
        if (o != null && (next.flushOnEntry() || o.readableBytes() >= settings.batchBytes())) {
            flush();
        }
    }

    private ByteBuf output() {
        ByteBuf o = out;
        if (o == null) {
            o = connection.frameBuffer(256);
            out = o;
            Thread current = Thread.currentThread();
            if (pendingOwner != current) {
                pendingOwner = current;
                PendingOutputs.add(this);
            }
        }
        return o;
    }

    private void flush() {
        ByteBuf o = out;
        out = null;
        try {
            connection.write(o);
            connection.flush();
        } catch (WriteTimeoutException e) {
            String message = "send timeout: the peer took nothing for " + Duration.ofNanos(settings.sendTimeoutNanos())
                    + " while this side of " + protocol + " sent, before " + state.describe() + " (" + e.getMessage() + ")";
            fail(message, false, e);
            throw new SendTimeoutException(message);
        } catch (IOException e) {
            String reason = FailureNotice.waiting(connection);
            throw fail(reason != null ? "the peer failed the session: " + reason
                    : "the connection failed while sending: " + e.getMessage(), false, e);
        }
    }

    /** Called by {@link PendingOutputs} before the thread blocks. */
    void flushPendingOutput() {
        pendingOwner = null;
        if (out != null && failure == null) {
            try {
                flush();
            } catch (SJIOException e) {
                // The failure is recorded; this session's next action reports it.
            }
        }
    }

    /** The frame holding the next item, waiting for one if needed. A failure notice from the peer fails here. */
    private ByteBuf inbound(State expected, long timeoutNanos) {
        ByteBuf buf = in;
        boolean fresh = false;
        if (buf == null || !buf.isReadable()) {
            fresh = true;
            if (buf != null) {
                buf.release();
                in = null;
            }
            PendingOutputs.flushAll();
            ByteBuf frame;
            try {
                frame = connection.read(timeoutNanos);
            } catch (IOException e) {
                String reason = failure;
                if (reason != null) {
                    throw new SJIOException("the session has failed: " + reason, e);
                }
                throw fail("the connection to the peer was lost (" + e.getMessage() + ") while this side expected "
                        + expected.describe(), false, e);
            }
            if (frame == null) {
                String message = "no input within " + Duration.ofNanos(timeoutNanos) + " for " + expected.describe();
                fail(message, true, null);
                throw new SJTimeoutException(message);
            }
            if (!frame.isReadable()) {
                frame.release();
                throw fail("the peer sent an empty frame while this side expected " + expected.describe(), true, null);
            }
            in = frame;
            buf = frame;
        }
        byte next = buf.getByte(buf.readerIndex());
        if (next == Tags.DELEGATE) {
            // A delegating peer flushes its items, then announces the delegation in a frame of its
            // own; a DELEGATE behind items in one frame is no delegation but a lie.
            if (!fresh) {
                throw unexpected(expected, next);
            }
            followDelegation(buf);
            return inbound(expected, timeoutNanos);
        }
        if (next == Tags.FAIL) {
            buf.skipBytes(1);
            String reason;
            try {
                reason = ValueCodec.readString(buf);
            } catch (MalformedInputException e) {
                reason = "(unreadable reason)";
            }
            throw fail("the peer failed the session: " + reason, false, null);
        }
        return buf;
    }

    /** Passive peer: the other end is being delegated; switch to the connection of its new owner. */
    private void followDelegation(ByteBuf notice) {
        Connection fresh;
        try {
            fresh = Delegation.follow(notice, connection, settings.context());
        } catch (SJTimeoutException e) {
            fail(e.getMessage(), true, e);
            throw e;
        } catch (IOException | MalformedInputException e) {
            throw fail("the peer delegated the session, but the hand-over failed: " + e.getMessage(), true, e);
        }
        notice.release();
        in = null;
        Connection old = connection;
        connection = fresh;
        if (settings.sendTimeoutNanos() >= 0) {
            fresh.sendTimeout(settings.sendTimeoutNanos());
        }
        local = fresh.capability(LocalConnection.class);
        old.close();
        Runnable listener = readinessListener;
        if (listener != null) {
            fresh.readinessListener(listener);
        }
    }

    /** The listener told when input may be ready (a selector's or a join's), or null. */
    Runnable readinessListener() {
        return readinessListener;
    }

    /** Sets the selector's readiness listener on this session's connection, now and after a delegation. */
    void readinessListener(Runnable listener) {
        readinessListener = listener;
        connection.readinessListener(listener);
    }

    @Override
    public boolean isInputReady() {
        if (failure != null || closed) {
            return true;
        }
        ByteBuf buf = in;
        return (buf != null && buf.isReadable()) || connection.isReadable();
    }

    @Override
    public String protocol() {
        return protocol;
    }

    /** The state the session is in (for tests and diagnostics). */
    public State state() {
        return state;
    }

    /** Whether the session has failed. */
    public boolean hasFailed() {
        return failure != null;
    }

    /** The connection the session runs over. */
    public Connection connection() {
        return connection;
    }

    void scope(SessionScope scope) {
        this.scope = scope;
    }

    // ---- failure and close -------------------------------------------------------------------

    private SJProtocolViolationException violation(State expected, String found) {
        return new SJProtocolViolationException("protocol violation: the session type expects " + expected.describe()
                + " but the program tried " + found);
    }

    private SJIOException unexpected(State expected, byte tag) {
        return fail("the peer sent " + Tags.describe(tag) + " where this side expected " + expected.describe(), true,
                null);
    }

    /**
     * Fails the session (owner thread): records the reason, tells the peer if asked, closes the
     * connection and fails the rest of its scope. Returns the exception to throw.
     */
    private SJIOException fail(String reason, boolean notifyPeer, Throwable cause) {
        if (failure == null) {
            failure = reason;
            releaseBuffers();
            if (notifyPeer) {
                FailureNotice.send(connection, reason);
            }
            connection.close();
            SessionScope sc = scope;
            if (sc != null) {
                sc.memberFailed(this, reason);
            }
        }
        return cause == null ? new SJIOException(reason) : new SJIOException(reason, cause);
    }

    /**
     * Fails the session from any thread (its scope failed): the connection is closed, which the peer
     * sees on its next read, and a blocked input of this session wakes up with {@code reason}.
     */
    void failFromElsewhere(String reason) {
        if (failure == null && !closed) {
            failure = reason;
            connection.close();
        }
    }

    private void releaseBuffers() {
        if (out != null) {
            out.release();
            out = null;
        }
        if (in != null) {
            in.release();
            in = null;
        }
    }

    @Override
    public void close() {
        boolean entered = enter("close");
        try {
            if (closed) {
                return;
            }
            if (pendingOwner == Thread.currentThread()) {
                PendingOutputs.remove(this);
                pendingOwner = null;
            }
            if (failure != null) {
                closed = true;
                releaseBuffers();
                connection.close();
                return;
            }
            State s = state;
            if (s.kind() == State.Kind.END) {
                if (out != null) {
                    try {
                        flush();
                    } catch (SJIOException e) {
                        // Everything was sent that could be; the session's type is complete.
                    }
                }
                closed = true;
                releaseBuffers();
                connection.close();
                return;
            }
            String reason = "the session was closed before its type was complete; its next action was " + s.describe();
            if (out != null) {
                out.release();
                out = null;
            }
            fail("the peer closed the session before completing it; the peer's next action was " + s.describe(), true,
                    null);
            failure = reason;
            closed = true;
            if (settings.monitor()) {
                throw new SJProtocolViolationException(reason);
            }
        } finally {
            exit(entered);
        }
    }

    private static String typeOf(Object value) {
        return value == null ? "null" : value.getClass().getTypeName();
    }

    @Override
    public String toString() {
        return "SJSocket[" + protocol + " at " + state.describe() + (failure != null ? ", failed: " + failure : "")
                + " over " + connection.transportName() + "]";
    }
}
