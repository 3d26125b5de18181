package org.sessionj.runtime.internal.transport;

import org.sessionj.runtime.spi.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.sessionj.runtime.internal.wire.MalformedInputException;
import org.sessionj.runtime.internal.wire.Tags;
import org.sessionj.runtime.internal.wire.ValueCodec;

/**
 * Phase two of the transport negotiation of paper 000 §5.3 (docs/negotiation.md): the messages and
 * the agreement rule. The requester's HELLO carries its flag (R1–R3), its JVM and its session
 * transports; the accepter answers AGREED with its flag (A1–A3), its session transports with their
 * ports, and the agreed transport, which it computes with {@link #agree}. The rule depends only on
 * what the two messages carry, so either side could compute it.
 */
public final class Negotiation {
    /** R1: the setup transport is not one of the requester's session transports (negotiation is mandatory). */
    public static final int R1_MANDATORY = 1;
    /** R2: the setup transport is the requester's first choice (negotiation is unnecessary). */
    public static final int R2_UNNECESSARY = 2;
    /** R3: the setup transport is acceptable but not the first choice (start negotiation). */
    public static final int R3_NEGOTIATE = 3;
    /** A1: the setup transport is the accepter's only session transport (no negotiation possible). */
    public static final int A1_ONLY_SETUP = 1;
    /** A2: the setup transport is one of the accepter's session transports. */
    public static final int A2_SETUP_SUPPORTED = 2;
    /** A3: the accepter has session transports, but not the setup transport. */
    public static final int A3_OTHERS_ONLY = 3;

    /**
     * The HELLO layout written: 3 adds the acceptor the requester expects (and asks for the
     * accepter's in AGREED), 2 the host identity; versions 1 and 2 are still read.
     */
    public static final byte HELLO_VERSION = 3;
    /** HELLO version 2: with the host identity, without an acceptor id. */
    private static final byte HOST_VERSION = 2;
    /**
     * In a version-3 HELLO: the requester expects no acceptor in particular (it came over a setup
     * transport to the session port, not straight to a remembered acceptor).
     */
    public static final UUID ANY_ACCEPTOR = new UUID(0, 0);
    private static final int MAX_TRANSPORTS = 255;

    private Negotiation() {
    }

    /** How far a transport reaches, and how near a requester is: in one JVM, on one host, anywhere. */
    public enum Reach {
        /** Peers in this JVM only (the in-JVM transport); a requester in this JVM. */
        JVM,
        /** Peers on this host only (cross-process shared memory); a requester on this host. */
        HOST,
        /** Any peer; a requester elsewhere (or of unknown location). */
        NETWORK;

        /** How far {@code transport} reaches. */
        public static Reach of(org.sessionj.runtime.spi.Transport transport) {
            return transport.inJvmOnly() ? JVM : transport.sameHostOnly() ? HOST : NETWORK;
        }

        /** Whether a transport reaching this far reaches a requester that is {@code requester} near. */
        public boolean reaches(Reach requester) {
            return requester.ordinal() <= ordinal();
        }
    }

    /** A session transport the accepter offers, the port it listens on for sessions, and how far it reaches. */
    public record Offer(String transport, int port, Reach reach) {

        /** An offer of a transport that reaches only this JVM ({@code inJvmOnly}) or any peer. */
        public Offer(String transport, int port, boolean inJvmOnly) {
            this(transport, port, inJvmOnly ? Reach.JVM : Reach.NETWORK);
        }
    }

    /**
     * The requester's half: flag, JVM, host identity ({@link HostIdentity}; empty: unknown), session
     * transports in order of preference, and the acceptor it expects: the id a server socket's
     * AGREED gave it before, when it goes straight to that acceptor ({@link LocalRoutes});
     * {@link #ANY_ACCEPTOR} when it came to the session port; {@code null} in a HELLO of version 1
     * or 2, whose writer reads no acceptor id in AGREED.
     */
    public record Hello(int flag, UUID runtime, String host, List<String> session, UUID acceptor) {

        /** A HELLO that expects no acceptor in particular. */
        public Hello(int flag, UUID runtime, String host, List<String> session) {
            this(flag, runtime, host, session, ANY_ACCEPTOR);
        }

        /** A HELLO from a requester of unknown host. */
        public Hello(int flag, UUID runtime, List<String> session) {
            this(flag, runtime, "", session);
        }

        /**
         * Whether this HELLO was meant for another acceptor than {@code id}: the requester went
         * straight to an acceptor it remembered, and this one is not it (the server socket it
         * belonged to closed, and another took its port).
         */
        public boolean expectsOtherThan(UUID id) {
            return acceptor != null && !acceptor.equals(ANY_ACCEPTOR) && !acceptor.equals(id);
        }

        /** How near the requester is to this process. */
        public Reach nearness() {
            if (runtime.equals(TransportManager.RUNTIME_ID)) {
                return Reach.JVM;
            }
            return HostIdentity.isLocal(host) ? Reach.HOST : Reach.NETWORK;
        }
    }

    /**
     * The accepter's half: flag, offers in order, the agreed transport ({@code null}: none), and the
     * id of the accepter's server socket ({@code null}: not sent, to a requester of HELLO version 1
     * or 2), which a requester presents when it later goes straight to one of its acceptors.
     */
    public record Agreement(int flag, List<Offer> offers, String choice, UUID acceptor) {

        /** An AGREED without an acceptor id. */
        public Agreement(int flag, List<Offer> offers, String choice) {
            this(flag, offers, choice, null);
        }

        /** The offer of the agreed transport. */
        public Offer chosen() {
            return offers.stream().filter(o -> o.transport().equals(choice)).findFirst().orElseThrow();
        }

        /** The offered transport names, in order. */
        public List<String> offeredNames() {
            return offers.stream().map(Offer::transport).toList();
        }
    }

    /** The requester's flag for setup transport {@code setup} and its session transports. */
    public static int requesterFlag(String setup, List<String> session) {
        if (!session.contains(setup)) {
            return R1_MANDATORY;
        }
        return session.get(0).equals(setup) ? R2_UNNECESSARY : R3_NEGOTIATE;
    }

    /** The accepter's flag for setup transport {@code setup} and its offers. */
    public static int accepterFlag(String setup, List<Offer> offers) {
        for (Offer offer : offers) { // a loop, not a stream: once per handshake
            if (offer.transport().equals(setup)) {
                return offers.size() == 1 ? A1_ONLY_SETUP : A2_SETUP_SUPPORTED;
            }
        }
        return A3_OTHERS_ONLY;
    }

    /**
     * The agreed session transport: the requester's most preferred one that the accepter offers and
     * that can reach it (an in-JVM transport only within one JVM, a same-host transport only on one
     * host); {@code null} if there is none.
     * This gives the paper's fast outcomes: R2 or R3 with A1, and R2 with A2, agree on the setup
     * transport; R1 with A1 agrees on nothing.
     */
    public static String agree(List<String> requesterSession, Reach requester, List<Offer> offers) {
        for (String name : requesterSession) {
            for (Offer offer : offers) {
                if (offer.transport().equals(name) && offer.reach().reaches(requester)) {
                    return name;
                }
            }
        }
        return null;
    }

    /** As {@link #agree(List, Reach, List)} for a requester in this JVM ({@code sameJvm}) or elsewhere. */
    public static String agree(List<String> requesterSession, boolean sameJvm, List<Offer> offers) {
        return agree(requesterSession, sameJvm ? Reach.JVM : Reach.NETWORK, offers);
    }

    /** Whether the requester pipelines its session request behind the HELLO: when the setup transport may carry it. */
    public static boolean requestFollows(int requesterFlag) {
        return requesterFlag != R1_MANDATORY;
    }

    /** Appends HELLO (docs/negotiation.md). */
    public static void writeHello(Frame out, Hello hello) {
        Encoded last = lastHello;
        if (last != null && last.message().equals(hello)) {
            out.writeBytes(last.bytes());
            return;
        }
        int start = out.writerIndex();
        encodeHello(out, hello);
        // Kept with a copy of its list (no copy if it is immutable already): a caller's later change must not match.
        lastHello = Encoded.of(new Hello(hello.flag(), hello.runtime(), hello.host(), List.copyOf(hello.session()),
                hello.acceptor()), out, start);
    }

    /**
     * The last HELLO and AGREED written, as bytes: a requester sends the same HELLO for every session
     * of a protocol (its flag, runtime, host and transports), a server the same AGREED; comparing two
     * small records costs less than encoding their strings again (measured: a HELLO's strings were 6 %
     * of a requester's CPU per session in the accept-load test, docs/reliability.md). One entry each:
     * a program that alternates plans just encodes as before.
     */
    private record Encoded(Object message, byte[] bytes) {
        static Encoded of(Object message, Frame out, int start) {
            byte[] bytes = new byte[out.writerIndex() - start];
            out.getBytes(start, bytes);
            return new Encoded(message, bytes);
        }
    }

    private static volatile Encoded lastHello;
    private static volatile Encoded lastAgreement;

    private static void encodeHello(Frame out, Hello hello) {
        out.writeByte(Tags.HELLO).writeByte(Tags.MAGIC_0).writeByte(Tags.MAGIC_1).writeByte(HELLO_VERSION);
        out.writeByte(hello.flag());
        out.writeLong(hello.runtime().getMostSignificantBits()).writeLong(hello.runtime().getLeastSignificantBits());
        ValueCodec.writeShortString(out, hello.host());
        writeNames(out, hello.session().size());
        for (String name : hello.session()) {
            ValueCodec.writeShortString(out, name);
        }
        UUID acceptor = hello.acceptor() == null ? ANY_ACCEPTOR : hello.acceptor();
        out.writeLong(acceptor.getMostSignificantBits()).writeLong(acceptor.getLeastSignificantBits());
    }

    /**
     * The most session transports a HELLO may list, and the longest name of one (UTF-8 bytes): a runtime has a
     * handful of short names. Past them a HELLO is malformed (hostile18 H12: 240 names of 65,000 bytes were read,
     * and the refusal quoted them all, a 15.6 MB line in the server's INFO log).
     */
    static final int MAX_HELLO_TRANSPORTS = 32;
    /** See {@link #MAX_HELLO_TRANSPORTS}. */
    static final int MAX_TRANSPORT_NAME_BYTES = 64;

    /** Reads HELLO after its tag. */
    public static Hello readHello(Frame in) throws MalformedInputException {
        need(in, 3 + 1 + 16 + 1, "a negotiation HELLO");
        if (in.readByte() != Tags.MAGIC_0 || in.readByte() != Tags.MAGIC_1) {
            throw new MalformedInputException("not an SJ negotiation HELLO (bad magic)");
        }
        byte version = in.readByte();
        if (version < Tags.VERSION || version > HELLO_VERSION) {
            throw new MalformedInputException("unsupported negotiation HELLO version " + version + "; this runtime reads "
                    + Tags.VERSION + " to " + HELLO_VERSION);
        }
        int flag = in.readByte();
        if (flag < R1_MANDATORY || flag > R3_NEGOTIATE) {
            throw new MalformedInputException("the requester's negotiation flag must be R1, R2 or R3 (1..3), got " + flag);
        }
        UUID runtime = new UUID(in.readLong(), in.readLong());
        String host = version == Tags.VERSION ? "" : ValueCodec.readShortString(in);
        need(in, 1, "the requester's session transports");
        int count = in.readUnsignedByte();
        if (count == 0) {
            throw new MalformedInputException("the requester lists no session transports");
        }
        if (count > MAX_HELLO_TRANSPORTS) {
            throw new MalformedInputException("the requester lists " + count + " session transports; a HELLO names at"
                    + " most " + MAX_HELLO_TRANSPORTS);
        }
        List<String> session = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int at = in.readerIndex();
            int length = in.readableBytes() >= 2 ? (in.getByte(at) & 0xff) << 8 | in.getByte(at + 1) & 0xff : 0;
            if (length > MAX_TRANSPORT_NAME_BYTES) {
                throw new MalformedInputException("the requester's session transport " + (i + 1) + " has a name of "
                        + length + " bytes; a transport name has at most " + MAX_TRANSPORT_NAME_BYTES);
            }
            session.add(ValueCodec.readShortString(in));
        }
        UUID acceptor = null;
        if (version > HOST_VERSION) {
            need(in, 16, "the acceptor the requester expects");
            acceptor = new UUID(in.readLong(), in.readLong());
        }
        return new Hello(flag, runtime, host, List.copyOf(session), acceptor);
    }

    /** Appends AGREED (docs/negotiation.md). */
    public static void writeAgreement(Frame out, Agreement agreement) {
        Encoded last = lastAgreement;
        if (last != null && last.message().equals(agreement)) {
            out.writeBytes(last.bytes());
            return;
        }
        int start = out.writerIndex();
        encodeAgreement(out, agreement);
        lastAgreement = Encoded.of(new Agreement(agreement.flag(), List.copyOf(agreement.offers()), agreement.choice(),
                agreement.acceptor()), out, start);
    }

    private static void encodeAgreement(Frame out, Agreement agreement) {
        out.writeByte(Tags.AGREED).writeByte(agreement.flag());
        writeNames(out, agreement.offers().size());
        for (Offer offer : agreement.offers()) {
            ValueCodec.writeShortString(out, offer.transport());
            out.writeInt(offer.port());
        }
        ValueCodec.writeShortString(out, agreement.choice() == null ? "" : agreement.choice());
        if (agreement.acceptor() != null) {
            out.writeLong(agreement.acceptor().getMostSignificantBits());
            out.writeLong(agreement.acceptor().getLeastSignificantBits());
        }
    }

    /** Reads AGREED after its tag, without an acceptor id (the answer to a HELLO of version 1 or 2). */
    public static Agreement readAgreement(Frame in) throws MalformedInputException {
        return readAgreement(in, false);
    }

    /**
     * Reads AGREED after its tag; {@code withAcceptor}: it ends with the accepter's acceptor id (the
     * answer to a HELLO of version 3).
     */
    public static Agreement readAgreement(Frame in, boolean withAcceptor) throws MalformedInputException {
        need(in, 2, "a negotiation AGREED");
        int flag = in.readByte();
        if (flag < A1_ONLY_SETUP || flag > A3_OTHERS_ONLY) {
            throw new MalformedInputException("the accepter's negotiation flag must be A1, A2 or A3 (1..3), got " + flag);
        }
        int count = in.readUnsignedByte();
        List<Offer> offers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = ValueCodec.readShortString(in);
            need(in, 4, "the port of offered transport " + name);
            int port = in.readInt();
            offers.add(new Offer(name, port, false));
        }
        String choice = ValueCodec.readShortString(in);
        if (choice.isEmpty()) {
            choice = null;
        } else {
            String agreed = choice;
            if (offers.stream().noneMatch(o -> o.transport().equals(agreed))) {
                throw new MalformedInputException("the accepter agreed on transport " + agreed + ", which it does not offer "
                        + offers.stream().map(Offer::transport).toList());
            }
        }
        UUID acceptor = null;
        if (withAcceptor) {
            need(in, 16, "the accepter's acceptor id");
            acceptor = new UUID(in.readLong(), in.readLong());
        }
        return new Agreement(flag, List.copyOf(offers), choice, acceptor);
    }

    private static void writeNames(Frame out, int count) {
        if (count > MAX_TRANSPORTS) {
            throw new IllegalArgumentException("at most " + MAX_TRANSPORTS + " transports can be negotiated, got " + count);
        }
        out.writeByte(count);
    }

    private static void need(Frame in, int bytes, String what) throws MalformedInputException {
        if (in.readableBytes() < bytes) {
            throw new MalformedInputException("truncated frame: " + what + " needs " + bytes + " bytes, "
                    + in.readableBytes() + " left");
        }
    }
}
