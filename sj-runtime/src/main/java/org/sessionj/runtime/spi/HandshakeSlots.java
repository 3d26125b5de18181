package org.sessionj.runtime.spi;

/**
 * The pending-handshake limit of a server socket ({@code sessionj.maxPendingHandshakes}), shared with
 * the acceptors whose connections go through a handshake of the transport's own before they can be
 * accepted (TLS): such a connection holds a slot from the moment it is accepted until that handshake
 * ends, so that idle TLS connections count toward the limit exactly like idle TCP ones. Once its
 * transport handshake succeeded the connection gives its slot back and is accepted, and the
 * runtime's session handshake takes a slot for it anew.
 *
 * <p>At the limit, the acceptor stops reading new connections and asks again a little later;
 * meanwhile the runtime drops a handshake that stalled (a session handshake whose requester sent nothing
 * more, or too little, or a transport handshake not finished) to make room, once it has stalled for the
 * stall time (twice that while other handshakes succeed), and counts it as a failed handshake.
 */
public interface HandshakeSlots {

    /**
     * A slot for a connection entering a transport-level handshake, or {@code null} when every slot is
     * taken (ask again later, for example after 100 ms).
     *
     * @param transport the name of the transport, for the log
     * @param drop closes the connection; run (at most once, on any thread) when the runtime drops this
     *        stalled handshake to make room or closes the server socket. The slot is given back by
     *        {@link Slot#leave()} as for any other end of the handshake.
     */
    Slot tryEnter(String transport, Runnable drop);

    /**
     * How long a connection may spend in its transport handshake, counted from its accept: the server
     * socket's initiation timeout ({@code sessionj.initiationTimeout}), which bounds the whole initiation
     * of a requester, transport handshake included. A transport closes a connection whose handshake has
     * not succeeded by then, even with slots to spare (a TLS handshake stalled half-way, for example).
     * Negative: no bound of the server socket's own (the transport's own timeout applies). The default
     * has none.
     *
     * @return the bound in nanoseconds, or a negative value
     */
    default long transportHandshakeTimeoutNanos() {
        return -1;
    }

    /** A slot held by one connection in a transport-level handshake. */
    interface Slot {
        /** Gives the slot back: the transport handshake succeeded, failed or was dropped. Idempotent. */
        void leave();

        /**
         * Gives the slot back because the transport closed the connection: its handshake did not succeed
         * within {@link HandshakeSlots#transportHandshakeTimeoutNanos}. The runtime counts it as a failed
         * handshake. Idempotent with {@link #leave()}; the default just leaves.
         */
        default void expired() {
            leave();
        }

        /**
         * Gives the slot back because the transport handshake failed while the connection was open: the
         * peer sent what the transport refused (bytes that are no TLS record, a certificate not trusted,
         * a record that does not decrypt). The runtime counts it as a failed handshake and tells the
         * failed-handshake listener. A connection that the peer closed first, or that was dropped or
         * expired, ends as that instead. Idempotent with {@link #leave()}; the default just leaves.
         *
         * @param expectedAndFound what the transport expected and what it found, for the count's reason
         */
        default void failed(String expectedAndFound) {
            leave();
        }
    }
}
