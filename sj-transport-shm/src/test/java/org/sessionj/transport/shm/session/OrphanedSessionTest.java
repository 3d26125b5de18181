package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.FutureTask;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJ;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJThread;
import org.sessionj.transport.shm.session.Peers.Threads;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * In-JVM sessions: a peer whose thread ended without closing its socket fails the waiting side within
 * {@code sessionj.shm.orphanTimeout}; a socket that waits in accept()'s queue, or moves to another
 * thread (by hand or by {@code SJ.spawn}), is not taken for orphaned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrphanedSessionTest {
    private static final String PROPERTY = "sessionj.shm.orphanTimeout";
    private String old;

    @BeforeEach
    void shortOrphanTimeout() {
        old = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, "300ms");
    }

    @AfterEach
    void restore() {
        if (old == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, old);
        }
    }

    @Test
    void aReceiverWhosePeerThreadEndedWithoutClosingGetsAClearExceptionWithinTheBound() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            FutureTask<Integer> careless = Peers.start(Threads.PLATFORM, () -> {
                SJSocket s = server.accept();
                return s.receiveInt(); // and the thread ends, the socket neither answered nor closed
            });
            Thread.currentThread().setName("client");
            SJSocket client = SJService.create(IntClient.class, "localhost", server.port()).request();
            client.send(41);
            assertThat(Peers.join(careless)).isEqualTo(41);
            long started = System.nanoTime();
            Throwable failure = null;
            try {
                client.receiveInt();
            } catch (SJIOException e) {
                failure = e;
            }
            long waited = System.nanoTime() - started;
            assertThat(failure).isNotNull().hasMessageContaining("orphaned").hasMessageContaining("ended without closing it")
                    .hasMessageContaining("?(int)").hasMessageContaining("sessionj.shm.orphanTimeout");
            assertThat(waited).as("within the orphan timeout, give or take scheduling")
                    .isLessThan(TimeUnit.SECONDS.toNanos(10));
            client.close();
        }
    }

    @Test
    void aSessionAcceptedLongAfterItsHandshakeAndHandedToAnotherThreadIsNotTakenForOrphaned() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            SynchronousQueue<SJSocket> handOver = new SynchronousQueue<>();
            FutureTask<Integer> worker = Peers.start(Threads.VIRTUAL, () -> {
                SJSocket s = handOver.take();
                TimeUnit.MILLISECONDS.sleep(200); // acts a while after the accepting thread ended (within the grace)
                int value = s.receiveInt();
                s.send(value + 1);
                s.close();
                return value;
            });
            FutureTask<SJSocket> client = Peers.start(Threads.VIRTUAL, () -> {
                SJSocket s = SJService.create(IntClient.class, "localhost", server.port()).request();
                s.send(1);
                return s;
            });
            SJSocket requester = Peers.join(client);
            // The handshake's thread has ended; the session waits in accept()'s queue for longer than
            // the orphan timeout before a program thread takes it. Not synchronisation: the gap itself
            // is what is tested.
            TimeUnit.MILLISECONDS.sleep(800);
            FutureTask<Void> accepting = Peers.start(Threads.PLATFORM, () -> {
                handOver.put(server.accept());
                return null; // this thread ends before the worker first acts
            });
            Peers.join(accepting);
            assertThat(requester.receiveInt()).isEqualTo(2);
            requester.close();
            assertThat(Peers.join(worker)).isEqualTo(1);
        }
    }

    @Test
    void aSessionSpawnedByAThreadThatThenEndsIsNotTakenForOrphanedBeforeItsBodyActs() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
            FutureTask<SJThread> spawner = Peers.start(Threads.PLATFORM, () -> {
                SJSocket s = server.accept();
                int value = s.receiveInt(); // this thread acts on the session, then hands it over and ends
                return SJ.spawn(s, worker -> {
                    // Acts only well after the spawner ended (longer than the orphan timeout). Not
                    // synchronisation: the gap itself is what is tested.
                    TimeUnit.MILLISECONDS.sleep(800);
                    worker.send(value + 1);
                });
            });
            SJSocket client = SJService.create(IntClient.class, "localhost", server.port()).request();
            client.send(41);
            SJThread body = Peers.join(spawner);
            assertThat(client.receiveInt()).isEqualTo(42);
            client.close();
            body.join();
        }
    }
}
