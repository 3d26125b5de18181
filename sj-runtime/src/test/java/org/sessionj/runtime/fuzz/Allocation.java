package org.sessionj.runtime.fuzz;

import java.lang.management.ManagementFactory;

/** Bytes the current thread allocates while a decoder runs: a peer must not make us allocate much more than it sent. */
public final class Allocation {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** What decoding may allocate beyond a multiple of the input: parser buffers, exceptions, messages. */
    public static final long FIXED_ALLOWANCE = 4L << 20;
    /** How many bytes of objects one input byte may turn into (a byte as a boolean[] element is 1, as a boxed value ~16). */
    public static final long PER_INPUT_BYTE = 64;

    private Allocation() {
    }

    /** The current thread's allocated bytes so far. */
    public static long now() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** The bound on what decoding {@code inputBytes} from a peer may allocate. */
    public static long bound(int inputBytes) {
        return FIXED_ALLOWANCE + PER_INPUT_BYTE * inputBytes;
    }
}
