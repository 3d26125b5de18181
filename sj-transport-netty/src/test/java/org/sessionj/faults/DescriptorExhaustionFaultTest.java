package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.SJService;
import org.sessionj.runtime.SJRuntime;

/**
 * A server whose process runs out of file descriptors (peers that open sessions and never close them,
 * until the descriptor limit) serves again once they are back. Before, the first line logged at that
 * moment (Netty's warning that an accept failed with "Too many open files") made the JDK load its
 * time-zone data for the log line's date, with no descriptor to open {@code tzdb.dat}: the time-zone
 * classes stayed broken for the JVM's life, every later line threw {@code NoClassDefFoundError}, and
 * the event loop that accepted the server's connections ended. The server never accepted again. Found
 * by hand (a server at {@code ulimit -n 300}, 400 sessions held open, then closed: every new session
 * then timed out); here the peer JVM uses its descriptors up itself ({@link DescriptorExhaustionPeer}),
 * so that the failed accept is the first line it logs.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DescriptorExhaustionFaultTest {

    @Test
    void aServerThatRanOutOfDescriptorsLogsItAndServesOnceTheyAreBack() throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The limit both soft and hard, so the JVM cannot raise it (it raises the soft one to the hard one).
        List<String> command = new ArrayList<>(List.of("sh", "-c", "ulimit -n 512 && exec \"$@\"", "sh", java,
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "--enable-native-access=ALL-UNNAMED"));
        command.addAll(FaultSupport.inheritedProperties());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DescriptorExhaustionPeer.class.getName()));
        SJRuntime runtime = FaultSupport.runtime("tcp");
        try (FaultSupport.Peer peer = new FaultSupport.Peer(new ProcessBuilder(command).redirectErrorStream(true).start())) {
            int port = peer.port();
            SJService service = runtime.service(FaultProtocols.Ping.class, "localhost", port);
            FaultSupport.ping(service);
            peer.next("SERVED ");
            peer.next("PRELOADED");
            String exhausted = peer.next("EXHAUSTED ");
            // A connection the server cannot accept: no descriptor for it.
            try (Socket refused = new Socket()) {
                refused.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                String logged = peer.next("");
                while (!logged.equals("LOGGED") && !logged.equals("NOT-LOGGED")) {
                    logged = peer.next(""); // the peer's own log lines come first
                }
                assertThat(logged).as("the failed accept was logged (descriptors used up: %s)", exhausted)
                        .isEqualTo("LOGGED");
                peer.next("RELEASED");
            }
            long start = System.nanoTime();
            FaultSupport.ping(service);
            System.out.printf("FAULTS descriptors used up (%s): the failed accept logged; served again %d ms after"
                    + " they came back%n", exhausted, FaultSupport.millisSince(start));
        }
    }
}
