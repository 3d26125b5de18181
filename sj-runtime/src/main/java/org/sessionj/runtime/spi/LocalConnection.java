package org.sessionj.runtime.spi;

import java.io.IOException;

/**
 * Optional capability of a connection whose peer is in the same JVM: object references travel
 * without copying (the paper's {@code SJLocalConnection}, used by {@code pass}).
 *
 * <p>References and frames share one FIFO order. A reference written before a frame is available to
 * {@link #readReference()} once that frame (or a later one) has been {@linkplain #read read}.
 */
public interface LocalConnection extends Connection {

    /**
     * Hands {@code reference} to the peer, in order with the frames written around it. The peer need
     * not be woken for it: a frame announcing the reference always follows.
     */
    void writeReference(Object reference) throws IOException;

    /**
     * The oldest reference not yet taken that was written before the frame last read.
     *
     * @throws IOException if there is none (the peer's frames and references disagree)
     */
    Object readReference() throws IOException;

    /**
     * The calling thread hands this end to a thread that has not used it yet (the runtime queues an
     * accepted session for {@code accept()}): until another thread reads or writes on it, the peer
     * does not take the end of the calling thread for the end of the session. The default does nothing
     * (a transport that does not watch threads).
     */
    default void releaseOwner() {
    }
}
