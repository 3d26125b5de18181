package org.sessionj.transport.http.real;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real firewall (scripts/http-firewall.sh: network namespaces sjhttp-*, 10.201.0.0/24, nftables):
 * the client's namespace may only reach ports 80/443 of the relay. The same client program reaches
 * the server in another namespace through the relay (its tcp connect is dropped and it falls back
 * within the setup attempt bound), and directly over tcp once the firewall is lifted. Needs root; run
 * with {@code ./mvnw -Phttp-real -pl sj-transport-http -am verify}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FirewallRealTest {
    private static final String RELAY = "10.201.0.3";
    private static final String SERVER = "10.201.0.4";
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void up() throws Exception {
        Scripts.run("http-firewall.sh", "up");
    }

    @AfterEach
    void down() throws Exception {
        for (Process process : processes) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Scripts.run("http-firewall.sh", "down");
    }

    private Process peer(String namespace, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", Scripts.ROOT.resolve("scripts/http-firewall.sh").toString(),
                "run", namespace, Scripts.java(), "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC",
                "-Dsessionj.http.relay=" + RELAY + ":80", "-cp", System.getProperty("java.class.path"),
                FirewallPeers.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        processes.add(process);
        return process;
    }

    private static String awaitLine(Process process, String prefix) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' from the process; it said:\n" + seen);
    }

    private String runClient() throws Exception {
        Process client = peer("client", "client", SERVER, "4000");
        String line = awaitLine(client, "transport=");
        System.out.println("firewall test client: " + line);
        assertThat(client.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(client.exitValue()).isZero();
        return line;
    }

    @Test
    void behindTheFirewallTheClientGoesThroughTheRelayAndDirectlyOnceItIsLifted() throws Exception {
        awaitLine(peer("relay", "relay", RELAY, "80"), "relay ready");
        awaitLine(peer("server", "server", "4000"), "server ready");

        String blocked = runClient();
        assertThat(blocked).startsWith("transport=http ").endsWith("echo: through");
        Matcher setup = Pattern.compile("setupMillis=(\\d+)").matcher(blocked);
        assertThat(setup.find()).isTrue();
        // tcp's connect is dropped: it gives way after sessionj.setupAttemptTimeout (3 s), then the relay.
        assertThat(Long.parseLong(setup.group(1))).isBetween(2_500L, 15_000L);

        Scripts.run("http-firewall.sh", "lift");
        assertThat(runClient()).startsWith("transport=tcp ").endsWith("echo: through");

        Scripts.run("http-firewall.sh", "block");
        assertThat(runClient()).startsWith("transport=http ");
    }
}
