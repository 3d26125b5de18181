package org.sessionj.transport.ipc;

import java.io.IOException;

/**
 * A fault on touching a connection's shared memory. Another process of the same user can shrink the
 * file under a mapping (truncate it); the next access of a page that is gone raises SIGBUS, which the JVM
 * reports as an {@link InternalError} ("a fault occurred in an unsafe memory access operation"). The ipc
 * transport catches it wherever it touches the mapping and turns it into the connection's failure, an
 * {@link IOException}, so that no raw {@code Error} reaches a program or kills the doorbell thread, and a
 * memory that faulted is never used again. In JIT-compiled code the JVM raises the error asynchronously,
 * at the next safepoint after the access, which may lie past the access's own guard: the connection's
 * read and write entry points catch it too.
 */
final class MemoryFault {
    private MemoryFault() {
    }

    /** What a fault means, for the connection's failure. */
    static String describe(InternalError fault) {
        return "the ipc shared memory of this connection can no longer be read: its file was truncated or"
                + " removed by another process (" + fault.getMessage() + ")";
    }

    /** The fault as the connection's failure. */
    static IOException io(InternalError fault) {
        return new IOException(describe(fault), fault);
    }
}
