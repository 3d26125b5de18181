package org.sessionj.crosscheck.program;

import java.util.SplittableRandom;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * One generated session: a random protocol, a well-typed program for one of its sides and a peer
 * for the other, all determined by {@code seed}. The program is what mutations change; the peer stays.
 *
 * @param pkg the Java package of the three classes ({@code Proto}, {@code Program}, {@code Peer})
 * @param requesterType the requester's session body (the protocol is {@code cbegin.} this)
 */
public record GeneratedCase(long seed, String pkg, SessionType requesterType, Side program, Side peer) {

    /** Seeds for the two sides' run-time decisions, derived from the case's seed. */
    public long programSeed() {
        return seed * 31 + 1;
    }

    public long peerSeed() {
        return seed * 31 + 2;
    }

    /** The case for {@code seed}, nested at most {@code maxDepth} constructs deep. */
    public static GeneratedCase generate(long seed, int maxDepth) {
        SplittableRandom random = new SplittableRandom(seed);
        SessionType type = new ProtocolGenerator(random.split(), maxDepth).body();
        Side.Role role = random.nextBoolean() ? Side.Role.REQUESTER : Side.Role.ACCEPTER;
        Side.Role peerRole = role == Side.Role.REQUESTER ? Side.Role.ACCEPTER : Side.Role.REQUESTER;
        Side program = new SideGenerator(random.split()).generate(role, typeOf(role, type));
        Side peer = new SideGenerator(random.split()).generate(peerRole, typeOf(peerRole, type));
        return new GeneratedCase(seed, "gen.s" + Long.toHexString(seed), type, program, peer);
    }

    private static SessionType typeOf(Side.Role role, SessionType requesterType) {
        return role == Side.Role.REQUESTER ? requesterType : SessionTypes.dual(requesterType);
    }

    public String protocolSource() {
        return JavaWriter.protocolFile(pkg, requesterType.toString());
    }

    public String programSource() {
        return JavaWriter.sideFile(pkg, "Program", program);
    }

    public String peerSource() {
        return JavaWriter.sideFile(pkg, "Peer", peer);
    }
}
