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

    @Protocol("cbegin.![!<BinTree>.?(BinTree)]*")
    public interface TreeClient {
    }

    @Protocol("^(TreeClient)")
    public interface TreeServer {
    }

    @Protocol("cbegin.![!<int>]*")
    public interface IntStream {
    }
}
