package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xlog:class+load=info:stdout",
                "-Dsessionj.missingDescriptor=ignore", "-cp", System.getProperty("java.class.path")));
        command.addAll(command.size() - 2, List.of(args).subList(0, args.length - 1));
        command.add(args[args.length - 1]);
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> serviceLoader = new ArrayList<>();
        boolean done = false;
        boolean shm = false;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals(NoNettyBuffersInJvmTest.FirstSession.DONE)) {
                    done = true;
                } else if (!done && line.contains(" org.sessionj.transport.shm.ShmTransport ")) {
                    shm = true;
                } else if (!done && line.contains(" java.util.ServiceLoader")) {
                    serviceLoader.add(line);
                }
            }
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(done).as("the child's session ended").isTrue();
        assertThat(child.exitValue()).isZero();
        assertThat(shm).as("the class-load log is read, and names the in-JVM transport").isTrue();
        assertThat(serviceLoader).as("service loader classes loaded by the first session").isEmpty();
    }

    /** A child: one in-JVM session through the API's static factories (the global runtime), then DONE. */
    static final class StaticFirstSession {
        private StaticFirstSession() {
        }

        public static void main(String[] args) throws Exception {
            try (SJServerSocket server = SJServerSocket.create(IntServer.class, 0)) {
                Thread accepter = Thread.ofPlatform().start(() -> {
                    try (SJSocket s = server.accept()) {
                        s.send(s.receiveInt() + 1);
                    }
                });
                try (SJSocket s = SJService.create(IntClient.class, "localhost", server.port()).request()) {
                    s.send(1);
                    if (s.receiveInt() != 2) {
                        throw new IllegalStateException("wrong answer");
                    }
                }
                accepter.join();
            }
            System.out.println(NoNettyBuffersInJvmTest.FirstSession.DONE);
            System.out.flush();
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
