package org.sessionj.examples.chat.real;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The chat across a real firewall (scripts/chat-firewall.sh: namespaces sjchat-*, 10.202.0.0/24,
 * nftables): {@code ./sj relay} in sjchat-relay, {@code ./sj chat server --relay} and a client on tcp in
 * sjchat-server, and a client in sjchat-client, which may only reach the relay's port 80. The same
 * client program as the tcp one: its tcp connects are dropped and it gets through the relay — its
 * session with the server, its event stream, and a private conversation the tcp client opens with it.
 * Needs root; run with {@code scripts/chat-real.sh} ({@code ./mvnw -Pchat-real -pl sj-examples -am verify}).
 */
@Tag("chat-real")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ChatFirewallRealTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final String RELAY = "10.202.0.3";
    private static final String SERVER = "10.202.0.4";
    private static final String CLIENT = "10.202.0.2";
    private final List<Party> parties = new ArrayList<>();

    /** A process in a namespace: its standard output as lines, its standard error kept for diagnostics. */
    private static final class Party {
        final Process process;
        final BufferedReader out;
        final PrintWriter in;
        final List<String> lines = new ArrayList<>();
        final StringBuilder err = new StringBuilder();

        Party(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
            Thread.ofVirtual().start(() -> {
                try (BufferedReader e = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = e.readLine()) != null) {
                        synchronized (err) {
                            err.append(line).append('\n');
                        }
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            });
        }

        /** Reads output until a line equal to {@code wanted} (after "LINE " for chat clients). */
        String await(String wanted) throws IOException {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (line.equals(wanted) || line.startsWith(wanted) && !wanted.startsWith("LINE ")) {
                    return line;
                }
            }
            throw new AssertionError("no '" + wanted + "'; output: " + lines + "\nstandard error:\n" + errors());
        }

        /** The chat lines shown so far. */
        List<String> chat() {
            return lines.stream().filter(l -> l.startsWith("LINE ")).map(l -> l.substring(5)).toList();
        }

        String errors() {
            synchronized (err) {
                return err.toString();
            }
        }
    }

    private static void script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("scripts/chat-firewall.sh").toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean done = process.waitFor(180, TimeUnit.SECONDS);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(done && process.exitValue() == 0).as("chat-firewall.sh %s:%n%s", String.join(" ", args), output).isTrue();
    }

    @BeforeEach
    void up() throws Exception {
        script("up");
    }

    @AfterEach
    void down() throws Exception {
        for (Party party : parties) {
            party.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        script("down");
    }

    /** Runs {@code mainClass args} with this test's class path in namespace sjchat-{@code namespace}. */
    private Party start(String namespace, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("scripts/chat-firewall.sh").toString(), "run",
                namespace, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dsessionj.http.relay=" + RELAY + ":80", "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Party party = new Party(new ProcessBuilder(command).start());
        parties.add(party);
        return party;
    }

    @Test
    void aClientBehindTheFirewallChatsThroughTheRelay() throws Exception {
        start("relay", "org.sessionj.cli.SjCommand", "relay", "--port", "80", "--bind", RELAY).await("sj relay: listening");
        start("server", "org.sessionj.cli.SjCommand", "chat", "server", "--port", "4700", "--host", SERVER,
                "--relay", RELAY + ":80").await("chat server on port 4700");
        Party alice = start("server", ScriptedChatClient.class.getName(), "alice", SERVER + ":4700", SERVER);
        alice.await("LINE * joined the chat as alice; nobody else is here");
        Party erin = start("client", ScriptedChatClient.class.getName(), "erin", SERVER + ":4700", CLIENT);
        erin.await("LINE * joined the chat as erin; also here: alice");
        alice.await("LINE * erin joined");

        erin.in.println("hi from behind the firewall");
        erin.await("LINE <erin> hi from behind the firewall");
        alice.await("LINE <erin> hi from behind the firewall");
        alice.in.println("/msg erin psst");                  // erin requests alice's port: through the relay
        erin.await("LINE [alice] psst");
        alice.await("LINE * private conversation with erin open");
        erin.in.println("/msg alice got it");
        alice.await("LINE [erin] got it");
        erin.in.close();                                      // erin quits
        alice.await("LINE * erin left");
        assertThat(erin.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        erin.await("LINE * bye");

        assertThat(erin.chat()).containsExactly(
                "* joined the chat as erin; also here: alice",
                "<erin> hi from behind the firewall",
                "* private conversation with alice open",
                "[alice] psst",
                "[to alice] got it",
                "* bye");
        assertThat(alice.chat()).startsWith(
                "* joined the chat as alice; nobody else is here",
                "* erin joined",
                "<erin> hi from behind the firewall",
                "[to erin] psst",
                "* private conversation with erin open",
                "[erin] got it");
        // the runtime says where each of erin's sessions went: tcp was dropped, the relay took them
        assertThat(erin.errors()).contains("runs over http").contains("could not reach it");
        System.out.println("chat firewall test, erin's log:\n" + erin.errors());
    }
}
