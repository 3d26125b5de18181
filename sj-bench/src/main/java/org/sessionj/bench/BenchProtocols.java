package org.sessionj.bench;

import org.sessionj.api.Protocol;

/** The protocols the benchmarks run. */
public final class BenchProtocols {
    private BenchProtocols() {
    }

    /**
     * A binary tree of ints (paper 000 §6.1), a plain mutable bean so Jackson can copy it;
     * serializable for the Java-serialization and RMI peers.
     */
    public static final class BinTree implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int value;
        public BinTree left;
        public BinTree right;

        /** A complete tree of {@code depth} levels below the root. */
        public static BinTree of(int depth) {
            BinTree tree = new BinTree();
            tree.value = depth;
            if (depth > 0) {
                tree.left = of(depth - 1);
                tree.right = of(depth - 1);
            }
            return tree;
        }
    }

    @Protocol("cbegin.![!<int>.?(int)]*")
    public interface PingClient {
    }

    @Protocol("^(PingClient)")
    public interface PingServer {
    }

    @Protocol("cbegin.!<int>.?(int)")
    public interface OnceClient {
    }

    @Protocol("^(OnceClient)")
    public interface OnceServer {
    }

    /** Requests and waits for one int: an idle session while it waits ({@link IdleSessions}). */
    @Protocol("cbegin.?(int)")
    public interface WaitClient {
    }

    @Protocol("^(WaitClient)")
    public interface WaitServer {
    }

    @Protocol("cbegin.![!<BinTree>.?(BinTree)]*")
    public interface TreeClient {
    }

    @Protocol("^(TreeClient)")
    public interface TreeServer {
    }

    @Protocol("cbegin.![!<int>]*")
    public interface IntStream {
    }

    /** A body of the n-Body demo as a flat record: travels field by field (docs/wire-format.md). */
    public record Particle(double x, double y, double z, double mass) {
    }

    /** The same four doubles as a mutable bean: travels as Jackson Smile. */
    public static final class ParticleBean {
        public double x;
        public double y;
        public double z;
        public double mass;
    }

    @Protocol("cbegin.![!<Particle[]>.?(Particle[])]*")
    public interface ParticlesClient {
    }

    @Protocol("^(ParticlesClient)")
    public interface ParticlesServer {
    }

    @Protocol("cbegin.![!<ParticleBean[]>.?(ParticleBean[])]*")
    public interface BeansClient {
    }

    @Protocol("^(BeansClient)")
    public interface BeansServer {
    }

    @Protocol("cbegin.![!<double[]>.?(double[])]*")
    public interface DoublesClient {
    }

    @Protocol("^(DoublesClient)")
    public interface DoublesServer {
    }
}
