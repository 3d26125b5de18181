package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.runtime.spi.support.Frames;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJIncompatibleSessionException;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.internal.transport.Negotiation;
import org.sessionj.runtime.internal.transport.HostIdentity;
import org.sessionj.runtime.internal.transport.LocalRoutes;
import org.sessionj.runtime.internal.transport.Negotiation.Agreement;
import org.sessionj.runtime.internal.transport.Negotiation.Hello;
import org.sessionj.runtime.internal.transport.Negotiation.Offer;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.LocalConnection;
import org.sessionj.runtime.internal.wire.FailureNotice;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.PeerText;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.spi.support.LazyLogger;
import org.sessionj.types.Side;

/**
 * Session initiation: transport negotiation (docs/negotiation.md), then the type check
 * (docs/wire-format.md): the requester sends its session type, the accepter checks that the two are
 * dual up to subtyping and answers accept or reject. On a reject the requester fails (the accepter
 * counts it, see {@link Handshakes}) and nothing else is sent. When the setup connection carries the session (the common case), the requester sends its
 * HELLO and its request in one frame and the accepter answers AGREED and its verdict in one frame.
 */
final class Initiation {
    private static final System.Logger LOG = LazyLogger.of(Initiation.class.getName());
    /** Reject codes. */
    static final byte INCOMPATIBLE = 1;
    static final byte REFUSED = 2;
    /**
     * Reject code: the HELLO named another server socket's acceptor id (the requester went straight to
     * an acceptor it remembered, and that acceptor's port now belongs to another server socket).
     */
    static final byte STALE = 3;
    /**
     * Initial capacity of a HELLO, request or verdict frame (it grows as written). Taken with
     * {@link Frames#newFrame}, so that an in-JVM connection hands out one of its recycled heap
     * frames, which the session's first message then reuses, and the in-JVM path never touches Netty's
     * buffers (their classes' initialisers, the pooled allocator and its per-thread caches).
     */
    private static final int INITIATION_FRAME = 256;

    private Initiation() {
    }

    // ---- requester ---------------------------------------------------------------------------

    /** Requester: reaches the service, negotiates the session transport, sends the type, waits for the verdict. */
    static SessionSocket request(TransportManager.Plan plan, String host, int port, CompiledProtocol protocol,
            SessionContext context) {
        String text = protocol.textFor(Side.REQUEST);
        Connection connection = open(context.transports(), plan, host, port, context.config(), new FirstFrame() {
            @Override
            public void accept(Frame out) {
                writeRequest(out, text);
            }

            @Override
            public boolean writeLocal(LocalConnection local, Frame out) throws IOException {
                local.writeReference(new LocalRequest(text));
                out.writeByte(Tags.LOCAL_REQUEST);
                return true;
            }
        });
        TransportChoiceLog.requested(protocol.name(), host, port, connection);
        return new SessionSocket(connection, protocol.start(), SessionSettings.of(context), text);
    }

    /**
     * The new owner of a delegated session: reaches the peer's resumption endpoint, negotiates the
     * transport as for a request, and presents {@code token} instead of a session type
     * (docs/delegation.md).
     */
    static Connection resume(String host, int port, UUID token, SessionContext context) {
        TransportManager manager = context.transports();
        return open(manager, manager.defaults(), host, port, context.config(), out -> writeResume(out, token));
    }

    /**
     * Writes the frame that opens a session (REQUEST or RESUME) after the HELLO. In one JVM
     * ({@link #writeLocal}) it may pass the message by reference instead of encoding it.
     */
    @FunctionalInterface
    interface FirstFrame extends Consumer<Frame> {
        /**
         * Writes the opening for an accepter in this JVM after a {@link Tags#LOCAL_HELLO}: false when it
         * has no by-reference form (then {@link #accept} writes it as bytes).
         */
        default boolean writeLocal(LocalConnection local, Frame out) throws IOException {
            return false;
        }
    }


    /**
     * Negotiates a session connection with {@code host:port}: {@code first} writes the frame that opens
     * the session (REQUEST or RESUME), pipelined behind the HELLO or sent first on a moved connection.
     * Straight to the same-host acceptor the last such negotiation moved to, when there is one
     * ({@link LocalRoutes}); over a setup connection to the session port otherwise, or when that
     * acceptor cannot be reached or belongs to another server socket now.
     */
    private static Connection open(TransportManager manager, TransportManager.Plan plan, String host, int port,
            SJRuntimeConfig config, FirstFrame first) {
        LocalRoutes.Route route = manager.localRoute(plan, host, port);
        if (route != null) {
            Connection straight = straight(manager, plan, route, host, port, config, first);
            if (straight != null) {
                return straight;
            }
            manager.routes().forget(host, port, route);
        }
        long timeout = config.initiationTimeout().toNanos();
        long attempt = config.setupAttemptTimeout() == null ? -1 : config.setupAttemptTimeout().toNanos();
        TransportManager.Opened setup = manager.setup(plan, host, port, timeout, attempt);
        return negotiate(manager, plan, setup, Negotiation.ANY_ACCEPTOR, host, port, config, first);
    }

    /**
     * Negotiates over a connection to the remembered acceptor {@code route}: null when it cannot be
     * connected (gone, its memory cannot be mapped) or refuses the HELLO as meant for another server
     * socket; the caller then negotiates over the session port.
     */
    private static Connection straight(TransportManager manager, TransportManager.Plan plan, LocalRoutes.Route route,
            String host, int port, SJRuntimeConfig config, FirstFrame first) {
        TransportManager.Opened setup;
        try {
            setup = manager.connectSession(route.transport(), host, route.port(), config.initiationTimeout().toNanos());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "the " + route.transport() + " acceptor on port " + route.port()
                    + " last used for " + host + ":" + port + " cannot be reached (" + e.getMessage()
                    + "); negotiating over the session port");
            return null;
        }
        return negotiate(manager, plan, setup, route.acceptor(), host, port, config, first);
    }

    /**
     * The exchange over {@code setup}; {@code expected}: the acceptor id a remembered route names, or
     * {@link Negotiation#ANY_ACCEPTOR}. Null only for a remembered route that failed before an answer
     * or was refused as stale.
     */
    private static Connection negotiate(TransportManager manager, TransportManager.Plan plan,
            TransportManager.Opened setup, java.util.UUID expected, String host, int port, SJRuntimeConfig config,
            FirstFrame first) {
        long timeout = config.initiationTimeout().toNanos();
        long attempt = config.setupAttemptTimeout() == null ? -1 : config.setupAttemptTimeout().toNanos();
        boolean routed = !expected.equals(Negotiation.ANY_ACCEPTOR);
        Connection connection = setup.connection();
        String setupName = setup.transport().name();
        List<String> mine = reachable(plan.sessionNames(), setup.unreachable());
        int flag = Negotiation.requesterFlag(setupName, mine);
        Agreement agreement;
        try {
            Frame hello = handshakeFrame(connection, INITIATION_FRAME);
            Hello message = new Hello(flag, TransportManager.RUNTIME_ID, HostIdentity.local(), mine, expected);
            LocalConnection local = connection.capability(LocalConnection.class);
            if (local != null) {
                // One JVM: the HELLO (and the REQUEST) travel as references; nothing is encoded or parsed.
                local.writeReference(message);
                hello.writeByte(Tags.LOCAL_HELLO);
            } else {
                Negotiation.writeHello(hello, message);
            }
            if (Negotiation.requestFollows(flag) && (local == null || !first.writeLocal(local, hello))) {
                first.accept(hello);
            }
            Frame reply;
            try {
                Frames.write(connection, hello);
                connection.flush();
                reply = awaitReply(connection, config);
            } catch (IOException e) {
                if (routed) {
                    connection.close();
                    return null; // the remembered acceptor went away under us: the session port decides
                }
                throw e;
            }
            try {
                byte tag = reply.isReadable() ? reply.readByte() : 0;
                if (routed && tag == Tags.REJECT && reply.isReadable() && reply.getByte(reply.readerIndex()) == STALE) {
                    connection.close();
                    return null;
                }
                if (tag != Tags.AGREED && tag != Tags.LOCAL_AGREED) {
                    throw unexpectedVerdict(connection, tag, reply);
                }
                agreement = tag == Tags.LOCAL_AGREED ? localMessage(connection, Agreement.class, "AGREED")
                        : Negotiation.readAgreement(reply, true);
                if (agreement.choice() == null) {
                    connection.close();
                    throw new SJIOException(noCommonTransport(host + ":" + port, mine, setupName, agreement.offeredNames()));
                }
                if (!mine.contains(agreement.choice())) {
                    throw new MalformedInputException("the accepter agreed on transport " + agreement.choice()
                            + ", which this requester does not accept " + mine);
                }
                if (agreement.choice().equals(setupName)) {
                    return logged(manager, verdict(connection, reply), host, port, setup);
                }
            } finally {
                reply.release();
            }
        } catch (IOException | MalformedInputException e) {
            connection.close();
            throw new SJIOException("session initiation with " + host + ":" + port + " failed: " + e.getMessage(), e);
        }
        connection.close(); // the session moves to a connection of the agreed transport
        Offer offer = agreement.chosen();
        TransportManager.Opened session;
        boolean detour = hasDetour(manager, agreement, mine);
        try {
            session = manager.connectSession(offer.transport(), host, offer.port(), detour && attempt >= 0
                    ? Math.min(timeout, attempt) : timeout);
            if (manager.isRoutable(offer.transport())) {
                manager.routes().remember(host, port, new LocalRoutes.Route(offer.transport(), offer.port(),
                        agreement.acceptor()));
            }
        } catch (IOException e) {
            session = fallBack(manager, agreement, mine, host, timeout, e);
            if (session == null) {
                throw new SJIOException("negotiation with " + host + ":" + port + " agreed on transport "
                        + offer.transport() + " (port " + offer.port() + "), but it cannot be reached: " + e.getMessage(), e);
            }
        }
        return logged(manager, openDirectly(session.connection(), config, first), host, port, setup);
    }

    /**
     * The requester's session transports without those it could not reach the server with in the setup
     * phase (a firewall that stops tcp to the session port stops tcp sessions too); all of them if that
     * would leave none.
     */
    private static List<String> reachable(List<String> session, List<String> unreachable) {
        if (unreachable.isEmpty()) {
            return session;
        }
        List<String> left = session.stream().filter(name -> !unreachable.contains(name)).toList();
        return left.isEmpty() ? session : left;
    }

    /**
     * Says which transport the session ended up on: at INFO when a transport that reaches other hosts
     * could not get through (the in-JVM one never reaches another JVM: not worth a line per session).
     */
    private static Connection logged(TransportManager manager, Connection connection, String host, int port,
            TransportManager.Opened setup) {
        // Usually empty: no stream per session for it.
        boolean fellBack = !setup.unreachable().isEmpty()
                && setup.unreachable().stream().anyMatch(name -> !manager.isSameHostOnly(name));
        LOG.log(fellBack ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                () -> "session with " + host + ":" + port + " runs over " + connection.transportName() + " (" + connection
                        + "; set up over " + setup.transport().name()
                        + (fellBack ? " after " + setup.unreachable() + " could not reach it" : "") + ")");
        return connection;
    }

    /** Whether a transport after the agreed one is an offered detour (the relay) to fall back to. */
    private static boolean hasDetour(TransportManager manager, Agreement agreement, List<String> mine) {
        return !manager.isIndirect(agreement.choice()) && mine.subList(mine.indexOf(agreement.choice()) + 1, mine.size())
                .stream().anyMatch(name -> manager.isIndirect(name) && agreement.offeredNames().contains(name));
    }

    /**
     * When a same-host transport was agreed but cannot be connected (the two sides' ipc directories
     * differ, say), the next transport both sides accept that reaches any host; when a network
     * transport was agreed but cannot be connected (a firewall), the next indirect one both accept (the
     * relay). The accepter serves a direct REQUEST on every session transport it offers. Null when there
     * is none or none connects.
     */
    private static TransportManager.Opened fallBack(TransportManager manager, Agreement agreement, List<String> mine,
            String host, long timeout, IOException cause) {
        boolean sameHost = manager.isSameHostOnly(agreement.choice());
        if (!sameHost && !hasDetour(manager, agreement, mine)) {
            return null;
        }
        for (String name : mine.subList(mine.indexOf(agreement.choice()) + 1, mine.size())) {
            Offer candidate = agreement.offers().stream().filter(o -> o.transport().equals(name)).findFirst().orElse(null);
            if (candidate == null || manager.isSameHostOnly(name) || !sameHost && !manager.isIndirect(name)) {
                continue;
            }
            try {
                TransportManager.Opened opened = manager.connectSession(name, host, candidate.port(), timeout);
                LOG.log(System.Logger.Level.WARNING, "the agreed transport {0} could not connect ({1}); the session"
                        + " runs over {2} instead", agreement.choice(), cause.getMessage(), name);
                return opened;
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
        }
        return null;
    }

    /** Requester on a connection that is already the session's: sends the opening frame, waits for the verdict. */
    private static Connection openDirectly(Connection connection, SJRuntimeConfig config, FirstFrame first) {
        try {
            Frame request = handshakeFrame(connection, INITIATION_FRAME);
            first.accept(request);
            Frames.write(connection, request);
            connection.flush();
            Frame reply = awaitReply(connection, config);
            try {
                return verdict(connection, reply);
            } finally {
                reply.release();
            }
        } catch (IOException | MalformedInputException e) {
            connection.close();
            throw new SJIOException("session initiation failed: " + e.getMessage(), e);
        }
    }

    /**
     * A buffer for a handshake frame (HELLO, REQUEST, AGREED, verdict): an in-JVM connection's own
     * recycled frame ({@link Frames#newFrame}); otherwise plain heap memory, not the
     * connection's pool. A handshake runs on a virtual thread of its own (both sides, typically), and
     * the first pooled allocation on a thread sets up that thread's pool cache under a global lock
     * (Netty's {@code PoolThreadLocalCache}), a cost paid anew by every handshake (3.5 % of a server's
     * CPU in the accept-load test, docs/reliability.md). The frames are small and short-lived; the
     * transports copy small frames into their own buffers anyway.
     */
    static Frame handshakeFrame(Connection connection, int initialCapacity) {
        // An in-JVM connection hands out its recycled heap frames (reused by the session's first message).
        return connection.capability(org.sessionj.runtime.spi.LocalConnection.class) != null
                ? Frames.newFrame(connection, initialCapacity) : new ByteBufFrame(Unpooled.buffer(initialCapacity));
    }

    private static void writeResume(Frame out, UUID token) {
        out.writeByte(Tags.RESUME).writeLong(token.getMostSignificantBits()).writeLong(token.getLeastSignificantBits());
    }

    private static void writeRequest(Frame out, String type) {
        out.writeByte(Tags.REQUEST).writeByte(Tags.MAGIC_0).writeByte(Tags.MAGIC_1).writeByte(Tags.REQUEST_VERSION);
        ValueCodec.writeString(out, type);
    }

    /**
     * The message a {@code LOCAL_*} frame announces: the reference passed before it, as {@code type}.
     * Such a frame is only ever sent on a connection within one JVM; on any other, or without its
     * reference, it is malformed input like any other.
     */
    static <T> T localMessage(Connection connection, Class<T> type, String what) throws MalformedInputException {
        LocalConnection local = connection.capability(LocalConnection.class);
        if (local == null) {
            throw new MalformedInputException("an in-JVM " + what + " came over " + connection.transportName()
                    + ", a connection that carries no references");
        }
        Object message;
        try {
            message = local.readReference();
        } catch (IOException e) {
            throw new MalformedInputException("an in-JVM " + what + " came without its message: " + e.getMessage(), e);
        }
        if (!type.isInstance(message)) {
            throw new MalformedInputException("an in-JVM " + what + " passed " + (message == null ? "null"
                    : "a " + message.getClass().getName()) + " where a " + type.getSimpleName() + " was expected");
        }
        return type.cast(message);
    }

    private static Frame awaitReply(Connection connection, SJRuntimeConfig config) throws IOException {
        Frame reply = Frames.read(connection, config.initiationTimeout().toNanos());
        if (reply == null) {
            connection.close();
            throw new SJTimeoutException("the accepter did not answer the session request within "
                    + config.initiationTimeout());
        }
        return reply;
    }

    /** Reads ACCEPT or REJECT from {@code reply}: the connection, once accepted. */
    private static Connection verdict(Connection connection, Frame reply) throws MalformedInputException {
        byte tag = reply.isReadable() ? reply.readByte() : 0;
        if (tag == Tags.ACCEPT) {
            return connection;
        }
        throw unexpectedVerdict(connection, tag, reply);
    }

    private static RuntimeException unexpectedVerdict(Connection connection, byte tag, Frame reply)
            throws MalformedInputException {
        connection.close();
        if (tag == Tags.REJECT && reply.isReadable()) {
            byte code = reply.readByte();
            String reason = FailureNotice.received(ValueCodec.readString(reply)); // the accepter's words (H8)
            return code == INCOMPATIBLE ? new SJIncompatibleSessionException(reason)
                    : new SJIOException("the accepter refused the session: " + reason);
        }
        return new SJIOException("the accepter answered the session request with " + Tags.describe(tag));
    }

    private static String noCommonTransport(String service, List<String> requester, String setup, List<String> offered) {
        return "no session transport both sides accept for the session with " + service + ": the requester accepts "
                + requester + " (set up over " + setup + "), the accepter offers " + offered
                + " (an in-JVM transport only to requesters in its own JVM); no other transport is tried";
    }

    // ---- accepter ----------------------------------------------------------------------------

    /** What an accepter does with the frame that opens a session (a REQUEST, or a RESUME of a delegated session). */
    @FunctionalInterface
    interface Opening<R> {
        /**
         * Reads the opening at {@code in} and answers it on {@code connection}, after {@code prefix}
         * (the AGREED of a negotiation) when that is not null.
         */
        R answer(Connection connection, Frame in, Frame prefix);
    }

    /**
     * Accepter: answers the negotiation or direct request that opens {@code accepted}.
     *
     * @return the session, or {@code null} when it was agreed to continue on a new connection of
     *         another transport (which the group will accept next)
     */
    static SessionSocket accept(AcceptorGroup.Accepted accepted, List<Offer> offers, java.util.UUID acceptor,
            CompiledProtocol protocol, SessionContext context) {
        return accept(accepted, offers, acceptor, protocol, context, () -> { });
    }

    /** As {@link #accept(AcceptorGroup.Accepted, List, java.util.UUID, CompiledProtocol, SessionContext)}, telling when the first frame is in. */
    static SessionSocket accept(AcceptorGroup.Accepted accepted, List<Offer> offers, java.util.UUID acceptor,
            CompiledProtocol protocol, SessionContext context, Runnable firstFrameRead) {
        return accept(accepted, offers, acceptor, protocol, context, firstFrameRead, ADMIT_ALL);
    }

    /** Admits every compatible session. */
    private static final java.util.function.Supplier<String> ADMIT_ALL = () -> null;

    /**
     * As {@link #accept(AcceptorGroup.Accepted, List, java.util.UUID, CompiledProtocol, SessionContext, Runnable)},
     * asking {@code admission} just before a compatible session is agreed: null admits it, a reason refuses
     * it (REJECT with that reason: the server cannot take it now, e.g. its accept queue is full).
     */
    static SessionSocket accept(AcceptorGroup.Accepted accepted, List<Offer> offers, java.util.UUID acceptor,
            CompiledProtocol protocol, SessionContext context, Runnable firstFrameRead,
            java.util.function.Supplier<String> admission) {
        return accept(accepted, offers, acceptor, context.config(),
                (connection, in, prefix) -> check(connection, in, prefix, protocol, context, admission), firstFrameRead);
    }

    /**
     * Accepter, for any opening: negotiation first if the first frame is a HELLO, then {@code opening};
     * {@code acceptor} is the id of the server socket's acceptor group, said in AGREED and checked
     * against the one a requester that went straight to one of the group's acceptors expects.
     */
    static <R> R accept(AcceptorGroup.Accepted accepted, List<Offer> offers, java.util.UUID acceptor,
            SJRuntimeConfig config, Opening<R> opening) {
        return accept(accepted, offers, acceptor, config, opening, () -> { });
    }

    /**
     * As {@link #accept(AcceptorGroup.Accepted, List, java.util.UUID, SJRuntimeConfig, Opening)}, running
     * {@code firstFrameRead} once the requester's first frame is in: from then on the handshake waits
     * for nobody (the requester sends everything in that frame), so only a handshake still waiting for
     * it can be stalled by the requester.
     */
    static <R> R accept(AcceptorGroup.Accepted accepted, List<Offer> offers, java.util.UUID acceptor,
            SJRuntimeConfig config, Opening<R> opening, Runnable firstFrameRead) {
        Connection connection = accepted.connection();
        Frame first;
        try {
            first = Frames.read(connection, firstFrameWait(connection, config));
        } catch (IOException e) {
            connection.close();
            throw new SJIOException("session initiation failed: " + e.getMessage(), e);
        }
        if (first == null) {
            connection.close();
            throw new SJTimeoutException("the requester sent no session request within " + config.initiationTimeout()
                    + " of its connection (sessionj.initiationTimeout)");
        }
        firstFrameRead.run();
        try {
            byte tag = first.isReadable() ? first.getByte(first.readerIndex()) : 0;
            if (tag == Tags.HELLO || tag == Tags.LOCAL_HELLO) {
                first.skipBytes(1);
                return negotiate(connection, accepted.transport(), first, tag == Tags.LOCAL_HELLO, offers, acceptor,
                        opening);
            }
            if (offers.stream().noneMatch(o -> o.transport().equals(accepted.transport()))) {
                String reason = "transport " + accepted.transport() + " is not a session transport of this server"
                        + " socket (it offers " + offers.stream().map(Offer::transport).toList()
                        + "); a requester must negotiate first";
                reject(connection, null, REFUSED, reason);
                throw new SJIOException(reason);
            }
            return opening.answer(connection, first, null);
        } finally {
            first.release();
        }
    }

    /**
     * The shortest wait for a first frame: a request already in the connection is still read after the
     * deadline (long enough for a thread that is descheduled once while it reads it).
     */
    static final long LAST_LOOK_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * How long an accepter waits for the requester's first frame: the initiation timeout counted from
     * when the connection was accepted, when the transport says (a deadline from accept, as gRPC's
     * handshake timeout): time the connection waited in the acceptor's queue for a handshake to start
     * counts, so a flood of stalled connections cannot hold each queued one for a whole timeout more.
     */
    static long firstFrameWait(Connection connection, SJRuntimeConfig config) {
        long timeout = config.initiationTimeout().toNanos();
        long acceptedAt = connection.acceptedNanos();
        if (acceptedAt == Connection.UNKNOWN_TIME) {
            return timeout;
        }
        return Math.max(LAST_LOOK_NANOS, timeout - (System.nanoTime() - acceptedAt));
    }

    private static <R> R negotiate(Connection connection, String setup, Frame in, boolean local, List<Offer> offers,
            java.util.UUID acceptor, Opening<R> opening) {
        Hello hello;
        try {
            hello = local ? localMessage(connection, Hello.class, "HELLO") : Negotiation.readHello(in);
            int expected = Negotiation.requesterFlag(setup, hello.session());
            if (hello.flag() != expected) {
                throw new MalformedInputException("the requester's flag R" + hello.flag() + " does not match its"
                        + " session transports " + hello.session() + " over setup transport " + setup + " (R" + expected + ")");
            }
        } catch (MalformedInputException e) {
            reject(connection, null, REFUSED, e.getMessage());
            throw new SJIOException("bad negotiation request: " + e.getMessage(), e);
        }
        if (hello.expectsOtherThan(acceptor)) {
            // Not a failure of this server: the requester asks the session port again (docs/negotiation.md).
            reject(connection, null, STALE, "this acceptor belongs to another server socket than the one the"
                    + " requester was sent to before; negotiate over the session port");
            return null;
        }
        String choice = Negotiation.agree(hello.session(), hello.nearness(), offers);
        Agreement agreement = new Agreement(Negotiation.accepterFlag(setup, offers), offers, choice,
                hello.acceptor() == null ? null : acceptor);
        Frame answer = handshakeFrame(connection, INITIATION_FRAME);
        if (local) {
            // Answered in kind: the AGREED passed before the frame that announces it (written next).
            try {
                connection.capability(LocalConnection.class).writeReference(agreement);
            } catch (IOException e) {
                answer.release();
                connection.close();
                throw new SJIOException("session initiation failed: " + e.getMessage(), e);
            }
            answer.writeByte(Tags.LOCAL_AGREED);
        } else {
            Negotiation.writeAgreement(answer, agreement);
        }
        if (choice != null && choice.equals(setup)) {
            return opening.answer(connection, in, answer); // the opening follows the HELLO
        }
        try {
            Frames.write(connection, answer);
            connection.flush();
        } catch (IOException e) {
            // The requester is gone; it learns nothing more.
        } finally {
            connection.close();
        }
        if (choice == null) {
            throw new SJIOException(noCommonTransport("the requester", hello.session(), setup, agreement.offeredNames()));
        }
        return null;
    }

    /**
     * Reads the REQUEST at {@code in}, checks compatibility, answers (after {@code prefix}, the AGREED
     * of a negotiation, if any).
     */
    private static SessionSocket check(Connection connection, Frame in, Frame prefix, CompiledProtocol protocol,
            SessionContext context, java.util.function.Supplier<String> admission) {
        String theirs;
        try {
            theirs = in.isReadable() && in.getByte(in.readerIndex()) == Tags.LOCAL_REQUEST
                    ? localRequest(connection, in, context.config().maxRequesterTypeBytes())
                    : readRequest(in, context.config().maxRequesterTypeBytes());
            if (in.isReadable()) {
                // A requester sends nothing after its type (docs/wire-format.md §2); bytes there were dropped
                // without a word (hostile H7), so a peer could believe a message of its was read.
                throw new MalformedInputException(in.readableBytes() + " bytes after the session request in its "
                        + "frame, where nothing may follow the requester's type");
            }
        } catch (MalformedInputException e) {
            reject(connection, prefix, REFUSED, e.getMessage());
            throw new SJIOException("bad session request: " + e.getMessage(), e);
        }
        boolean compatible;
        try {
            compatible = protocol.acceptsRequester(theirs);
        } catch (org.sessionj.types.ProtocolSyntaxException e) {
            // the parse error quotes the requester's text: escaped, a peer's newlines are no log lines (hostile H8)
            String reason = "the requester's session type does not parse: " + PeerText.escaped(e.getMessage());
            reject(connection, prefix, REFUSED, reason);
            throw new SJIOException(reason, e);
        } catch (RuntimeException | StackOverflowError e) {
            // A type nested past what the parser bounds must not take the server thread's stack with it.
            String reason = "the requester's session type " + excerpt(theirs) + " is not well-formed: " + e;
            reject(connection, prefix, REFUSED, reason);
            throw new SJIOException(reason, e);
        }
        if (!compatible) {
            String reason = "incompatible session types: " + protocol.whereRequesterDiffers(theirs)
                    .map(diff -> diff + " (the requester's type is not dual, up to subtyping, to the accepter's ")
                    .orElse("the requester's type is not dual (up to subtyping) to the accepter's (")
                    + protocol.name() + ")";
            reject(connection, prefix, INCOMPATIBLE, reason);
            throw new SJIncompatibleSessionException(reason);
        }
        String refusal = admission.get();
        if (refusal != null) {
            reject(connection, prefix, REFUSED, refusal);
            throw new SJIOException(refusal);
        }
        try {
            Frame accept = prefix != null ? prefix : handshakeFrame(connection, 1);
            accept.writeByte(Tags.ACCEPT);
            Frames.write(connection, accept);
            connection.flush();
        } catch (IOException e) {
            connection.close();
            throw new SJIOException("session initiation failed: " + e.getMessage(), e);
        }
        TransportChoiceLog.accepted(protocol.name(), connection);
        return new SessionSocket(connection, protocol.start(), SessionSettings.of(context), protocol.textFor(Side.ACCEPT));
    }

    /** At most 200 characters of a requester's type, for messages (the type itself may be long). */
    static String excerpt(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "… (" + text.length() + " characters)";
    }

    /** The type text of an in-JVM REQUEST at {@code in}, bounded as a decoded one is. */
    private static String localRequest(Connection connection, Frame in, int maxTypeBytes) throws MalformedInputException {
        in.skipBytes(1);
        String type = localMessage(connection, LocalRequest.class, "session request").type();
        if (type == null) {
            throw new MalformedInputException("the session request carries no type");
        }
        // A char is 1 to 3 UTF-8 bytes (a surrogate pair 4 for 2): count them only near the bound.
        if ((long) type.length() * 3 > maxTypeBytes && utf8Length(type) > maxTypeBytes) {
            throw new MalformedInputException("the requester's session type is " + utf8Length(type) + " bytes long;"
                    + " this server accepts at most " + maxTypeBytes + " (sessionj.maxRequesterTypeBytes)");
        }
        return type;
    }

    private static long utf8Length(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private static String readRequest(Frame request, int maxTypeBytes) throws MalformedInputException {
        if (request.readableBytes() < 4) {
            throw new MalformedInputException("not a session request");
        }
        byte tag = request.readByte();
        if (tag != Tags.REQUEST) {
            throw new MalformedInputException("not a session request: the frame starts with " + Tags.describe(tag));
        }
        if (request.readByte() != Tags.MAGIC_0 || request.readByte() != Tags.MAGIC_1) {
            throw new MalformedInputException("not an SJ session request (bad magic)");
        }
        byte version = request.readByte();
        if (version != Tags.REQUEST_VERSION) {
            throw new MalformedInputException("unsupported wire format version " + version + "; this runtime speaks "
                    + Tags.REQUEST_VERSION + (version == Tags.VERSION ? " (a peer of an earlier release: message "
                    + "values changed encoding in version 2, docs/wire-format.md)" : ""));
        }
        // Checked before the text is decoded: a type is kept in the verdict cache and walked by the
        // checker, so its size is bounded far below the frame limit.
        int claimed = request.readableBytes() >= 4 ? request.getInt(request.readerIndex()) : 0;
        if (claimed > maxTypeBytes) {
            throw new MalformedInputException("the requester's session type is " + claimed + " bytes long; this"
                    + " server accepts at most " + maxTypeBytes + " (sessionj.maxRequesterTypeBytes)");
        }
        String type = ValueCodec.readString(request);
        if (type == null) {
            throw new MalformedInputException("the session request carries no type");
        }
        return type;
    }

    /** Writes ACCEPT (after {@code prefix}, if any) and flushes. */
    static void acceptOpening(Connection connection, Frame prefix) throws IOException {
        Frame accept = prefix != null ? prefix : handshakeFrame(connection, 1);
        accept.writeByte(Tags.ACCEPT);
        Frames.write(connection, accept);
        connection.flush();
    }

    static void reject(Connection connection, Frame prefix, byte code, String reason) {
        try {
            Frame reject = prefix != null ? prefix : handshakeFrame(connection, INITIATION_FRAME);
            reject.writeByte(Tags.REJECT).writeByte(code);
            ValueCodec.writeString(reject, reason);
            Frames.write(connection, reject);
            connection.flush();
        } catch (IOException e) {
            // The requester is gone; it has nothing to be told.
        } finally {
            connection.close();
        }
    }
}
