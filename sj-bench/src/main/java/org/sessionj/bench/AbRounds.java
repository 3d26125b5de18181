package org.sessionj.bench;

import io.netty.buffer.ByteBuf;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.bench.BenchProtocols.OnceClient;
import org.sessionj.bench.BenchProtocols.OnceServer;
import org.sessionj.bench.BenchProtocols.PingClient;
import org.sessionj.bench.BenchProtocols.PingServer;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.transport.tcp.TcpTransport;

/**
 * The round trips {@link JarAb} times, one instance per jar (class loader): an in-JVM session driven
 * from one thread at both ends, an in-JVM session and a bare hand-off between two virtual threads, and
 * (made when first asked for) an SJ session over TCP with {@code sessionj.tcp.io=blocking} and
 * {@code java.net.Socket} with data streams, each with an echo on a platform thread of its own.
 */
public final class AbRounds {
    private final SJSocket requester;
    private final SJSocket accepter;
    private final SJSocket virtualRequester;
    private final ParkingSpscChannel there = new ParkingSpscChannel();
    private final ParkingSpscChannel back = new ParkingSpscChannel();
    private int next;
    private SJSocket tcpRequester;
    private SJSocket tcpLoopRequester;
    private SJService tcpLoopOnce;
    private EchoConnections tcpConnections;
    private DataInputStream socketIn;
    private DataOutputStream socketOut;

    /** Opens the sessions and starts the echoes (daemon virtual threads). */
    public AbRounds() {
        // Between chunks the requester's end has no live thread (each chunk runs on a new one).
        System.setProperty("sessionj.shm.orphanTimeout", "10m");
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").monitor(true).build());
        SJServerSocket server = runtime.serverSocket(PingServer.class, 0);
        CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(server::accept);
        requester = runtime.service(PingClient.class, "localhost", server.port()).request();
        accepter = accepted.join();
        SJServerSocket echoServer = runtime.serverSocket(PingServer.class, 0);
        Thread.ofVirtual().start(() -> {
            try (SJSocket s = echoServer.accept()) {
                while (s.inwhile()) {
                    s.send(s.receiveInt() + 1);
                }
            }
        });
        virtualRequester = runtime.service(PingClient.class, "localhost", echoServer.port()).request();
        Thread.ofVirtual().start(() -> {
            while (true) {
                back.offer((Integer) there.take() + 1);
            }
        });
    }

    /**
     * {@code n} round trips, one thread driving both ends.
     *
     * @param n round trips
     * @return a sum of the replies (kept from dead-code elimination)
     */
    public int path(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            requester.outwhile(true);
            requester.send(next++ & 0xffff);
            accepter.inwhile();
            accepter.send(accepter.receiveInt() + 1);
            sum += requester.receiveInt();
        }
        return sum;
    }

    /**
     * {@code n} session round trips from a new virtual thread to the echo's.
     *
     * @param n round trips
     * @return a sum of the replies
     * @throws InterruptedException if interrupted while waiting for the rounds
     */
    public int virtualSession(int n) throws InterruptedException {
        int[] sum = new int[1];
        Thread.ofVirtual().start(() -> {
            int s = 0;
            for (int i = 0; i < n; i++) {
                virtualRequester.outwhile(true);
                virtualRequester.send(next++ & 0xffff);
                s += virtualRequester.receiveInt();
            }
            sum[0] = s;
        }).join();
        return sum[0];
    }

    /**
     * {@code n} round trips of an SJ session over TCP loopback with blocking sockets
     * ({@code sessionj.tcp.io=blocking}), from the calling thread to an echo on a platform thread.
     *
     * @param n round trips
     * @return a sum of the replies
     */
    public int tcpSession(int n) {
        if (tcpRequester == null) {
            System.setProperty("sessionj.tcp.io", "blocking"); // read as the runtime makes its TcpTransport
            tcpRequester = new EchoSession(SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build()),
                    "ab-tcp-echo").socket;
        }
        int sum = 0;
        for (int i = 0; i < n; i++) {
            tcpRequester.outwhile(true);
            tcpRequester.send(next++ & 0xffff);
            sum += tcpRequester.receiveInt();
        }
        return sum;
    }

    /**
     * {@code n} round trips of an SJ session over TCP loopback on the event loops ({@code sessionj.tcp.io=eventloop},
     * the default; {@code TcpPingPongBenchmark.sjTcpSession}), from the calling thread to an echo on a platform thread.
     *
     * @param n round trips
     * @return a sum of the replies
     */
    public int tcpLoopSession(int n) {
        if (tcpLoopRequester == null) {
            System.setProperty("sessionj.tcp.io", "eventloop"); // read as the runtime makes its TcpTransport
            tcpLoopRequester = new EchoSession(SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build()),
                    "ab-tcp-loop-echo").socket;
        }
        int sum = 0;
        for (int i = 0; i < n; i++) {
            tcpLoopRequester.outwhile(true);
            tcpLoopRequester.send(next++ & 0xffff);
            sum += tcpLoopRequester.receiveInt();
        }
        return sum;
    }

    /**
     * {@code n} whole sessions over TCP loopback on the event loops ({@code SessionSetupBenchmark.wholeSession}: request,
     * one int each way, close at both ends), from the calling thread to an accepter on a platform thread: what a
     * session's set-up and close cost, the connection's close included.
     *
     * @param n sessions
     * @return a sum of the replies
     */
    public int tcpLoopSetup(int n) {
        if (tcpLoopOnce == null) {
            System.setProperty("sessionj.tcp.io", "eventloop"); // read as the runtime makes its TcpTransport
            SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
            SJServerSocket server = runtime.serverSocket(OnceServer.class, 0);
            SessionSetupBenchmark.startAccepter(server, "ab-tcp-setup-accepter");
            tcpLoopOnce = runtime.service(OnceClient.class, "127.0.0.1", server.port());
        }
        int sum = 0;
        for (int i = 0; i < n; i++) {
            try (SJSocket s = tcpLoopOnce.request()) {
                s.send(next++ & 0xffff);
                sum += s.receiveInt();
            }
        }
        return sum;
    }

    /**
     * {@code n} round trips of a 4-byte frame over the tcp transport's bare {@link Connection} with
     * blocking sockets ({@code TcpPingPongBenchmark.sjTcpConnection}, {@code io=blocking}), from the calling
     * thread to an echo on a platform thread: the connection's share of {@link #tcpSession}'s cost.
     *
     * @param n round trips
     * @return a sum of the replies
     */
    public int tcpConnection(int n) {
        try {
            if (tcpConnections == null) {
                System.setProperty("sessionj.tcp.io", "blocking"); // read as the transport is made
                tcpConnections = new EchoConnections(new TcpTransport(), "127.0.0.1", "ab-connection-echo");
            }
            Connection client = tcpConnections.client;
            int sum = 0;
            for (int i = 0; i < n; i++) {
                client.write(client.alloc().buffer(4).writeInt(next++));
                client.flush();
                ByteBuf pong = client.read(-1);
                sum += pong.readInt();
                pong.release();
            }
            return sum;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code n} round trips of an {@code int} over {@code java.net.Socket} with buffered data streams
     * ({@code TcpPingPongBenchmark.socketDataStreams}), from the calling thread to an echo on a platform
     * thread.
     *
     * @param n round trips
     * @return a sum of the replies
     */
    public int tcpSocket(int n) {
        try {
            if (socketIn == null) {
                openSocket();
            }
            int sum = 0;
            for (int i = 0; i < n; i++) {
                socketOut.writeInt(next++);
                socketOut.flush();
                sum += socketIn.readInt();
            }
            return sum;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void openSocket() throws IOException {
        ServerSocket listener = new ServerSocket(0);
        Socket client = new Socket("127.0.0.1", listener.getLocalPort());
        client.setTcpNoDelay(true);
        Socket server = listener.accept();
        server.setTcpNoDelay(true);
        listener.close();
        socketIn = new DataInputStream(new BufferedInputStream(client.getInputStream()));
        socketOut = new DataOutputStream(new BufferedOutputStream(client.getOutputStream()));
        Thread.ofPlatform().daemon().name("ab-socket-echo").start(() -> {
            try (server) {
                DataInputStream in = new DataInputStream(new BufferedInputStream(server.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(server.getOutputStream()));
                while (true) {
                    out.writeInt(in.readInt());
                    out.flush();
                }
            } catch (IOException closed) {
                // the JVM is ending
            }
        });
    }

    /**
     * {@code n} bare hand-off round trips from a new virtual thread to the echo's.
     *
     * @param n round trips
     * @return a sum of the replies
     * @throws InterruptedException if interrupted while waiting for the rounds
     */
    public int virtualBare(int n) throws InterruptedException {
        int[] sum = new int[1];
        Thread.ofVirtual().start(() -> {
            int s = 0;
            for (int i = 0; i < n; i++) {
                there.offer(next++ & 0xffff);
                s += (Integer) back.take();
            }
            sum[0] = s;
        }).join();
        return sum[0];
    }
}
