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

    /**
     * Runs {@code decode} (which handles {@code inputBytes} from a peer) and asserts it allocated less
     * than {@link #bound}. The first decode of a new shape may load classes and fill caches, so an
     * excess is measured again on a second run of the same input: only a repeatable excess fails.
     */
    public static void assertBounded(int inputBytes, Runnable decode) {
        long first = measure(decode);
        if (first >= bound(inputBytes)) {
            long second = measure(decode);
            if (second >= bound(inputBytes)) {
                throw new AssertionError("decoding " + inputBytes + " bytes from a peer allocated " + second
                        + " bytes (first run " + first + "), more than the bound of " + bound(inputBytes));
            }
        }
    }

    private static long measure(Runnable decode) {
        long before = now();
        decode.run();
        return now() - before;
    }
}
