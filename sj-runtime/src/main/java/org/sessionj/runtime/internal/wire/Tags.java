package org.sessionj.runtime.internal.wire;

/** Item and frame tags of the wire format (docs/wire-format.md is the specification). */
public final class Tags {
    private Tags() {
    }

    /** The first version of the wire format (what a version-1 negotiation HELLO carries). */
    public static final byte VERSION = 1;
    /**
     * The wire format version sent in the initiation request. 2: message values travel as their state (a
     * class's fields whatever their access, a record's fields), {@code OffsetDateTime}/{@code ZonedDateTime}
     * with their offset and zone, a {@code Timestamp} with its nanoseconds, a {@code Pattern} with its flags
     * (adv15 A21, A22); a version-1 peer would misread those values, so it is refused at the handshake.
     */
    public static final byte REQUEST_VERSION = 2;
    /** The two bytes that open an initiation request: 'S', 'J'. */
    public static final byte MAGIC_0 = 'S';
    public static final byte MAGIC_1 = 'J';

    // Initiation frames.
    public static final byte REQUEST = 0x40;
    public static final byte ACCEPT = 0x41;
    public static final byte REJECT = 0x42;
    // Transport negotiation (docs/negotiation.md).
    public static final byte HELLO = 0x43;
    public static final byte AGREED = 0x44;
    // Delegation (docs/delegation.md).
    /** The new owner opens a delegated session at the peer's resumption endpoint: token. */
    public static final byte RESUME = 0x45;
    /** Delegator to peer, a frame of its own: the session is being delegated; token. */
    public static final byte DELEGATE = 0x46;
    /** Peer to delegator, a frame of its own: nothing more follows; token, resumption host and port. */
    public static final byte DRAINED = 0x47;
    /** Delegator to peer, the last frame on the old connection: the session is in the new owner's hands. */
    public static final byte HANDED_OVER = 0x48;
    // In-JVM initiation (docs/negotiation.md, "In one JVM"): the frame carries only the tag, the message
    // itself is the passed reference written before it on a LocalConnection. Never sent between JVMs.
    /** Requester to accepter in one JVM: the HELLO is the passed reference before this frame. */
    public static final byte LOCAL_HELLO = 0x49;
    /** Accepter to requester in one JVM: the AGREED is the passed reference before this frame. */
    public static final byte LOCAL_AGREED = 0x4A;
    /** Requester to accepter in one JVM, after {@link #LOCAL_HELLO}: the REQUEST's type text is a passed reference. */
    public static final byte LOCAL_REQUEST = 0x4B;

    // Message items.
    public static final byte INT = 0x01;
    public static final byte LONG = 0x02;
    public static final byte DOUBLE = 0x03;
    public static final byte FLOAT = 0x04;
    public static final byte BOOLEAN = 0x05;
    public static final byte BYTE = 0x06;
    public static final byte SHORT = 0x07;
    public static final byte CHAR = 0x08;
    public static final byte STRING = 0x10;
    public static final byte BOOLEAN_ARRAY = 0x11;
    public static final byte BYTE_ARRAY = 0x12;
    public static final byte SHORT_ARRAY = 0x13;
    public static final byte CHAR_ARRAY = 0x14;
    public static final byte INT_ARRAY = 0x15;
    public static final byte LONG_ARRAY = 0x16;
    public static final byte FLOAT_ARRAY = 0x17;
    public static final byte DOUBLE_ARRAY = 0x18;
    public static final byte OBJECT = 0x20;
    /** The value travels as a reference on a local connection; the item has no body. */
    public static final byte REFERENCE = 0x21;
    public static final byte SESSION = 0x22;
    /** A flat record (docs/wire-format.md): layout fingerprint, then the components raw. */
    public static final byte RECORD = 0x23;
    public static final byte RECORD_ARRAY = 0x24;

    // Control items.
    public static final byte LABEL = 0x30;
    public static final byte LOOP = 0x31;
    /** The sender failed or abandoned the session; the body is the reason. */
    public static final byte FAIL = 0x3F;

    /** A readable name for a tag (for errors). */
    public static String describe(byte tag) {
        for (WireKind kind : WireKind.values()) {
            if (kind.tag() == tag) {
                return "a message of kind " + kind.typeName();
            }
        }
        return switch (tag) {
            case REFERENCE -> "a passed reference";
            case LABEL -> "a branch label";
            case LOOP -> "an iteration flag";
            case FAIL -> "a failure notice";
            case REQUEST -> "an initiation request";
            case ACCEPT -> "an initiation accept";
            case REJECT -> "an initiation reject";
            case HELLO -> "a negotiation HELLO";
            case AGREED -> "a negotiation AGREED";
            case RESUME -> "a delegation RESUME";
            case DELEGATE -> "a DELEGATE notice";
            case DRAINED -> "a DRAINED marker";
            case HANDED_OVER -> "a HANDED_OVER notice";
            case LOCAL_HELLO -> "an in-JVM negotiation HELLO";
            case LOCAL_AGREED -> "an in-JVM negotiation AGREED";
            case LOCAL_REQUEST -> "an in-JVM initiation request";
            default -> String.format("unknown tag 0x%02x", tag & 0xff);
        };
    }
}
