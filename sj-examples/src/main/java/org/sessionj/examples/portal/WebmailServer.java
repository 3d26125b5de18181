package org.sessionj.examples.portal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.chat.ChatText;
import org.sessionj.runtime.SJRuntime;

/**
 * The webmail application server: it receives front-end sessions delegated by the portal (paper
 * 000 §4.2, {@code webmailToPortal}) and, on a second port, sessions from a portal that forwards
 * every message instead. Mailboxes live in memory; each holds at most {@link #MAILBOX_LIMIT} messages and
 * all of them together at most {@link #TOTAL_LIMIT} (the oldest go first); a user has a mailbox while it
 * holds a message.
 */
public final class WebmailServer implements AutoCloseable {
    /** The most messages kept per mailbox (older ones are dropped). */
    static final int MAILBOX_LIMIT = 1000;
    /**
     * The most messages kept over all mailboxes, the oldest dropped first: at most ~40 MB of text (H21-1:
     * with a bound per mailbox only, a client that sent 10,000-character mails to fresh names filled any
     * heap, ~20 MB per name).
     */
    static final int TOTAL_LIMIT = 2_000;
    private static final System.Logger LOG = System.getLogger(WebmailServer.class.getName());

    /** Guarded by itself, with {@link #order}: the mailboxes that hold a message. */
    private final Map<String, List<Mail>> mailboxes = new HashMap<>();
    /** Guarded by {@link #mailboxes}: the mailbox of each message kept, oldest first. */
    private final ArrayDeque<String> order = new ArrayDeque<>();
    private final SJServerSocket delegated;
    private final SJServerSocket direct;

    private WebmailServer(SJRuntime runtime, int port, int directPort) {
        this.delegated = runtime.serverSocket(WebmailToPortal.class, port);
        try {
            this.direct = runtime.serverSocket(WebmailDirect.class, directPort);
        } catch (RuntimeException e) {
            delegated.close();
            throw e;
        }
    }

    /** Starts a server taking delegated sessions on {@code port} and forwarded ones on {@code directPort} (0: free ports). */
    public static WebmailServer start(SJRuntime runtime, int port, int directPort) {
        WebmailServer server = new WebmailServer(runtime, port, directPort);
        server.acceptDelegated(server.delegated);
        server.acceptDirect(server.direct);
        return server;
    }

    /** The port for delegated sessions. */
    public int port() {
        return delegated.port();
    }

    /** The port for sessions a forwarding portal relays. */
    public int directPort() {
        return direct.port();
    }

    private void acceptDelegated(@Session(protocol = WebmailToPortal.class) SJServerSocket server) {
        Thread.ofVirtual().name("webmail-accept").start(() -> {
            try (SJSocket s_sp = server.accept()) {                     // the Server-Portal session
                acceptDelegated(server);
                try (SJSocket s_sa = s_sp.receive()) {                   // s_sa = (@(serverToApplet)) s_sp.receive();
                    serveApplet(s_sa);                                   // Use s_sa to serve the Applet client.
                }
            } catch (SJException e) {
                LOG.log(System.Logger.Level.INFO, "webmail session ended: {0}", e.getMessage());
            }
        });
    }

    private void acceptDirect(@Session(protocol = WebmailDirect.class) SJServerSocket server) {
        Thread.ofVirtual().name("webmail-accept-direct").start(() -> {
            try (SJSocket s = server.accept()) {
                acceptDirect(server);
                serveApplet(s);
            } catch (SJException e) {
                LOG.log(System.Logger.Level.INFO, "webmail session ended: {0}", e.getMessage());
            }
        });
    }

    /** The application: @(webmailToApplet). */
    private void serveApplet(@Session("@(WebmailToApplet)") SJSocket s) {
        String user = ChatText.name(s.receive());
        X:
        while (true) {
            switch (s.inbranch()) {
                case "LIST" -> {
                    List<Mail> box = mailbox(user);
                    String[] headers = new String[box.size()];
                    for (int i = 0; i < headers.length; i++) {
                        Mail mail = box.get(i);
                        headers[i] = (i + 1) + "  " + mail.from() + "  " + mail.subject();
                    }
                    s.send(headers);
                    continue X;
                }
                case "READ" -> {
                    int number = s.receiveInt();
                    List<Mail> box = mailbox(user);
                    Mail mail = number >= 1 && number <= box.size() ? box.get(number - 1)
                            : new Mail("webmail", user, "no message " + number, "");
                    s.send(mail);
                    continue X;
                }
                case "SEND" -> {
                    Mail mail = s.receive();
                    String to = mail == null ? "" : ChatText.name(mail.to());
                    if (to.isEmpty()) {
                        s.send("not sent: no recipient");
                    } else {
                        deliver(new Mail(user, to, ChatText.clean(mail.subject(), 200), ChatText.clean(mail.body(), 10_000)));
                        s.send("sent to " + to);
                    }
                    continue X;
                }
                case "QUIT" -> {
                    break X;
                }
            }
        }
    }

    /** A copy of {@code user}'s mailbox now (empty when it holds nothing): no mailbox is made for a reader. */
    private List<Mail> mailbox(String user) {
        synchronized (mailboxes) {
            List<Mail> box = mailboxes.get(user.toLowerCase(java.util.Locale.ROOT));
            return box == null ? List.of() : List.copyOf(box);
        }
    }

    /**
     * Puts {@code mail} into its recipient's mailbox; past a bound, the oldest message of the mailbox
     * ({@link #MAILBOX_LIMIT}) or of all of them ({@link #TOTAL_LIMIT}) is dropped.
     */
    public void deliver(Mail mail) {
        String to = mail.to().toLowerCase(java.util.Locale.ROOT);
        synchronized (mailboxes) {
            List<Mail> box = mailboxes.computeIfAbsent(to, u -> new ArrayList<>());
            if (box.size() == MAILBOX_LIMIT) {
                box.remove(0);
                order.removeFirstOccurrence(to); // its oldest message's place in the order, one of this box's
            }
            box.add(mail);
            order.addLast(to);
            if (order.size() > TOTAL_LIMIT) {
                String oldest = order.removeFirst();
                List<Mail> from = mailboxes.get(oldest);
                from.remove(0);
                if (from.isEmpty()) {
                    mailboxes.remove(oldest);
                }
            }
        }
    }


    @Override
    public void close() {
        delegated.close();
        direct.close();
    }
}
