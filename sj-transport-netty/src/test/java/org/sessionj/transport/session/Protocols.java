package org.sessionj.transport.session;

import org.sessionj.api.Protocol;

/** Protocols of the cross-transport and cross-process session tests (resolved at run time). */
public final class Protocols {
    private Protocols() {
    }

    public record Point(int x, int y) {
    }

    @Protocol("cbegin.!<int>.?(int)")
    public interface PingClient {
    }

    @Protocol("^(PingClient)")
    public interface PingServer {
    }

    /** Every message kind each way, an outwhile, an inwhile and a branch. */
    @Protocol("cbegin.!<int>.!<long>.!<double>.!<float>.!<boolean>.!<byte>.!<short>.!<char>.!<String>"
            + ".!<double[]>.!<Point>.!<Point[]>.?(int).?(long).?(double).?(float).?(boolean).?(byte).?(short).?(char)"
            + ".?(String).?(int[]).?(Point).?(Point[]).![!<int>.?(int)]*.?[?(String)]*"
            + ".!{SUM: !<int[]>.?(long), ECHO: !<String>.?(String)}")
    public interface EverythingClient {
    }

    @Protocol("^(EverythingClient)")
    public interface EverythingServer {
    }

    /** Incompatible with {@link PingServer}: it sends a String where an int is expected. */
    @Protocol("cbegin.!<String>.?(int)")
    public interface WrongClient {
    }

    /** Streams ints for as long as it likes: what a flooding peer claims to be. */
    @Protocol("cbegin.![!<int>]*")
    public interface StreamClient {
    }

    @Protocol("^(StreamClient)")
    public interface StreamServer {
    }

    /** Sends chunks for as long as it likes (a peer that stops reading them holds the writer back). */
    @Protocol("cbegin.![!<byte[]>]*")
    public interface ChunkClient {
    }

    @Protocol("^(ChunkClient)")
    public interface ChunkServer {
    }

    /** Hands the server a session (a delegation), which the server then takes over. */
    @Protocol("cbegin.!<?[?(int).!<int>]*>")
    public interface DelegatingClient {
    }

    @Protocol("^(DelegatingClient)")
    public interface SessionTakingServer {
    }
}
