package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.wire.CodecFailures;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.PeerText;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.UnencodableValueException;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.LocalConnection;

/**
 * An established session: performs each action of the API over its connection, following the
 * compiled session type, whose state machine drives the checks of the runtime monitor. The parts
 * with a job of their own are apart: the connection, state and ending of the session in
 * {@link SessionLifecycle}, batching and encoding in {@link SessionOutput}, frames, control notices
 * and decoding in {@link SessionInput}, misuse detection in {@link ActionGuard}, delegation in
 * {@link Delegation}.
 *
 * <p>Owned by one thread at a time, like the socket variable in the program; only
 * {@link #failFromElsewhere} may be called from other threads.
 */
public final class SessionSocket extends SessionLifecycle implements SJSocket {
    SessionSocket(Connection connection, State start, SessionSettings settings, String protocol) {
        super(connection, start, settings, protocol, null, null);
    }

    /**
     * A session taken over by delegation: {@code prefix} holds the items the peer sent before the
     * delegation that the delegator had not consumed (read first), {@code references} the values
     * passed by reference among them.
     */
    SessionSocket(Connection connection, State start, SessionSettings settings, String protocol, Frame prefix,
            ArrayDeque<Object> references) {
        super(connection, start, settings, protocol, prefix, references);
    }

    // ---- sends -------------------------------------------------------------------------------

    @Override
    public void send(int message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.INT);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.INT).writeInt(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(long message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.LONG);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.LONG).writeLong(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(double message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.DOUBLE);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.DOUBLE).writeDouble(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(float message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.FLOAT);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.FLOAT).writeFloat(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(boolean message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.BOOLEAN);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.BOOLEAN).writeBoolean(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(byte message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.BYTE);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.BYTE).writeByte(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(short message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.SHORT);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.SHORT).writeShort(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(char message) {
        boolean entered = enterAction("send", protocol);
        try {
            State s = primitiveSend(WireKind.CHAR);
            if (s == null) {
                sendObject(message, false);
                return;
            }
            output.buffer().writeByte(Tags.CHAR).writeChar(message);
            advanceAfterSend(s.next());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void send(Object message) {
        boolean entered = enterAction("send", protocol);
        try {
            sendObject(message, false);
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void pass(Object message) {
        boolean entered = enterAction("pass", protocol);
        try {
            sendObject(message, true);
        } finally {
            exitAction(entered);
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
            String refusal = type.refusal(message);
            throw violation(s, "!<" + typeOf(message) + ">" + (refusal == null ? "" : " (" + refusal + ")"));
        }
        Frame buf = output.buffer();
        int mark = buf.writerIndex();
        try {
            output.write(type, message, pass);
        } catch (ClassCastException e) {
            // Only reachable with the monitor off: the typed encoder refused the value. Nothing is sent.
            buf.writerIndex(mark);
            throw violation(s, "!<" + typeOf(message) + ">");
        } catch (com.fasterxml.jackson.databind.exc.InvalidDefinitionException e) {
            // The value is of the declared type, but no encoder can write that type here (a class
            // Jackson cannot see into: a package its module does not open, no accessible
            // properties...). Not a protocol violation: say what and why, with the cause.
            buf.writerIndex(mark);
            throw fail("cannot encode a message of type " + type + ": " + CodecFailures.describe(e)
                    + " (docs/wire-format.md, \"Message types\")", true, e);
        } catch (IOException e) {
            buf.writerIndex(mark);
            // In the project's words, with the path to the part, not Jackson's advice and its whole
            // reference chain (a thousand links for a value nested too deep: adv15 A5, A23).
            throw fail("could not send a " + type + ": " + CodecFailures.describe(e), true, e);
        } catch (StackOverflowError e) {
            // A value nested past the stack (a chain of references holding references, which Jackson unwraps
            // without counting its depth: adv16 A8): a failed send, never a raw Error out of send.
            buf.writerIndex(mark);
            throw fail("could not send a " + type + ": the value is nested too deeply to encode (does it refer to "
                    + "itself?)", true, e);
        } catch (UnencodableValueException e) {
            buf.writerIndex(mark); // text UTF-8 cannot carry (adv15 A22): refused, as the codec refuses it in a list
            throw fail("could not send a " + type + ": " + e.getMessage(), true, e);
        } catch (org.sessionj.api.SJException e) {
            buf.writerIndex(mark);
            throw e;
        } catch (RuntimeException e) {
            // The message's own code threw while it was written (a record accessor, a getter the encoder
            // calls): nothing is sent, and the session cannot go on in step, so it fails and the peer is
            // told, as for any action that throws (adv12 A5: the peer waited for ever).
            buf.writerIndex(mark);
            throw fail("could not send a " + type + ": writing the message threw " + e, true, e);
        }
        advance(s.next());
    }

    // ---- receives ----------------------------------------------------------------------------

    @Override
    public <T> T receive() {
        boolean entered = enterAction("receive", protocol);
        try {
            return receive(SessionInput.RECEIVE_TIMEOUT);
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public <T> T receive(Duration timeout) {
        boolean entered = enterAction("receive", protocol);
        try {
            return receive(timeout.toNanos());
        } finally {
            exitAction(entered);
        }
    }

    /** {@code timeoutNanos}: the receive's own timeout, or {@link SessionInput#RECEIVE_TIMEOUT} for the setting's. */
    @SuppressWarnings("unchecked")
    private <T> T receive(long timeoutNanos) {
        State s = usableState();
        if (s.kind() != State.Kind.RECEIVE) {
            throw violation(s, "?(…)");
        }
        Frame buf = input.next(s, timeoutNanos);
        Object value = input.read(s.message(), buf, s);
        advanceAfterInput(s.next());
        return (T) value;
    }

    @Override
    public int receiveInt() {
        boolean entered = enterAction("receiveInt", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.INT);
            if (buf == null) {
                return this.<Integer>unboxed();
            }
            int value = buf.readInt();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public long receiveLong() {
        boolean entered = enterAction("receiveLong", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.LONG);
            if (buf == null) {
                return this.<Long>unboxed();
            }
            long value = buf.readLong();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public double receiveDouble() {
        boolean entered = enterAction("receiveDouble", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.DOUBLE);
            if (buf == null) {
                return this.<Double>unboxed();
            }
            double value = buf.readDouble();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public float receiveFloat() {
        boolean entered = enterAction("receiveFloat", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.FLOAT);
            if (buf == null) {
                return this.<Float>unboxed();
            }
            float value = buf.readFloat();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public boolean receiveBoolean() {
        boolean entered = enterAction("receiveBoolean", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.BOOLEAN);
            if (buf == null) {
                return this.<Boolean>unboxed();
            }
            boolean value = buf.readBoolean();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public byte receiveByte() {
        boolean entered = enterAction("receiveByte", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.BYTE);
            if (buf == null) {
                return this.<Byte>unboxed();
            }
            byte value = buf.readByte();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public short receiveShort() {
        boolean entered = enterAction("receiveShort", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.SHORT);
            if (buf == null) {
                return this.<Short>unboxed();
            }
            short value = buf.readShort();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public char receiveChar() {
        boolean entered = enterAction("receiveChar", protocol);
        try {
            Frame buf = primitiveReceive(WireKind.CHAR);
            if (buf == null) {
                return this.<Character>unboxed();
            }
            char value = buf.readChar();
            advanceAfterInput(state.next());
            return value;
        } finally {
            exitAction(entered);
        }
    }

    /**
     * Positions the input at the body of a primitive item of {@code kind} (its tag read and checked,
     * the body known to be there); null when the type declares a reference type instead.
     */
    private Frame primitiveReceive(WireKind kind) {
        // Small, the failures apart: inlined into the receive, so a virtual thread waiting in it freezes
        // fewer frames at every yield.
        State s = usableState();
        if (s.kind() == State.Kind.RECEIVE) {
            MessageType message = s.message();
            WireKind declared = message.kind();
            if (declared == kind) {
                Frame buf = input.next(s);
                byte tag = buf.readByte();
                if (tag != kind.tag() || buf.readableBytes() < kind.size()) {
                    throw badPrimitive(s, kind, tag, buf);
                }
                return buf;
            }
            if (declared == WireKind.OBJECT && message.type() == kind.boxed()) {
                return null;
            }
        }
        throw violation(s, "?(" + kind.typeName() + ")");
    }

    /** The peer sent another item than a {@code kind} (tag {@code tag}), or too few bytes for one: fails the session. */
    private SJIOException badPrimitive(State s, WireKind kind, byte tag, Frame buf) {
        if (tag != kind.tag()) {
            return unexpected(s, tag);
        }
        return fail("truncated frame from the peer: a " + kind.typeName() + " needs " + kind.size() + " bytes, "
                + buf.readableBytes() + " left", true, null);
    }

    /** Receives a boxed value declared as a wrapper type and unboxes it; null is a failure. */
    private <B> B unboxed() {
        State s = state;
        B value = receive(SessionInput.RECEIVE_TIMEOUT);
        if (value == null) {
            // A failed action fails its session (the peer learns of it), as every other receive does.
            throw fail("received null for " + s.describe() + " where a primitive was expected", true, null);
        }
        return value;
    }

    // ---- branching and iteration -------------------------------------------------------------

    @Override
    public void outbranch(String label) {
        boolean entered = enterAction("outbranch", protocol);
        try {
            State s = usableState();
            if (s.kind() != State.Kind.SELECT) {
                throw violation(s, "!{" + label + ": …}");
            }
            State next = s.branch(label);
            if (next == null) {
                throw violation(s, "!{" + label + ": …} (label " + label + " is not among the choices)");
            }
            Frame buf = output.buffer().writeByte(Tags.LABEL);
            ValueCodec.writeShortString(buf, label);
            advanceAfterSelect(next);
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public void outbranch(Enum<?> label) {
        boolean entered = enterAction("outbranch", protocol);
        try {
            outbranch(label.name());
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public String inbranch() {
        boolean entered = enterAction("inbranch", protocol);
        try {
            State s = usableState();
            if (s.kind() != State.Kind.BRANCH) {
                throw violation(s, "?{…}");
            }
            Frame buf = input.next(s);
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
                throw fail("the peer selected label '" + PeerText.escaped(label) + "', which " + s.describe() + " does not offer", true, null);
            }
            advanceAfterInput(next);
            return label;
        } finally {
            exitAction(entered);
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
        boolean entered = enterAction("outwhile", protocol);
        try {
            State s = usableState();
            if (s.kind() != State.Kind.OUTWHILE) {
                throw violation(s, "![…]*");
            }
            output.buffer().writeByte(Tags.LOOP).writeBoolean(condition);
            advanceAfterSelect(condition ? s.body() : s.exit());
            return condition;
        } finally {
            exitAction(entered);
        }
    }

    @Override
    public boolean inwhile() {
        boolean entered = enterAction("inwhile", protocol);
        try {
            State s = usableState();
            if (s.kind() != State.Kind.INWHILE) {
                throw violation(s, "?[…]*");
            }
            Frame buf = input.next(s);
            byte tag = buf.readByte();
            if (tag != Tags.LOOP || !buf.isReadable()) {
                throw badLoopFlag(s, tag, (byte) -1);
            }
            byte flag = buf.readByte();
            if (flag != 0 && flag != 1) {
                throw badLoopFlag(s, tag, flag);
            }
            advanceAfterInput(flag == 1 ? s.body() : s.exit());
            return flag == 1;
        } finally {
            exitAction(entered);
        }
    }


    /** The peer sent no iteration flag where {@code s} expects one ({@code flag} -1: none at all): fails the session. */
    private SJIOException badLoopFlag(State s, byte tag, byte flag) {
        if (tag != Tags.LOOP) {
            return unexpected(s, tag);
        }
        if (flag == -1) {
            return fail("truncated frame from the peer: an iteration flag without its value", true, null);
        }
        return fail("bad iteration flag from the peer: " + flag, true, null);
    }

    @Override
    public boolean isInputReady() {
        if (failure != null || closed) {
            return true;
        }
        return input.hasItem() || connection.isReadable();
    }

    @Override
    public String protocol() {
        return protocol;
    }

    /** The connection's {@link Connection#peerAddress()}: no system call, no allocation. */
    @Override
    public java.net.InetAddress peerAddress() {
        return connection.peerAddress();
    }

    /** The state the session is in (for tests and diagnostics). */
    public State state() {
        return state;
    }

    /** Whether the session has failed. */
    public boolean hasFailed() {
        return failure != null;
    }

    /**
     * Lets go of the thread that acted on this session last: another thread takes it next (a handshake
     * thread queueing it for {@code accept()}, a spawner handing it to a session thread), and an
     * in-JVM peer must not take the old thread's end for the session's ({@link LocalConnection#releaseOwner}).
     */
    void releaseThread() {
        forgetOwner();
        LocalConnection local = connection().capability(LocalConnection.class);
        if (local != null) {
            local.releaseOwner();
        }
    }

    /** The connection the session runs over. */
    public Connection connection() {
        return connection;
    }


    @Override
    public void close() {
        boolean entered = enterAction("close", protocol);
        try {
            end();
        } finally {
            exitAction(entered);
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
