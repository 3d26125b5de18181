package org.sessionj.examples.tally;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * hostile18 H13: a tally client that adds as fast as its socket takes the frames and never reads a total.
 * Before, the one server thread's send to it blocked every other client (20 s on the event loops, for
 * ever with blocking sockets), and the failure it finally got left the demo's loop and ended the server
 * with every honest session. Now the selector's send bound fails that one session and the demo serves on.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TallyFloodTest {
    private static final Executor VIRTUAL = r -> Thread.ofVirtual().start(r);
    private static final String CLIENT_TYPE = "cbegin.rec X[!{ADD: !<int>.?(int).#X, QUIT: }]";

    @ParameterizedTest(name = "tcp io {0}")
    @ValueSource(strings = {"eventloop", "blocking"})
    void aClientThatNeverReadsItsTotalsFailsAloneAndTheOthersAreServed(String io) throws Exception {
        SJRuntime runtime;
        String before = System.getProperty("sessionj.tcp.io");
        System.setProperty("sessionj.tcp.io", io); // read as the runtime makes its TcpTransport
        try {
            runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        } finally {
            if (before == null) {
                System.clearProperty("sessionj.tcp.io");
            } else {
                System.setProperty("sessionj.tcp.io", before);
            }
        }
        try (SJServerSocket server = runtime.serverSocket(TallyProtocols.TallyService.class, 0)) {
            CompletableFuture<Long> total = CompletableFuture.supplyAsync(() -> TallyServer.serve(server, 3), VIRTUAL);
            // The server's word that a session failed (its WARNING): the honest clients go on until then.
            AtomicBoolean dropped = new AtomicBoolean();
            java.util.logging.Logger serverLog = java.util.logging.Logger.getLogger(TallyServer.class.getName());
            java.util.logging.Handler watch = new java.util.logging.Handler() {
                @Override
                public void publish(java.util.logging.LogRecord record) {
                    if (record.getLevel() == java.util.logging.Level.WARNING) {
                        dropped.set(true);
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
            serverLog.addHandler(watch);
            AtomicBoolean flooderCut = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(1);
            Thread flooder;
            try (Socket raw = new Socket()) {
                raw.setReceiveBufferSize(4096); // before connect: the window stays small
                raw.connect(new InetSocketAddress("localhost", server.port()), 10_000);
                raw.setSoTimeout(10_000);
                hello(raw);
                flooder = Thread.ofPlatform().start(() -> flood(raw, started, flooderCut));
                List<CompletableFuture<Long>> honest = new ArrayList<>();
                for (int c = 0; c < 2; c++) {
                    SJService service = runtime.service(TallyProtocols.TallyClient.class, "localhost", server.port());
                    honest.add(CompletableFuture.supplyAsync(() -> addUntilCut(service, dropped), VIRTUAL));
                }
                assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
                for (CompletableFuture<Long> client : honest) {
                    long longestWaitMillis;
                    try {
                        longestWaitMillis = client.get(60, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        Thread.getAllStackTraces().forEach((t, stack) -> {
                            System.out.println("TallyFloodTest: an honest client did not finish; " + t);
                            for (StackTraceElement frame : stack) {
                                System.out.println("    at " + frame);
                            }
                        });
                        throw e;
                    }
                    System.out.println("TallyFloodTest (" + io + "): an honest client's longest wait for a total: "
                            + longestWaitMillis + " ms");
                }
                assertThat(total.get(30, TimeUnit.SECONDS)).as("the server thread served on").isPositive();
                System.out.println("TallyFloodTest (" + io + "): the flooder's socket was closed by the server before"
                        + " the end: " + flooderCut.get());
            } finally {
                serverLog.removeHandler(watch);
            }
            flooder.join(30_000);
        }
    }

    /** The raw client's request: the SJ HELLO with the client's type, then the server's 5-byte answer. */
    private static void hello(Socket raw) throws IOException {
        byte[] type = CLIENT_TYPE.getBytes(StandardCharsets.UTF_8);
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        out.writeInt(4 + 4 + type.length);
        out.write(new byte[] {0x40, 'S', 'J', 2});
        out.writeInt(type.length);
        out.write(type);
        out.flush();
        new DataInputStream(raw.getInputStream()).readFully(new byte[5]);
    }

    /** Sends ADD and 1 as fast as the socket takes them, never reading a total, until the server cuts it off. */
    private static void flood(Socket raw, CountDownLatch started, AtomicBoolean cut) {
        ByteBuffer chunk = ByteBuffer.allocate(1000 * 15);
        for (int i = 0; i < 1000; i++) {
            chunk.putInt(11).put((byte) 0x30).putShort((short) 3).put("ADD".getBytes(StandardCharsets.US_ASCII))
                    .put((byte) 0x01).putInt(1);
        }
        byte[] bytes = chunk.array();
        try {
            OutputStream out = raw.getOutputStream();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < end) {
                out.write(bytes);
                started.countDown();
            }
        } catch (IOException e) {
            cut.set(true); // the server closed its end: the session failed
        } finally {
            started.countDown();
        }
    }

    /** An honest client: adds 1 round after round until the server dropped a session, then 20 more; its longest wait. */
    private static long addUntilCut(@Session(protocol = TallyProtocols.TallyClient.class) SJService service,
                                    AtomicBoolean cut) {
        AtomicLong longest = new AtomicLong();
        int after = 20;
        try (SJSocket s = service.request()) {
            while (after > 0) {
                long start = System.nanoTime();
                s.outbranch("ADD");
                s.send(1);
                s.receiveInt();
                longest.accumulateAndGet((System.nanoTime() - start) / 1_000_000, Math::max);
                if (cut.get()) {
                    after--;
                }
            }
            s.outbranch("QUIT");
        }
        return longest.get();
    }
}
