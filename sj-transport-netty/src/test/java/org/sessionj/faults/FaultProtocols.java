package org.sessionj.faults;

import org.sessionj.api.Protocol;

/** Protocols of the fault tests (resolved at run time in both JVMs). */
public final class FaultProtocols {
    private FaultProtocols() {
    }

    /**
     * One round trip (each side blocks on an input, so each flushes what it sent), then the survivor
     * waits for an int the peer never sends (it dies or freezes).
     */
    @Protocol("cbegin.?(int).!<int>.?(int)")
    public interface Waiting {
    }

    @Protocol("^(Waiting)")
    public interface WaitingServer {
    }

    /** The survivor sends chunks for as long as it likes; the peer never reads them. */
    @Protocol("cbegin.![!<byte[]>]*")
    public interface Flooding {
    }

    @Protocol("^(Flooding)")
    public interface FloodingServer {
    }

    /** One round trip: many short sessions. */
    @Protocol("cbegin.!<int>.?(int)")
    public interface Ping {
    }

    @Protocol("^(Ping)")
    public interface PingServer {
    }
}
