package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import picocli.CommandLine;

/** {@code ./sj relay}: bad arguments are refused; a relay started as its own process carries a session. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RelayCommandTest {

    /** One int there and back. */
    @Protocol("cbegin.!<int>.?(int)")
    public interface Ping {
    }

    /** The dual of {@link Ping}. */
    @Protocol("^(Ping)")
    public interface Pong {
    }

    private static int run(StringWriter err, String... args) {
        CommandLine cli = SjCommand.commandLine();
        cli.setErr(new PrintWriter(err));
        cli.setOut(new PrintWriter(new StringWriter()));
        return SjCommand.execute(cli, args);
    }

    @Test
    void badArgumentsAreRefusedWithAReason() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "relay", "--port", "70000")).isEqualTo(2);
        assertThat(err.toString()).contains("--port must be 0..65535");
        err = new StringWriter();
        assertThat(run(err, "relay", "--port", "0", "--cert", "a.pem", "--key", "b.pem")).isEqualTo(2);
        assertThat(err.toString()).contains("need --tls");
        err = new StringWriter();
        assertThat(run(err, "relay", "--port", "0", "--cert", "a.pem")).isEqualTo(2);
        assertThat(err.toString()).contains("go together");
        err = new StringWriter();
        assertThat(run(err, "relay", "--port", "0", "--max-tls-handshakes", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--max-tls-handshakes must be positive, found 0");
        err = new StringWriter();
        assertThat(run(err, "relay", "--port", "0", "--listen-key", "no-such.keys")).isEqualTo(2);
        assertThat(err.toString()).contains("--listen-key no-such.keys: no such file");
    }

    /**
     * Started with {@code --listen-key}, so that the key's whole path is covered too: the relay reads the
     * file, says servers need it, and the server proves it from {@code sessionj.http.relayKeyFile}.
     */
    @Test
    void aRelayProcessCarriesASessionBetweenTwoRuntimes(@TempDir Path dir) throws Exception {
        Path keyFile = Files.writeString(dir.resolve("relay.keys"), "0123456789abcdef0123456789abcdef\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process relay = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), SjCommand.class.getName(), "relay", "--port", "0",
                "--bind", "127.0.0.1", "--listen-key", keyFile.toString())).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
            Pattern listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
            int port = -1;
            String line;
            String announcement = null;
            while (port < 0 && (line = out.readLine()) != null) {
                Matcher m = listening.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                    announcement = line;
                }
            }
            assertThat(port).as("the relay said where it listens").isPositive();
            assertThat(announcement).as("only once it has answered a request through its port")
                    .containsPattern("\\(answered its own request in \\d+ ms\\)$");
            String keyed = out.readLine();
            while (keyed != null && !keyed.startsWith("sj relay: ")) {
                keyed = out.readLine(); // a log line of the relay's start in between
            }
            assertThat(keyed).isEqualTo("sj relay: servers register with a key of " + keyFile
                    + " (-Dsessionj.http.relayKeyFile on the servers)");
            System.setProperty("sessionj.http.relay", "127.0.0.1:" + port);
            System.setProperty("sessionj.http.relayKeyFile", keyFile.toString());
            try {
                SJRuntime.configure(SJRuntimeConfig.builder().transports("http")
                        .initiationTimeout(Duration.ofSeconds(20)).build());
                try (SJServerSocket server = SJServerSocket.create(Pong.class, 0)) {
                    CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                        try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                            s.send(s.receiveInt() + 1);
                        }
                    });
                    try (SJSocket s = SJService.create(Ping.class, "127.0.0.1", server.port()).request()) {
                        s.send(41);
                        assertThat(s.receiveInt()).isEqualTo(42);
                    }
                    served.get(20, TimeUnit.SECONDS);
                }
            } finally {
                System.clearProperty("sessionj.http.relay");
                System.clearProperty("sessionj.http.relayKeyFile");
                SJRuntime.configure(SJRuntimeConfig.defaults());
            }
        } finally {
            relay.destroy();
            assertThat(relay.waitFor(20, TimeUnit.SECONDS)).as("the relay stops on SIGTERM").isTrue();
        }
    }
}
