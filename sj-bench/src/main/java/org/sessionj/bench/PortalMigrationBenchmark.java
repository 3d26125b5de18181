package org.sessionj.bench;

import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sessionj.api.SJService;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.examples.portal.AppletToPortal;
import org.sessionj.examples.portal.FrontEnd;
import org.sessionj.examples.portal.Mail;
import org.sessionj.examples.portal.Portal;
import org.sessionj.examples.portal.PortalSettings;
import org.sessionj.examples.portal.WebmailServer;

/**
 * Paper 000 §6.2's setting with the real Portal application: the front end's time for a whole webmail
 * session of {@code exchanges} exchanges with the webmail server ({@code read 1} → a {@link Mail}),
 * when the portal forwards every message ({@code forward}, the control case) and when it delegates the
 * session to the webmail server ({@code delegate}: the delegation and the reconnection are inside the
 * measured time). Every party has a runtime of its own on loopback; the front end reaches the portal
 * over {@code tcp} or over {@code http} (to the portal's HTTP port, WebSocket link), so a delegated
 * session migrates tcp → tcp or http → tcp, while a forwarded one stays on the front end's transport
 * to the portal (and tcp from the portal to the server).
 *
 * <pre>
 * ./mvnw -q -pl sj-bench -am package -DskipTests
 * java -jar sj-bench/target/benchmarks.jar PortalMigrationBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class PortalMigrationBenchmark {
    @Param("1000")
    int exchanges;

    /** How the front end reaches the portal: {@code tcp}, or {@code http} to the portal's HTTP port. */
    @Param({"tcp", "http"})
    String frontEnd;

    private WebmailServer webmail;
    private Portal forwarding;
    private Portal delegating;
    private SJService viaForwarding;
    private SJService viaDelegating;
    private java.util.List<String> commands;

    @Setup
    public void start() {
        webmail = WebmailServer.start(PartyRuntimes.create("tcp", false), 0, 0);
        webmail.deliver(new Mail("bench", "user", "subject", "a short body of text"));
        boolean http = frontEnd.equals("http");
        forwarding = Portal.start(PartyRuntimes.create("tcp", false),
                new PortalSettings(0, "localhost", webmail.port(), webmail.directPort(), "localhost", 1, true, http ? 0 : -1));
        delegating = Portal.start(PartyRuntimes.create("tcp", false),
                new PortalSettings(0, "localhost", webmail.port(), webmail.directPort(), "localhost", 1, false, http ? 0 : -1));
        var runtime = PartyRuntimes.forParty(frontEnd, false);
        viaForwarding = runtime.service(AppletToPortal.class, "localhost", http ? forwarding.httpPort() : forwarding.port(),
                PartyRuntimes.towards(frontEnd));
        viaDelegating = runtime.service(AppletToPortal.class, "localhost", http ? delegating.httpPort() : delegating.port(),
                PartyRuntimes.towards(frontEnd));
        commands = Collections.nCopies(exchanges, "read 1");
    }

    @TearDown
    public void stop() {
        forwarding.close();
        delegating.close();
        webmail.close();
    }

    @Benchmark
    public int forward() {
        return session(viaForwarding);
    }

    @Benchmark
    public int delegate() {
        return session(viaDelegating);
    }

    private int session(SJService portal) {
        int[] lines = new int[1];
        FrontEnd.webmail(portal, "user", commands.iterator(), line -> lines[0]++);
        if (lines[0] != exchanges + 1) {
            throw new IllegalStateException("expected " + (exchanges + 1) + " lines, got " + lines[0]);
        }
        return lines[0];
    }
}
