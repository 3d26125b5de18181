package org.sessionj.examples.chat.real;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.sessionj.examples.chat.ChatClient;
import org.sessionj.examples.chat.ChatClientSettings;
import org.sessionj.examples.net.PartyRuntimes;

/**
 * A chat client without a terminal, for {@link ChatFirewallRealTest}: {@code NAME HOST:PORT
 * ADVERTISED-HOST}; every line of standard input is typed into the client, every line the client shows
 * is printed as {@code LINE text}; end of input quits. The transports are the runtime's (tcp, and the
 * relay of {@code -Dsessionj.http.relay}), as for {@code ./sj chat client}: the network decides.
 */
public final class ScriptedChatClient {
    private ScriptedChatClient() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        String[] server = args[1].split(":");
        ChatClientSettings settings = ChatClientSettings.of(args[0], server[0], Integer.parseInt(server[1]), args[2])
                .withReconnectDelays(Duration.ofSeconds(1), Duration.ofSeconds(2));
        ChatClient client = ChatClient.start(PartyRuntimes.create("tcp", false), settings, line -> {
            synchronized (System.out) {
                System.out.println("LINE " + line);
                System.out.flush();
            }
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (!client.input(line)) {
                break;
            }
        }
        client.close();
        System.exit(0);
    }
}
