package org.sessionj.examples.chat.terminal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the real {@code ./sj chat client} in tmux terminals (send-keys, capture-pane) against a server
 * in another JVM, as a person would ({@link TmuxTerminals}): over tcp, and over http to the server's
 * HTTP port. Needs tmux: {@code ./mvnw -Pterminal -pl sj-examples -am verify} installs it
 * ({@code scripts/install-tmux.sh}) and runs this test; the default build leaves it out. The final
 * screens of the tcp test are written to {@code target/chat-transcript.txt}.
 */
@Tag("terminal")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ChatTmuxTest {

    @Test
    void twoPeopleChatInTerminalsAndSurviveTheServerGoingAway(@TempDir Path dir) throws Exception {
        try (TmuxTerminals terminals = new TmuxTerminals(dir)) {
            TmuxTerminals.Started server = terminals.process("chat", "server", "--port", "0");
            int port = server.number("chat server on port");

            TmuxTerminals.Terminal alice = terminals.terminal("alice", "chat", "client", "--name", "alice",
                    "--server", "localhost:" + port);
            alice.await("* joined the chat as alice");
            TmuxTerminals.Terminal bob = terminals.terminal("bob", "chat", "client", "--name", "bob",
                    "--server", "localhost:" + port);
            bob.await("* joined the chat as bob; also here: alice");
            alice.await("* bob joined");

            alice.type("hello from alice");
            bob.await("<alice> hello from alice");
            bob.type("/msg alice psst, just between us");
            alice.await("[bob] psst, just between us");
            alice.type("/msg bob \u001b[31mred?");                    // an escape typed by a user goes out cleaned
            bob.await("[alice] [31mred?");
            alice.type("/users");
            alice.await("* users: alice (you), bob");

            server.process().destroy();                              // the server goes away
            alice.await("! lost the connection to the server");
            bob.await("! lost the connection to the server");
            bob.type("/msg alice still there?");                     // private conversations do not need it
            alice.await("[bob] still there?");

            String transcript = "---- alice ----\n" + alice.screen() + "\n---- bob ----\n" + bob.screen() + "\n";
            Files.writeString(Path.of("target", "chat-transcript.txt"), transcript);
            alice.type("/quit");
            alice.await("* bye");
            bob.await("* private conversation with alice ended: alice left the chat");
        }
    }

    @Test
    void aClientOverHttpChatsWithAClientOverTcp(@TempDir Path dir) throws Exception {
        try (TmuxTerminals terminals = new TmuxTerminals(dir)) {
            TmuxTerminals.Started server = terminals.process("chat", "server", "--port", "0", "--http-port", "0");
            int port = server.number("chat server on port");
            int httpPort = server.number("http on port");

            TmuxTerminals.Terminal carol = terminals.terminal("carol", "chat", "client", "--name", "carol",
                    "--transport", "http", "--server", "localhost:" + httpPort);
            carol.await("over http");
            carol.await("* joined the chat as carol");
            TmuxTerminals.Terminal dan = terminals.terminal("dan", "chat", "client", "--name", "dan",
                    "--server", "localhost:" + port);
            dan.await("* joined the chat as dan; also here: carol");
            carol.await("* dan joined");

            carol.type("hello over http");
            dan.await("<carol> hello over http");
            carol.await("<carol> hello over http");
            dan.type("hello over tcp");
            carol.await("<dan> hello over tcp");
            carol.type("/msg dan a private word");                   // client to client, not through the server
            dan.await("[carol] a private word");
            dan.type("/msg carol got it");
            carol.await("[dan] got it");
            carol.type("/users");
            carol.await("* users: carol (you), dan");
            carol.type("/quit");
            carol.await("* bye");
            dan.await("* carol left");
        }
    }
}
