package org.sessionj.examples.tally;

import org.sessionj.api.SJIOException;
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
 * send its number holds up nobody. A client that takes none of its totals holds up the others for at most
 * the selector's send bound ({@code sessionj.selector.sendTimeout}, 2 s): then its session fails, alone,
 * and the thread serves the others on. sj-processor checks each arm against its member, and that every
 * session is handed back, or closed when its client quits.
 */
public final class TallyServer {
    private static final System.Logger LOG = System.getLogger(TallyServer.class.getName());
    private long total;

    private TallyServer() {
    }

    /**
     * Accepts {@code clients} sessions, then serves all of them on the calling thread until every
     * client has quit or its session has failed (logged, WARNING; the others are served on).
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
                // A session's failure is that session's alone: its client left, sent what its type does not
                // allow, or took none of its totals within the selector's send bound (a send that waited
                // for it would have held up every other client). The action that threw has failed the
                // session; it does not go back to the selector, and the others are served on. The try
                // blocks hold the session's actions only: a hand-back that threw would leave it live.
                switch (selector.typecase(s)) {
                    case "Rounds" -> {
                        try {
                            switch (s.inbranch()) {
                                case "ADD" -> {
                                    // handed back below, waiting for its number
                                }
                                case "QUIT" -> {
                                    s.close();
                                    open--;
                                    continue;
                                }
                            }
                        } catch (SJIOException e) {
                            open -= dropped(e);
                            continue;
                        }
                        selector.register(s);
                    }
                    case "Pending" -> {
                        try {
                            total += s.receiveInt();
                            s.send((int) total);
                        } catch (SJIOException e) {
                            open -= dropped(e);
                            continue;
                        }
                        selector.register(s);
                    }
                }
            }
        }
        return total;
    }

    /** Logs a client's failed session, which the loop then leaves out; one session fewer to serve. */
    private static int dropped(SJIOException e) {
        LOG.log(System.Logger.Level.WARNING, "tally: a client''s session failed, the others go on: {0}", e.getMessage());
        return 1;
    }
}
