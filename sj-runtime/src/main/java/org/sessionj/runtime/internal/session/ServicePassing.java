package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJService;
import org.sessionj.runtime.internal.monitor.MessageType;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.internal.protocol.ReachableClasses;
import org.sessionj.types.Action;
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

    /**
     * The longest host name a passed service or a delegated session's peer may name, in UTF-8 bytes: a DNS name
     * has at most 253, a bracketed IPv6 address with a zone far fewer.
     */
    static final int MAX_HOST_BYTES = 255;

    private ServicePassing() {
    }

    /**
     * The longest session type a peer may hand this side as text: a requester's type, a passed service's, a
     * delegated session's remaining type ({@code sessionj.maxRequesterTypeBytes}; its default without a runtime).
     */
    static int maxTypeBytes(SessionContext context) {
        return context == null ? org.sessionj.runtime.SJRuntimeConfig.DEFAULT_MAX_REQUESTER_TYPE_BYTES
                : context.config().maxRequesterTypeBytes();
    }

    /**
     * A string of at most {@code maxBytes} UTF-8 bytes, refused on its claimed length before anything is decoded
     * for it (hostile18 H11: a service's 15 MiB type text was decoded and parsed, and the receive threw
     * {@code OutOfMemoryError} in a 256 MiB JVM after 27 s of garbage collection).
     */
    static String readBounded(Frame in, int maxBytes, String what, String setting) throws MalformedInputException {
        int claimed = in.readableBytes() >= 4 ? in.getInt(in.readerIndex()) : 0;
        if (claimed > maxBytes) {
            throw new MalformedInputException(what + " is " + claimed + " bytes long; this side accepts at most "
                    + maxBytes + setting);
        }
        return ValueCodec.readString(in);
    }

    /** {@code 0x22 · 1 · host:string · port:int32 · type:string} (the service's requesting type, canonical). */
    static void write(Frame out, SJService service) {
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
    static SJService read(Frame in, MessageType declared, SessionContext context) throws MalformedInputException {
        if (!in.isReadable() || in.readByte() != SERVICE) {
            throw new MalformedInputException("expected a service where the type says " + declared + ", found a session");
        }
        String host = readBounded(in, MAX_HOST_BYTES, "the received service's host name", "");
        if (in.readableBytes() < 4) {
            throw new MalformedInputException("truncated service: no port");
        }
        int port = in.readInt();
        String text = readBounded(in, maxTypeBytes(context), "the received service's protocol",
                " (sessionj.maxRequesterTypeBytes)");
        if (host == null || text == null || port < 1 || port > 65535) {
            throw new MalformedInputException("bad service: host " + host + ", port " + port + ", type " + text);
        }
        // Checked at the type level: the peer's protocol text is parsed (depth-bounded) but never
        // compiled, so no reader is built for a class it names and no static initialiser runs; its
        // names are related to the declared ones through the classes reachable from the declared type.
        SessionType theirs;
        boolean fits;
        try {
            theirs = SessionTypes.parse(text);
            fits = !theirs.isEnd() && theirs.head() instanceof Action.Begin begin && begin.side() == Side.REQUEST
                    && SessionTypes.isSubtype(declared.sessionType(), theirs,
                            ReachableClasses.of(declared.sessionType(), declared.loader()).subtyping());
        } catch (RuntimeException | StackOverflowError e) {
            throw new MalformedInputException("the received service's protocol " + Initiation.excerpt(text)
                    + " is not usable here: " + e.getMessage());
        }
        if (!fits) {
            throw new SJIOException("received a service at " + host + ":" + port + " whose protocol "
                    + Initiation.excerpt(text) + " does not match the declared service type " + declared);
        }
        if (context == null) {
            throw new SJIOException("this socket belongs to no runtime, so it cannot receive services");
        }
        CompiledProtocol mine = ProtocolRegistry.ofType("service at " + host + ":" + port, declared.sessionType(),
                declared.loader());
        return new SessionService(mine, host, port, context.transports().defaults(), context);
    }
}
