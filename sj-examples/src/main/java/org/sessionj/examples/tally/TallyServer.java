package org.sessionj.examples.tally;

import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.tally.TallyProtocols.Pending;
import org.sessionj.examples.tally.TallyProtocols.Rounds;
import org.sessionj.examples.tally.TallyProtocols.TallyService;

/**
 * One thread serving many clients' sessions at once with a typed selector (docs/session-types.md §9).
 *
 * <p>Every session waits for input at one of two points, and the selector's set type has one member
 * for each: {@link Rounds} (the client's next choice) and {@link Pending} (the number of an addition
 * whose label has arrived). Each typecase arm takes its session one step, never waiting for input that
 * has not arrived, and hands it back to the selector at the next member — so a client that is slow to
 * send its number holds up nobody. sj-processor checks each arm against its member, and that every
 * session is handed back, or closed when its client quits.
 */
public final class TallyServer {
    private long total;

    private TallyServer() {
    }

    /**
     * Accepts {@code clients} sessions, then serves all of them on the calling thread until every
     * client has quit.
     *
     * @return the total of every number the clients added
     */
    public static long serve(@Session(protocol = TallyService.class) SJServerSocket server, int clients) {
        return new TallyServer().serveAll(server, clients);
    }

    private long serveAll(@Session(protocol = TallyService.class) SJServerSocket server, int clients) {
        try (SJSelector selector = SJSelector.of(Rounds.class, Pending.class)) {
            for (int k = 0; k < clients; k++) {
                SJSocket accepted = server.accept();
                selector.register(accepted);
            }
            int open = clients;
            while (open > 0) {
                SJSocket s = selector.select();
                switch (selector.typecase(s)) {
                    case "Rounds" -> {
                        switch (s.inbranch()) {
                            case "ADD" -> selector.register(s);
                            case "QUIT" -> {
                                s.close();
                                open--;
                            }
                        }
                    }
                    case "Pending" -> {
                        total += s.receiveInt();
                        s.send((int) total);
                        selector.register(s);
                    }
                }
            }
        }
        return total;
    }
}
