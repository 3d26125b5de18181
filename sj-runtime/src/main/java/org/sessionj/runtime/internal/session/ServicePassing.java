package org.sessionj.runtime.internal.session;

import io.netty.buffer.ByteBuf;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.runtime.internal.monitor.Conformance;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.Side;

/**
 * Service passing (docs/delegation.md §1): an {@link SJService} as a message, where the type says
 * {@code !<cbegin.T>}. It travels as its address and its protocol; the receiver checks the protocol
 * against the type it declared and gets a service of its own runtime that requests with the declared
 * type (the server checks it again at initiation, as for any request).
 */
final class ServicePassing {
    static final byte SERVICE = 1;

    private ServicePassing() {
    }

    /** {@code 0x22 · 1 · host:string · port:int32 · type:string} (the service's requesting type, canonical). */
    static void write(ByteBuf out, SJService service) {
        out.writeByte(Tags.SESSION).writeByte(SERVICE);
        ValueCodec.writeString(out, service.host());
        out.writeInt(service.port());
        ValueCodec.writeString(out, service.protocol());
    }

    /**
     * Reads a service item (its tag already read) for the declared service type {@code declared}.
     *
     * @throws SJIOException naming both types when the service's protocol does not fit the declared one
     */
    static SJService read(ByteBuf in, MessageType declared, SessionContext context) throws MalformedInputException {
        if (!in.isReadable() || in.readByte() != SERVICE) {
            throw new MalformedInputException("expected a service where the type says " + declared + ", found a session");
        }
        String host = ValueCodec.readString(in);
        if (in.readableBytes() < 4) {
            throw new MalformedInputException("truncated service: no port");
        }
        int port = in.readInt();
        String text = ValueCodec.readString(in);
        if (host == null || text == null || port < 1 || port > 65535) {
            throw new MalformedInputException("bad service: host " + host + ", port " + port + ", type " + text);
        }
        SessionType theirs;
        CompiledProtocol compiled;
        try {
            theirs = SessionTypes.parse(text);
            compiled = ProtocolRegistry.ofType("service at " + host + ":" + port, theirs, declared.loader());
        } catch (RuntimeException e) {
            throw new MalformedInputException("the received service's protocol " + text + " is not usable here: "
                    + e.getMessage());
        }
        if (compiled.declaredSide() != Side.REQUEST
                || !Conformance.conforms(declared.sessionStart(), compiled.start(), JavaSubtyping.reflective(declared.loader()))) {
            throw new SJIOException("received a service at " + host + ":" + port + " whose protocol " + text
                    + " does not match the declared service type " + declared);
        }
        if (context == null) {
            throw new SJIOException("this socket belongs to no runtime, so it cannot receive services");
        }
        CompiledProtocol mine = ProtocolRegistry.ofType("service at " + host + ":" + port, declared.sessionType(),
                declared.loader());
        return new SessionService(mine, host, port, context.transports().defaults(), context);
    }
}
