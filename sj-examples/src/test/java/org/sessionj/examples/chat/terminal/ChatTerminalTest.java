package org.sessionj.examples.chat.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.chat.ChatClient;
import org.sessionj.examples.chat.ChatClientSettings;
import org.sessionj.examples.chat.ChatServer;
import org.sessionj.examples.chat.ChatServerSettings;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.runtime.TransportPreferences;

/** The JLine interface on piped streams: typed lines reach the client, the chat reaches the screen. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChatTerminalTest {

    @Test
    void typedLinesAreSentAndTheChatIsShown() throws Exception {
        try (ChatServer server = ChatServer.start(PartyRuntimes.create("tcp", false),
                ChatServerSettings.of(0, "localhost", TransportPreferences.unset()))) {
            PipedOutputStream keyboard = new PipedOutputStream();
            PipedInputStream in = new PipedInputStream(keyboard);
            Screen screen = new Screen();
            ChatTerminal terminal = ChatTerminal.on(in, screen);
            ChatClient client = ChatClient.start(PartyRuntimes.create("tcp", false),
                    ChatClientSettings.of("tess", "localhost", server.port(), "localhost")
                            .withReconnectDelays(Duration.ofMillis(100), Duration.ofMillis(100)), terminal);
            Thread ui = Thread.ofVirtual().start(() -> terminal.run(client));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            assertThat(screen.awaitText("joined the chat as tess", deadline)).isTrue();
            keyboard.write("hello terminal\n".getBytes(StandardCharsets.UTF_8));
            keyboard.flush();
            // The own message comes back as an event of the server's stream; quitting before it arrived
            // would close that stream first, so the test waits for it on the screen.
            assertThat(screen.awaitText("<tess> hello terminal", deadline)).isTrue();
            keyboard.write("/users\n/quit\n".getBytes(StandardCharsets.UTF_8));
            keyboard.flush();
            assertThat(client.awaitFinished(30, TimeUnit.SECONDS)).isTrue();
            ui.join(Duration.ofSeconds(10));
            terminal.close();
            String shown = screen.toString(StandardCharsets.UTF_8);
            assertThat(shown).contains("* joined the chat as tess; nobody else is here", "<tess> hello terminal",
                    "* users: tess (you)", "* bye");
        }
    }

    /** What the terminal shows, with a wait for a text to appear (the terminal writes from its own thread). */
    private static final class Screen extends ByteArrayOutputStream {

        @Override
        public synchronized void write(int b) {
            super.write(b);
            notifyAll();
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            super.write(b, off, len);
            notifyAll();
        }

        synchronized boolean awaitText(String text, long deadlineNanos) throws InterruptedException {
            while (!toString(StandardCharsets.UTF_8).contains(text)) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }
}
