package org.sessionj.runtime.internal.session;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.Side;

/**
 * Session initiation (docs/wire-format.md): the requester sends its session type, the accepter
 * checks that the two are dual up to subtyping and answers accept or reject. On a reject both sides
 * fail and nothing else is sent.
 */
final class Initiation {
    /** Reject codes. */
    static final byte INCOMPATIBLE = 1;
    static final byte REFUSED = 2;

    private Initiation() {
    }

    /** Requester: sends the type, waits for the verdict. */
    static SessionSocket request(org.sessionj.runtime.spi.Connection connection, CompiledProtocol protocol,
            SJRuntimeConfig config) {
        String text = protocol.textFor(Side.REQUEST);
        try {
            ByteBuf request = connection.alloc().buffer();
            request.writeByte(Tags.REQUEST).writeByte(Tags.MAGIC_0).writeByte(Tags.MAGIC_1).writeByte(Tags.VERSION);
            ValueCodec.writeString(request, text);
            connection.write(request);
            connection.flush();
            ByteBuf reply = connection.read(config.initiationTimeout().toNanos());
            if (reply == null) {
                connection.close();
                throw new SJTimeoutException("the accepter did not answer the session request within "
                        + config.initiationTimeout());
            }
            try {
                byte tag = reply.isReadable() ? reply.readByte() : 0;
                if (tag == Tags.ACCEPT) {
                    return new SessionSocket(connection, protocol.start(), SessionSettings.of(config), text);
                }
                connection.close();
                if (tag == Tags.REJECT && reply.isReadable()) {
                    byte code = reply.readByte();
                    String reason = ValueCodec.readString(reply);
                    throw code == INCOMPATIBLE ? new SJIncompatibleSessionException(reason)
                            : new SJIOException("the accepter refused the session: " + reason);
                }
                throw new SJIOException("the accepter answered the session request with " + Tags.describe(tag));
            } finally {
                reply.release();
            }
        } catch (IOException | MalformedInputException e) {
            connection.close();
            throw new SJIOException("session initiation failed: " + e.getMessage(), e);
        }
    }

    /** Accepter: reads the requester's type, checks compatibility, answers. */
    static SessionSocket accept(org.sessionj.runtime.spi.Connection connection, CompiledProtocol protocol,
            SJRuntimeConfig config) {
        String theirs;
        try {
            ByteBuf request = connection.read(config.initiationTimeout().toNanos());
            if (request == null) {
                connection.close();
                throw new SJTimeoutException("the requester sent no session request within " + config.initiationTimeout());
            }
            try {
                theirs = readRequest(request);
            } finally {
                request.release();
            }
        } catch (IOException e) {
            connection.close();
            throw new SJIOException("session initiation failed: " + e.getMessage(), e);
        } catch (MalformedInputException e) {
            reject(connection, REFUSED, e.getMessage());
            throw new SJIOException("bad session request: " + e.getMessage(), e);
        }
        boolean compatible;
        try {
            compatible = protocol.acceptsRequester(theirs);
        } catch (org.sessionj.types.ProtocolSyntaxException e) {
            String reason = "the requester's session type does not parse: " + e.getMessage();
            reject(connection, REFUSED, reason);
            throw new SJIOException(reason, e);
        } catch (RuntimeException e) {
            String reason = "the requester's session type " + theirs + " is not well-formed: " + e.getMessage();
            reject(connection, REFUSED, reason);
            throw new SJIOException(reason, e);
        }
        if (!compatible) {
            String reason = "incompatible session types: the requester's " + theirs
                    + " is not dual (up to subtyping) to the accepter's " + protocol.textFor(Side.ACCEPT);
            reject(connection, INCOMPATIBLE, reason);
            throw new SJIncompatibleSessionException(reason);
        }
        try {
            ByteBuf accept = connection.alloc().buffer(1);
            accept.writeByte(Tags.ACCEPT);
            connection.write(accept);
            connection.flush();
        } catch (IOException e) {
            connection.close();
            throw new SJIOException("session initiation failed: " + e.getMessage(), e);
        }
        return new SessionSocket(connection, protocol.start(), SessionSettings.of(config), protocol.textFor(Side.ACCEPT));
    }

    private static String readRequest(ByteBuf request) throws MalformedInputException {
        if (request.readableBytes() < 4 || request.readByte() != Tags.REQUEST) {
            throw new MalformedInputException("not a session request");
        }
        if (request.readByte() != Tags.MAGIC_0 || request.readByte() != Tags.MAGIC_1) {
            throw new MalformedInputException("not an SJ session request (bad magic)");
        }
        byte version = request.readByte();
        if (version != Tags.VERSION) {
            throw new MalformedInputException("unsupported wire format version " + version + "; this runtime speaks "
                    + Tags.VERSION);
        }
        String type = ValueCodec.readString(request);
        if (type == null) {
            throw new MalformedInputException("the session request carries no type");
        }
        return type;
    }

    private static void reject(org.sessionj.runtime.spi.Connection connection, byte code, String reason) {
        try {
            ByteBuf reject = connection.alloc().buffer();
            reject.writeByte(Tags.REJECT).writeByte(code);
            ValueCodec.writeString(reject, reason);
            connection.write(reject);
            connection.flush();
        } catch (IOException e) {
            // The requester is gone; it has nothing to be told.
        } finally {
            connection.close();
        }
    }
}
