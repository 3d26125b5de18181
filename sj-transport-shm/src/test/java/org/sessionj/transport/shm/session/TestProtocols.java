package org.sessionj.transport.shm.session;

import org.sessionj.api.Protocol;

/** Protocols of the end-to-end tests (resolved at run time: these tests run without sj-processor). */
public final class TestProtocols {
    private TestProtocols() {
    }

    public record Point(int x, int y) {
    }

    public static final class Box {
        public int[] values;
        public String name;
    }

    public enum Choice { ADD, QUIT }

    @Protocol("cbegin.!<int>.!<long>.!<double>.!<float>.!<boolean>.!<byte>.!<short>.!<char>"
            + ".?(int).?(long).?(double).?(float).?(boolean).?(byte).?(short).?(char)")
    public interface PrimitivesClient {
    }

    @Protocol("^(PrimitivesClient)")
    public interface PrimitivesServer {
    }

    @Protocol("cbegin.!<String>.!<String>.!<int[]>.!<double[]>.!<byte[]>.!<boolean[]>.!<long[]>.!<char[]>"
            + ".!<short[]>.!<float[]>.!<Point>.!<java.util.List<String>>.!<Integer>.!<double[][]>.?(Point)")
    public interface ValuesClient {
    }

    @Protocol("^(ValuesClient)")
    public interface ValuesServer {
    }

    @Protocol("cbegin.rec X[!{ADD: !<int>.!<int>.?(int).#X, QUIT: }]")
    public interface CalculatorClient {
    }

    @Protocol("^(CalculatorClient)")
    public interface CalculatorServer {
    }

    @Protocol("cbegin.![!<int>]*.?(int)")
    public interface StreamClient {
    }

    @Protocol("^(StreamClient)")
    public interface StreamServer {
    }

    @Protocol("cbegin.?[?(int)]*")
    public interface FeedClient {
    }

    @Protocol("^(FeedClient)")
    public interface FeedServer {
    }

    @Protocol("cbegin.!<int>.?(int)")
    public interface IntClient {
    }

    @Protocol("^(IntClient)")
    public interface IntServer {
    }

    @Protocol("sbegin.?(String).!<int>")
    public interface MismatchedServer {
    }

    @Protocol("cbegin.!<Point>.?(Point)")
    public interface PointClient {
    }

    @Protocol("^(PointClient)")
    public interface PointServer {
    }

    @Protocol("cbegin.!<int[]>.?(int[])")
    public interface ArrayClient {
    }

    @Protocol("^(ArrayClient)")
    public interface ArrayServer {
    }

    @Protocol("cbegin.!<Box>.?(Box)")
    public interface BoxClient {
    }

    @Protocol("^(BoxClient)")
    public interface BoxServer {
    }

    @Protocol("cbegin.![!<int>.?(int)]*")
    public interface PingClient {
    }

    @Protocol("^(PingClient)")
    public interface PingServer {
    }

    @Protocol("cbegin.?(int)")
    public interface WaitClient {
    }

    @Protocol("^(WaitClient)")
    public interface WaitServer {
    }

    /** A server whose session receives a delegated session (its remaining type is the peer's text). */
    @Protocol("sbegin.?(?[?(int).!<int>]*)")
    public interface DelegationTakerServer {
    }

    /** Not a protocol: no annotation. */
    public interface NotAProtocol {
    }
}
