package org.sessionj.examples.portal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.chat.ChatText;
import org.sessionj.runtime.SJRuntime;

/**
 * The webmail application server: it receives front-end sessions delegated by the portal (paper
 * 000 §4.2, {@code webmailToPortal}) and, on a second port, sessions from a portal that forwards
 * every message instead. Mailboxes live in memory; each holds at most {@link #MAILBOX_LIMIT} messages.
 */
public final class WebmailServer implements AutoCloseable {
    /** The most messages kept per mailbox (older ones are dropped). */
    static final int MAILBOX_LIMIT = 1000;
    private static final System.Logger LOG = System.getLogger(WebmailServer.class.getName());

    private final Map<String, List<Mail>> mailboxes = new ConcurrentHashMap<>();
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
                    String[] headers;
                    synchronized (box) {
                        headers = new String[box.size()];
                        for (int i = 0; i < headers.length; i++) {
                            Mail mail = box.get(i);
                            headers[i] = (i + 1) + "  " + mail.from() + "  " + mail.subject();
                        }
                    }
                    s.send(headers);
                    continue X;
                }
                case "READ" -> {
                    int number = s.receiveInt();
                    List<Mail> box = mailbox(user);
                    Mail mail;
                    synchronized (box) {
                        mail = number >= 1 && number <= box.size() ? box.get(number - 1)
                                : new Mail("webmail", user, "no message " + number, "");
                    }
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

    private List<Mail> mailbox(String user) {
        return mailboxes.computeIfAbsent(user.toLowerCase(java.util.Locale.ROOT), u -> new ArrayList<>());
    }

    /** Puts {@code mail} into its recipient's mailbox. */
    public void deliver(Mail mail) {
        List<Mail> box = mailbox(mail.to());
        synchronized (box) {
            if (box.size() == MAILBOX_LIMIT) {
                box.remove(0);
            }
            box.add(mail);
        }
    }

    @Override
    public void close() {
        delegated.close();
        direct.close();
    }
}
