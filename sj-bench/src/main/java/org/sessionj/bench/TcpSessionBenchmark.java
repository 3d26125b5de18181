package org.sessionj.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.BinTree;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.bench.BenchProtocols.TreeClient;
import org.sessionj.bench.BenchProtocols.TreeServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * SJ sessions over TCP loopback against their peers (issue 6, paper 000 §6.1), in one run: an
 * {@code int} round trip (SJ session {@code ![!<int>.?(int)]*} vs raw Netty echo from
 * {@link TcpPingPongBenchmark} vs {@code java.net.Socket} + {@code ObjectOutputStream}, the old
 * TCP-bound SJ, vs Java RMI) and the exchange of a binary tree of depth {@code depth} (SJ vs
 * {@code ObjectOutputStream} vs RMI). Every peer echoes on a thread of its own (RMI on its
 * connection thread); one operation is one round trip inside a long-lived session or connection.
 *
 * <pre>
 * ./mvnw -q -pl sj-bench -am package -DskipTests
 * java -jar sj-bench/target/benchmarks.jar 'TcpSession|TcpPingPong.rawNettyEcho' -f 1 -wi 3 -i 5
 * taskset -c 0 java -jar sj-bench/target/benchmarks.jar 'TcpSession|TcpPingPong.rawNettyEcho' -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TcpSessionBenchmark {

    /** The runtime of both SJ peers: TCP only, so that the in-JVM transport cannot be chosen. */
    static SJRuntime tcpRuntime(boolean monitor) {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").monitor(monitor).build());
    }

    /** An SJ session of {@code ![!<int>.?(int)]*} over TCP, the accepter echoing on its own thread. */
    @State(Scope.Thread)
    public static class SjIntSession {
        @Param({"true", "false"})
        boolean monitor;

        SJServerSocket server;
        Thread echo;
        SJSocket session;
        int next;

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = tcpRuntime(monitor);
            server = runtime.serverSocket(PingServer.class, 0);
            echo = Thread.ofPlatform().daemon().name("sj-echo").start(() -> {
                try (SJSocket s = server.accept()) {
                    while (s.inwhile()) {
                        s.send(s.receiveInt());
                    }
                }
            });
            session = runtime.service(PingClient.class, "127.0.0.1", server.port()).request();
            if (!SJRuntime.transportOf(session).equals("tcp")) {
                throw new IllegalStateException("expected a TCP session, got " + SJRuntime.transportOf(session));
            }
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            session.outwhile(false);
            session.close();
            echo.join(10_000);
            server.close();
        }
    }

    /** An SJ session of {@code ![!<BinTree>.?(BinTree)]*} over TCP; the accepter increments the root. */
    @State(Scope.Thread)
    public static class SjTreeSession {
        @Param({"8"})
        int depth;

        SJServerSocket server;
        Thread echo;
        SJSocket session;
        BinTree tree;

        @Setup(Level.Trial)
        public void open() {
            SJRuntime runtime = tcpRuntime(true);
            server = runtime.serverSocket(TreeServer.class, 0);
            echo = Thread.ofPlatform().daemon().name("sj-tree").start(() -> {
                try (SJSocket s = server.accept()) {
                    while (s.inwhile()) {
                        BinTree t = s.receive();
                        t.value++;
                        s.send(t);
                    }
                }
            });
            session = runtime.service(TreeClient.class, "127.0.0.1", server.port()).request();
            tree = BinTree.of(depth);
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            session.outwhile(false);
            session.close();
            echo.join(10_000);
            server.close();
        }
    }

    /** The old SJ: {@code java.net.Socket} with Java serialization, one object stream each way. */
    @State(Scope.Thread)
    public static class ObjectStreams {
        @Param({"8"})
        int depth;

        ServerSocket listener;
        Socket client;
        ObjectOutputStream out;
        ObjectInputStream in;
        Thread echo;
        BinTree tree;
        int next;

        @Setup(Level.Trial)
        public void open() throws IOException {
            listener = new ServerSocket(0);
            client = new Socket("127.0.0.1", listener.getLocalPort());
            client.setTcpNoDelay(true);
            Socket server = listener.accept();
            server.setTcpNoDelay(true);
            echo = Thread.ofPlatform().daemon().name("oos-echo").start(() -> {
                try (server) {
                    ObjectOutputStream serverOut = new ObjectOutputStream(new BufferedOutputStream(server.getOutputStream()));
                    serverOut.flush();
                    ObjectInputStream serverIn = new ObjectInputStream(new BufferedInputStream(server.getInputStream()));
                    while (true) {
                        Object message = serverIn.readObject();
                        if (message instanceof BinTree t) {
                            t.value++;
                        }
                        serverOut.writeObject(message);
                        serverOut.reset(); // a tree is mutated between sends: no back-references to old copies
                        serverOut.flush();
                    }
                } catch (IOException | ClassNotFoundException closed) {
                    // the benchmark is over
                }
            });
            out = new ObjectOutputStream(new BufferedOutputStream(client.getOutputStream()));
            out.flush();
            in = new ObjectInputStream(new BufferedInputStream(client.getInputStream()));
            tree = BinTree.of(depth);
        }

        Object exchange(Object message) throws IOException, ClassNotFoundException {
            out.writeObject(message);
            out.reset();
            out.flush();
            return in.readObject();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException, InterruptedException {
            client.close();
            echo.join(10_000);
            listener.close();
        }
    }

    /** The Java RMI peer's interface. */
    public interface Echo extends Remote {
        /** Returns {@code value}. */
        int echo(int value) throws RemoteException;

        /** Returns {@code tree} with its root incremented. */
        BinTree exchange(BinTree tree) throws RemoteException;
    }

    /** The RMI peer. */
    static final class EchoImpl implements Echo {
        @Override
        public int echo(int value) {
            return value;
        }

        @Override
        public BinTree exchange(BinTree tree) {
            tree.value++;
            return tree;
        }
    }

    /** Java RMI over TCP loopback: the remote object exported on an anonymous port, its stub used directly. */
    @State(Scope.Thread)
    public static class Rmi {
        @Param({"8"})
        int depth;

        EchoImpl impl;
        Echo stub;
        BinTree tree;
        int next;

        @Setup(Level.Trial)
        public void open() throws RemoteException {
            System.setProperty("java.rmi.server.hostname", "127.0.0.1");
            impl = new EchoImpl();
            stub = (Echo) UnicastRemoteObject.exportObject(impl, 0);
            tree = BinTree.of(depth);
        }

        @TearDown(Level.Trial)
        public void close() throws NoSuchObjectException {
            UnicastRemoteObject.unexportObject(impl, true);
        }
    }

    @Benchmark
    public int intSjSession(SjIntSession s) {
        s.session.outwhile(true);
        s.session.send(s.next++);
        return s.session.receiveInt();
    }

    @Benchmark
    public Object intObjectStreams(ObjectStreams s) throws IOException, ClassNotFoundException {
        return s.exchange(s.next++);
    }

    @Benchmark
    public int intRmi(Rmi s) throws RemoteException {
        return s.stub.echo(s.next++);
    }

    @Benchmark
    public int treeSjSession(SjTreeSession s) {
        s.session.outwhile(true);
        s.session.send(s.tree);
        s.tree = s.session.receive();
        return s.tree.value;
    }

    @Benchmark
    public int treeObjectStreams(ObjectStreams s) throws IOException, ClassNotFoundException {
        s.tree = (BinTree) s.exchange(s.tree);
        return s.tree.value;
    }

    @Benchmark
    public int treeRmi(Rmi s) throws RemoteException {
        s.tree = s.stub.exchange(s.tree);
        return s.tree.value;
    }
}
