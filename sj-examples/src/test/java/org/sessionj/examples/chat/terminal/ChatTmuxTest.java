package org.sessionj.examples.chat.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the real {@code ./sj chat client} in tmux terminals (send-keys, capture-pane) against a server
 * in another JVM, as a person would. Needs tmux: {@code ./mvnw -Pterminal -pl sj-examples -am verify}
 * installs it ({@code scripts/install-tmux.sh}) and runs this test; the default build leaves it out.
 * The final screens are written to {@code target/chat-transcript.txt}.
 */
@Tag("terminal")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ChatTmuxTest {
    private static final Path SJ = Path.of("..", "sj").toAbsolutePath().normalize();
    private static final long WAIT_MILLIS = 60_000;

    private final String prefix = "sjchat-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private final List<String> sessions = new ArrayList<>();
    private Process server;

    @AfterEach
    void stop() throws Exception {
        for (String session : sessions) {
            tmux("kill-session", "-t", session);
        }
        if (server != null) {
            server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void twoPeopleChatInTerminalsAndSurviveTheServerGoingAway(@TempDir Path dir) throws Exception {
        Path launcher = dir.resolve("sj-with-classpath.sh");
        Files.writeString(launcher, "#!/bin/sh\nSJ_CLASSPATH='" + System.getProperty("java.class.path") + "' exec '" + SJ
                + "' \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));

        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "chat", "server", "--port", "0");
        builder.redirectErrorStream(true);
        server = builder.start();
        BufferedReader serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String first = serverOut.readLine();
        assertThat(first).as("server's first line").startsWith("chat server on port ");
        int port = Integer.parseInt(first.replaceAll("chat server on port (\\d+).*", "$1"));
        Thread.ofVirtual().start(() -> serverOut.lines().forEach(line -> { }));   // keep its pipe drained

        String alice = client(launcher, "alice", port);
        await(alice, "* joined the chat as alice");
        String bob = client(launcher, "bob", port);
        await(bob, "* joined the chat as bob; also here: alice");
        await(alice, "* bob joined");

        type(alice, "hello from alice");
        await(bob, "<alice> hello from alice");
        type(bob, "/msg alice psst, just between us");
        await(alice, "[bob] psst, just between us");
        type(alice, "/msg bob \u001b[31mred?");                       // an escape typed by a user goes out cleaned
        await(bob, "[alice] [31mred?");
        type(alice, "/users");
        await(alice, "* users: alice (you), bob");

        server.destroy();                                           // the server goes away
        await(alice, "! lost the connection to the server");
        await(bob, "! lost the connection to the server");
        type(bob, "/msg alice still there?");                       // private conversations do not need it
        await(alice, "[bob] still there?");

        String transcript = "---- alice ----\n" + screen(alice) + "\n---- bob ----\n" + screen(bob) + "\n";
        Files.writeString(Path.of("target", "chat-transcript.txt"), transcript);
        type(alice, "/quit");
        await(alice, "* bye");
        await(bob, "* private conversation with alice ended: alice left the chat");
    }

    private String client(Path launcher, String name, int port) throws Exception {
        String session = prefix + name;
        tmux("new-session", "-d", "-s", session, "-x", "110", "-y", "40",
                launcher + " chat client --name " + name + " --server localhost:" + port);
        sessions.add(session);
        return session;
    }

    private void type(String session, String text) throws Exception {
        tmux("send-keys", "-t", session, "-l", text);
        tmux("send-keys", "-t", session, "Enter");
    }

    private void await(String session, String text) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        String screen = "";
        while (System.currentTimeMillis() < deadline) {
            screen = screen(session);
            if (screen.contains(text)) {
                return;
            }
            Thread.sleep(100);                                      // polling a screen: there is no event to wait on
        }
        throw new AssertionError("'" + text + "' not on " + session + "'s screen within " + WAIT_MILLIS + " ms:\n" + screen);
    }

    private String screen(String session) throws Exception {
        return tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session).strip();
    }

    private static String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
