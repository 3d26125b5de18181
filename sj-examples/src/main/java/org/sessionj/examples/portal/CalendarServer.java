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
 * at most {@link #AGENDA_LIMIT} entries and all agendas together at most {@link #TOTAL_LIMIT}; more are
 * received (the protocol says so) and not stored. A user has an agenda once an entry of theirs is stored.
 */
public final class CalendarServer implements AutoCloseable {
    /** The most entries kept per user. */
    static final int AGENDA_LIMIT = 10_000;
    /**
     * The most entries kept over all users: ~25 MB at most (H21-1: with a bound per user only, a client
     * that streamed full agendas under fresh user names filled any heap, ~55 MB per name).
     */
    static final int TOTAL_LIMIT = 50_000;
    private static final System.Logger LOG = System.getLogger(CalendarServer.class.getName());
    private static final Comparator<CalendarEntry> ORDER =
            Comparator.comparing(CalendarEntry::date).thenComparing(CalendarEntry::time);

    private final Map<String, List<CalendarEntry>> agendas = new ConcurrentHashMap<>();
    /** Entries stored over all agendas (never more than {@code totalLimit}). */
    private final java.util.concurrent.atomic.AtomicInteger stored = new java.util.concurrent.atomic.AtomicInteger();
    private final SJServerSocket delegated;

    private final int agendaLimit;
    private final int totalLimit;

    private CalendarServer(SJRuntime runtime, int port, int agendaLimit, int totalLimit) {
        this.agendaLimit = agendaLimit;
        this.totalLimit = totalLimit;
        this.delegated = runtime.serverSocket(CalendarToPortal.class, port);
    }

    /** Starts a server taking delegated sessions on {@code port} (0: a free one). */
    public static CalendarServer start(SJRuntime runtime, int port) {
        return start(runtime, port, AGENDA_LIMIT, TOTAL_LIMIT);
    }

    /** As {@link #start(SJRuntime, int)}, keeping at most {@code agendaLimit} entries per user and {@code totalLimit} in all. */
    static CalendarServer start(SJRuntime runtime, int port, int agendaLimit, int totalLimit) {
        CalendarServer server = new CalendarServer(runtime, port, agendaLimit, totalLimit);
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
        while (s.inwhile()) {
            CalendarEntry entry = s.receive();
            if (entry != null) {
                store(user, entry);
            }
        }
        List<CalendarEntry> agenda = agendas.get(user);
        List<CalendarEntry> sorted = new ArrayList<>();
        if (agenda != null) {
            synchronized (agenda) {
                sorted.addAll(agenda);
            }
        }
        sorted.sort(ORDER);
        Iterator<CalendarEntry> next = sorted.iterator();
        while (s.outwhile(next.hasNext())) {
            s.send(next.next());
        }
    }

    /** Keeps {@code entry} in {@code user}'s agenda, cleaned, if both bounds leave room; else drops it. */
    private void store(String user, CalendarEntry entry) {
        List<CalendarEntry> agenda = agendas.get(user);
        if (agenda != null && agenda.size() >= agendaLimit || !reserve()) {
            return; // a racy look at the size first: cheap, and the bound is enforced below
        }
        agenda = agendas.computeIfAbsent(user, u -> new ArrayList<>());
        synchronized (agenda) {
            if (agenda.size() < agendaLimit) {
                agenda.add(new CalendarEntry(ChatText.clean(entry.date(), 10), ChatText.clean(entry.time(), 5),
                        ChatText.clean(entry.title(), 200)));
                return;
            }
        }
        stored.decrementAndGet(); // the agenda filled meanwhile: the reservation goes back
    }

    /** Takes one of the {@code totalLimit} places, if one is left. */
    private boolean reserve() {
        int now;
        do {
            now = stored.get();
            if (now >= totalLimit) {
                return false;
            }
        } while (!stored.compareAndSet(now, now + 1));
        return true;
    }

    @Override
    public void close() {
        delegated.close();
    }
}
