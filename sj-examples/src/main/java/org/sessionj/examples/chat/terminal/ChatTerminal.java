package org.sessionj.examples.chat.terminal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.sessionj.examples.chat.ChatClient;
import org.sessionj.examples.chat.ChatDisplay;

/**
 * The chat client's terminal interface (JLine): a line editor with history at the bottom, and the
 * chat scrolling above it — every incoming line is printed above the prompt without disturbing what
 * the user is typing. Ctrl-D or Ctrl-C leaves like {@code /quit}. Lines reach it already cleaned of
 * control characters ({@link org.sessionj.examples.chat.ChatText}).
 */
public final class ChatTerminal implements ChatDisplay, AutoCloseable {
    private static final String PROMPT = "> ";
    private final Terminal terminal;
    private final LineReader reader;

    private ChatTerminal(Terminal terminal) {
        this.terminal = terminal;
        this.reader = LineReaderBuilder.builder().terminal(terminal).appName("sj-chat")
                .variable(LineReader.HISTORY_SIZE, 1000)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)   // '!' is text, not history expansion
                .build();
    }

    /** The interface on this process's terminal (a dumb one when there is none, e.g. input from a pipe). */
    public static ChatTerminal system() throws IOException {
        return new ChatTerminal(TerminalBuilder.builder().name("sj-chat").system(true).build());
    }

    /** The interface on the given streams (tests). */
    public static ChatTerminal on(InputStream in, OutputStream out) throws IOException {
        return new ChatTerminal(TerminalBuilder.builder().name("sj-chat").system(false).streams(in, out)
                .type(Terminal.TYPE_DUMB).build());
    }

    @Override
    public void show(String line) {
        reader.printAbove(line);
    }

    /** Reads the user's lines into {@code client} until the user quits or input ends. */
    public void run(ChatClient client) {
        while (true) {
            String line;
            try {
                line = reader.readLine(PROMPT);
            } catch (UserInterruptException | EndOfFileException e) {
                client.quit();
                return;
            }
            if (!client.input(line)) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        terminal.writer().flush();
        terminal.close();
    }
}
