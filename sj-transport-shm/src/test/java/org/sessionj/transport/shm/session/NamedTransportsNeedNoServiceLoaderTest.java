package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.transport.shm.session.TestProtocols.IntClient;
import org.sessionj.transport.shm.session.TestProtocols.IntServer;

/**
 * A runtime that names SJ's own transports makes them by class name, without the service loader
 * (issue 15, cold start: a fresh JVM's first service look-up opens and indexes every jar on the class
 * path), and a transport that is not SJ's own is still found through its service file.
 */
class NamedTransportsNeedNoServiceLoaderTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFirstSessionOverANamedBuiltInTransportLoadsNoServiceLoader() throws Exception {
        assertNoServiceLoaderIn(NoNettyBuffersInJvmTest.FirstSession.class.getName());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theStaticApiWithTransportsNamedBySystemPropertyLoadsNoServiceLoaderEither() throws Exception {
        assertNoServiceLoaderIn("-Dsessionj.transports=shm", StaticFirstSession.class.getName());
    }

    /** Runs {@code args} (JVM options, then the main class) in a fresh JVM and reads its class-load log. */
    private static void assertNoServiceLoaderIn(String... args) throws Exception {
        FirstSessionLog.Run run = FirstSessionLog.run(args);
        assertThat(run.done()).as("the child's session ended; its other output:%n%s", run.otherOutput()).isTrue();
        assertThat(run.exitValue()).isZero();
        assertThat(run.loaded("org.sessionj.transport.shm.ShmTransport"))
                .as("the class-load log is read, and names the in-JVM transport").isTrue();
        assertThat(run.loadedStartingWith("java.util.ServiceLoader")).as("service loader classes loaded by the first session")
                .isEmpty();
    }

    /** A child: one in-JVM session through the API's static factories (the global runtime), then DONE. */
    static final class StaticFirstSession {
        private StaticFirstSession() {
        }

        public static void main(String[] args) throws Exception {
            try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
                FirstSessionLog.oneSession(server, SJService.create(IntClient.class, "localhost", server.port()));
            }
            FirstSessionLog.done();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aTransportThatIsNotBuiltInIsStillFoundByItsServiceFile() throws Exception {
        int before = CountingTransport.REQUESTER_ENDS.size();
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("counting").build());
        try (SJServerSocket server = runtime.serverSocket(IntServer.class, 0)) {
            Thread accepter = Thread.ofPlatform().start(() -> {
                try (SJSocket s = server.accept()) {
                    s.send(s.receiveInt() + 1);
                }
            });
            try (SJSocket s = runtime.service(IntClient.class, "localhost", server.port()).request()) {
                s.send(1);
                assertThat(s.receiveInt()).isEqualTo(2);
            }
            accepter.join();
        }
        assertThat(CountingTransport.REQUESTER_ENDS.size()).as("the session ran over the counting transport")
                .isEqualTo(before + 1);
    }
}
