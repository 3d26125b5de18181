package org.sessionj.examples.portal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.chat.ChatText;
import org.sessionj.runtime.SJRuntime;

/**
 * The calendar application server: it receives front-end sessions delegated by the portal, takes the
 * entries the front end streams, and streams back the user's agenda in date order. Each agenda keeps
 * at most {@link #AGENDA_LIMIT} entries; more are received (the protocol says so) and not stored.
 */
public final class CalendarServer implements AutoCloseable {
    /** The most entries kept per user. */
    static final int AGENDA_LIMIT = 100_000;
    private static final System.Logger LOG = System.getLogger(CalendarServer.class.getName());
    private static final Comparator<CalendarEntry> ORDER =
            Comparator.comparing(CalendarEntry::date).thenComparing(CalendarEntry::time);

    private final Map<String, List<CalendarEntry>> agendas = new ConcurrentHashMap<>();
    private final SJServerSocket delegated;

    private CalendarServer(SJRuntime runtime, int port) {
        this.delegated = runtime.serverSocket(CalendarToPortal.class, port);
    }

    /** Starts a server taking delegated sessions on {@code port} (0: a free one). */
    public static CalendarServer start(SJRuntime runtime, int port) {
        CalendarServer server = new CalendarServer(runtime, port);
        server.acceptDelegated(server.delegated);
        return server;
    }

    /** The port for delegated sessions. */
    public int port() {
        return delegated.port();
    }

    private void acceptDelegated(@Session(protocol = CalendarToPortal.class) SJServerSocket server) {
        Thread.ofVirtual().name("calendar-accept").start(() -> {
            try (SJSocket s_sp = server.accept()) {
                acceptDelegated(server);
                try (SJSocket s_sa = s_sp.receive()) {
                    serveApplet(s_sa);
                }
            } catch (SJException e) {
                LOG.log(System.Logger.Level.INFO, "calendar session ended: {0}", e.getMessage());
            }
        });
    }

    /** The application: @(calendarToApplet). */
    private void serveApplet(@Session("@(CalendarToApplet)") SJSocket s) {
        String user = ChatText.name(s.receive()).toLowerCase(Locale.ROOT);
        List<CalendarEntry> agenda = agendas.computeIfAbsent(user, u -> new ArrayList<>());
        while (s.inwhile()) {
            CalendarEntry entry = s.receive();
            synchronized (agenda) {
                if (entry != null && agenda.size() < AGENDA_LIMIT) {
                    agenda.add(new CalendarEntry(ChatText.clean(entry.date(), 10), ChatText.clean(entry.time(), 5),
                            ChatText.clean(entry.title(), 200)));
                }
            }
        }
        List<CalendarEntry> sorted;
        synchronized (agenda) {
            sorted = new ArrayList<>(agenda);
        }
        sorted.sort(ORDER);
        Iterator<CalendarEntry> next = sorted.iterator();
        while (s.outwhile(next.hasNext())) {
            s.send(next.next());
        }
    }

    @Override
    public void close() {
        delegated.close();
    }
}
