package org.sessionj.transport.ipc;

/** The record types in a ring (Agrona message type ids, which must be positive). */
final class Records {
    /** A whole frame. */
    static final int FRAME = 1;
    /** The first part of a frame longer than a record: total length:int32 · bytes. */
    static final int FIRST = 2;
    /** A middle part of a long frame. */
    static final int MIDDLE = 3;
    /** The last part of a long frame. */
    static final int LAST = 4;
    /** The writer closed the connection; nothing follows. */
    static final int CLOSE = 5;

    private Records() {
    }
}
