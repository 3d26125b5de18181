package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJService;
import org.sessionj.runtime.SJRuntime;

/**
 * The ninth session's hostile-peer finding, reproduced against a server in a peer JVM with default
 * settings and a 256 MiB heap: peers announce frames of 16 MiB (the default maximum), send all but three
 * bytes, then a byte every second. Before the unfinished-frame rules, 14 of them took the JVM's direct
 * memory (event loops) or its heap (blocking tcp, the suite's second run); now the process's budget for
 * unfinished frames (a quarter of 256 MiB) gives the oldest ones up, and a real client is served.
 *
 * <p>Bounds: {@code faults.tricklers} (16), {@code faults.trickleServeBoundMillis} (a real client next to
 * them, default 15,000).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class TrickleFaultTest {
    private static final int TRICKLERS = Integer.getInteger("faults.tricklers", 16);
    private static final long SERVE_BOUND = Long.getLong("faults.trickleServeBoundMillis", 15_000);
    private static final int FRAME = 16 << 20;

    @Test
    void peersTricklingLargeFramesDoNotTakeTheServersMemory() throws Exception {
        SJRuntime runtime = FaultSupport.runtime("tcp");
        try (FaultSupport.Peer peer = FaultSupport.start(List.of(), "tcp", "serve")) {
            int port = peer.port();
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
            FaultSupport.ping(service);
            peer.next("SERVED ");
            long rssBefore = peer.rssKib();
            List<Socket> tricklers = new ArrayList<>();
            int closedByServer = 0;
            long start = System.nanoTime();
            try {
                byte[] body = new byte[1 << 20];
                for (int i = 0; i < TRICKLERS; i++) {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                    tricklers.add(s);
                    try {
                        OutputStream out = s.getOutputStream();
                        out.write(ByteBuffer.allocate(4).putInt(FRAME).array());
                        for (int sent = 0; sent < FRAME - 3; sent += body.length) {
                            out.write(body, 0, Math.min(body.length, FRAME - 3 - sent));
                        }
                        out.flush();
                    } catch (IOException e) {
                        closedByServer++; // given up for a newer frame while it was still sending
                    }
                }
                long sentMillis = FaultSupport.millisSince(start);
                for (int round = 0; round < 3; round++) { // a byte each, now and then: the trickle
                    for (Socket s : tricklers) {
                        try {
                            s.getOutputStream().write(0);
                        } catch (IOException e) {
                            // closed by the server
                        }
                    }
                    Thread.sleep(1000); // the hostile peers' pace, not a synchronisation
                }
                long rssDuring = peer.rssKib();
                long served = System.nanoTime();
                FaultSupport.ping(service);
                long servedMillis = FaultSupport.millisSince(served);
                int open = 0;
                for (Socket s : tricklers) {
                    try {
                        s.getOutputStream().write(0);
                        s.getOutputStream().flush();
                        open++;
                    } catch (IOException e) {
                        // closed by the server
                    }
                }
                System.out.printf("FAULTS %d peers trickling frames of %d bytes (sent in %d ms; %d refused while sending);"
                        + " real client served in %d ms next to them; peer RSS %d -> %d MiB; tricklers' sockets still"
                        + " writable (the kernel may hold a closed one's first write): %d%n", TRICKLERS, FRAME, sentMillis,
                        closedByServer, servedMillis, rssBefore >> 10, rssDuring >> 10, open);
                assertThat(servedMillis).as("a real client next to %d trickling peers", TRICKLERS).isLessThan(SERVE_BOUND);
                assertThat(peer.process.isAlive()).isTrue();
            } finally {
                for (Socket s : tricklers) {
                    s.close();
                }
            }
            FaultSupport.ping(service);
        }
    }
}
