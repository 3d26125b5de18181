package org.sessionj.transport.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;

/** The JVM's one doorbell thread: it serves many connections, and one connection's failure is its own. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IpcDoorbellsTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** Threads the JDK may start on the side (pollers, carriers of the set-up virtual threads). */
    private static final int SIDE_THREADS = 8;

    @TempDir
    Path sockets;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private IpcTransport transport(int spins) {
        return new IpcTransport(IpcSettings.fromSystemProperties().withSocketDirectory(sockets)
                .withRingBytes(IpcSettings.MIN_RING).withSpins(spins).withYields(spins == 0 ? 0 : 20)
                .withSpinMicros(spins == 0 ? 0 : 100));
    }

    /** [0] the requester's end, [1] the accepter's. */
    private Connection[] pair(IpcTransport transport, ConnectionAcceptor acceptor) throws IOException {
        Connection requester = transport.connect("localhost", acceptor.port(), 10 * SECOND);
        opened.add(requester::close);
        Connection accepter = acceptor.accept(10 * SECOND);
        opened.add(accepter::close);
        return new Connection[] {requester, accepter};
    }

    private static void roundTrip(Connection[] ends, int value) throws IOException {
        ends[0].write(ends[0].alloc().buffer(4).writeInt(value));
        ByteBuf ping = ends[1].read(10 * SECOND);
        assertThat(ping).as("ping %d", value).isNotNull();
        ends[1].write(ping);
        ByteBuf pong = ends[0].read(10 * SECOND);
        assertThat(pong).as("pong %d", value).isNotNull();
        assertThat(pong.readInt()).isEqualTo(value);
        pong.release();
    }

    private static long doorbellThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(Doorbells.THREAD_NAME))
                .count();
    }

    @Test
    void twoHundredConnectionsShareOneDoorbellThreadAndCloseCleanly() throws Exception {
        IpcTransport transport = transport(0); // readers always sleep: every frame goes through the doorbell
        ConnectionAcceptor acceptor = transport.listen(0);
        opened.add(acceptor::close);
        roundTrip(pair(transport, acceptor), -1); // starts the doorbell thread and whatever the JDK starts for sockets
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int threadsBefore = threads.getThreadCount();
        long filesBefore = openFiles();

        int connections = 200;
        List<Connection[]> pairs = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            pairs.add(pair(transport, acceptor));
        }
        int threadsWithAll = threads.getThreadCount();
        for (int i = 0; i < connections; i++) {
            roundTrip(pairs.get(i), i);
        }
        assertThat(threadsWithAll - threadsBefore).as("platform threads started by %d more ipc connections (%d ends)",
                connections, 2 * connections).isLessThanOrEqualTo(SIDE_THREADS);
        assertThat(doorbellThreads()).isEqualTo(1);

        for (Connection[] ends : pairs) {
            ends[0].close();
            assertThatThrownBy(() -> ends[1].read(10 * SECOND)).isInstanceOf(IOException.class)
                    .hasMessageContaining("closed by the peer");
            ends[1].close();
        }
        if (filesBefore >= 0) {
            // A closed socket's descriptor goes once the doorbell thread has dropped its registration.
            long deadline = System.nanoTime() + 10 * SECOND;
            while (openFiles() > filesBefore + SIDE_THREADS && System.nanoTime() < deadline) {
                Thread.yield();
            }
            assertThat(openFiles()).as("open files after closing the connections").isLessThanOrEqualTo(
                    filesBefore + SIDE_THREADS);
        }
        assertThat(doorbellThreads()).isEqualTo(1);
    }

    /** Descriptors of this process (-1 where /proc does not tell). */
    private static long openFiles() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        try (Stream<Path> list = Files.list(fds)) {
            return list.count();
        }
    }

    @Test
    void aListenerThatThrowsCostsNoOtherConnectionItsDoorbell() throws Exception {
        IpcTransport transport = transport(0);
        ConnectionAcceptor acceptor = transport.listen(0);
        opened.add(acceptor::close);
        Connection[] failing = pair(transport, acceptor);
        Connection[] healthy = pair(transport, acceptor);
        CountDownLatch listenerRan = new CountDownLatch(1);
        failing[1].readinessListener(() -> {
            listenerRan.countDown();
            throw new IllegalStateException("a listener that fails (expected by the test)");
        });
        failing[0].write(failing[0].alloc().buffer(4).writeInt(7));
        assertThat(listenerRan.await(10, TimeUnit.SECONDS)).as("the listener ran").isTrue();

        for (int i = 0; i < 100; i++) {
            roundTrip(healthy, i);
        }
        ByteBuf frame = failing[1].read(10 * SECOND);
        assertThat(frame.readInt()).as("the failing listener's own connection still reads").isEqualTo(7);
        frame.release();
        failing[1].readinessListener(null);
        roundTrip(failing, 8);
        assertThat(doorbellThreads()).isEqualTo(1);
    }
}
