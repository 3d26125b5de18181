package org.sessionj.transport.netty.internal;

/**
 * How many heartbeats a TCP or TLS connection has received from its peer (and dropped). Lets a test
 * wait for heartbeats to have flowed, an event, instead of for a span of time that a loaded machine
 * may stretch; also a diagnostic of a connection that looks idle.
 */
public interface HeartbeatCount {
    /** Heartbeats received from the peer so far. */
    long heartbeatsReceived();
}
