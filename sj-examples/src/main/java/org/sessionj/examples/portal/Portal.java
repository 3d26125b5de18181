package org.sessionj.examples.portal;

import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.runtime.SJRuntime;

/**
 * The application portal of paper 000 §4.2: it accepts a front end's session, takes the preliminary
 * exchange and the choice of application, and delegates the rest of the session to the chosen
 * application server, which then talks to the front end directly over the best transport the two
 * share (transport-independent delegation). With {@code forward} set, it relays every webmail message
 * itself instead (the control case of the migration benchmark; the calendar is always delegated).
 */
public final class Portal implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Portal.class.getName());

    private final SJServerSocket listening;
    private final SJServerSocket httpListening;
    private final PortalSettings settings;
    private volatile boolean closed;

    private Portal(SJRuntime runtime, PortalSettings settings) {
        this.settings = settings;
        this.listening = runtime.serverSocket(PortalToApplet.class, settings.port());
        this.httpListening = PartyRuntimes.httpPortNextTo(listening, runtime, PortalToApplet.class, settings.httpPort());
    }

    /**
     * Starts a portal that reaches the application servers named in {@code settings}, taking front
     * ends on its session port and, if the settings name one, on its HTTP port.
     */
    public static Portal start(SJRuntime runtime, PortalSettings settings) {
        Portal portal = new Portal(runtime, settings);
        SJService webmail = runtime.service(PortalToWebmail.class, settings.webmailHost(), settings.webmailPort());
        SJService webmailDirect = runtime.service(PortalForwardsWebmail.class, settings.webmailHost(),
                settings.webmailDirectPort());
        SJService calendar = runtime.service(PortalToCalendar.class, settings.calendarHost(), settings.calendarPort());
        portal.acceptNext(portal.listening, webmail, webmailDirect, calendar);
        if (portal.httpListening != null) {
            portal.acceptNext(portal.httpListening, webmail, webmailDirect, calendar);
        }
        return portal;
    }

    /** The session port front ends connect to. */
    public int port() {
        return listening.port();
    }

    /** The HTTP port front ends may connect to over http (set up and run over http), or -1 if there is none. */
    public int httpPort() {
        return httpListening == null ? -1 : httpListening.port();
    }

    private void acceptNext(@Session(protocol = PortalToApplet.class) SJServerSocket ss_p,
            @Session(protocol = PortalToWebmail.class) SJService webmail,
            @Session(protocol = PortalForwardsWebmail.class) SJService webmailDirect,
            @Session(protocol = PortalToCalendar.class) SJService calendar) {
        Thread.ofVirtual().name("portal-accept").start(() -> serveOne(ss_p, webmail, webmailDirect, calendar));
    }

    private void serveOne(@Session(protocol = PortalToApplet.class) SJServerSocket ss_p,
            @Session(protocol = PortalToWebmail.class) SJService webmail,
            @Session(protocol = PortalForwardsWebmail.class) SJService webmailDirect,
            @Session(protocol = PortalToCalendar.class) SJService calendar) {
        try (SJSocket s_pa = ss_p.accept()) {                               // ss_p: SJServerSocket
            acceptNext(ss_p, webmail, webmailDirect, calendar);
            String user = s_pa.receive();                                    // Preliminary exchange of parameters.
            switch (s_pa.inbranch()) {                                       // Select application server.
                case "WEBMAIL" -> {
                    if (settings.forward()) {
                        forward(s_pa, webmailDirect);
                    } else {
                        try (SJSocket s_ps = webmail.request()) {           // Connect to Server.
                            s_pa.send(new Handover("webmail", webmail.host() + ":" + webmail.port(), true));
                            s_ps.send(s_pa);                                 // !<@(webmailToApplet)>: s_pa is delegated
                        }
                    }
                }
                case "CALENDAR" -> {
                    try (SJSocket s_ps = calendar.request()) {
                        s_pa.send(new Handover("calendar", calendar.host() + ":" + calendar.port(), true));
                        s_ps.send(s_pa);                                     // !<@(calendarToApplet)>
                    }
                }
            }
            LOG.log(System.Logger.Level.DEBUG, "served {0}", user);
        } catch (SJException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.INFO, "front-end session failed: {0}", e.getMessage());
            }
        }
    }

    /** The control case: the portal stays in the middle and relays every webmail message both ways. */
    private void forward(@Session("!<Handover>.@(WebmailToApplet)") SJSocket s_pa,
            @Session(protocol = PortalForwardsWebmail.class) SJService webmailDirect) {
        try (SJSocket s_pw = webmailDirect.request()) {
            s_pa.send(new Handover("webmail", webmailDirect.host() + ":" + webmailDirect.port(), false));
            String user = s_pa.receive();
            s_pw.send(user);
            X:
            while (true) {
                switch (s_pa.inbranch()) {
                    case "LIST" -> {
                        s_pw.outbranch("LIST");
                        String[] headers = s_pw.receive();
                        s_pa.send(headers);
                        continue X;
                    }
                    case "READ" -> {
                        int number = s_pa.receiveInt();
                        s_pw.outbranch("READ");
                        s_pw.send(number);
                        Mail mail = s_pw.receive();
                        s_pa.send(mail);
                        continue X;
                    }
                    case "SEND" -> {
                        Mail mail = s_pa.receive();
                        s_pw.outbranch("SEND");
                        s_pw.send(mail);
                        String answer = s_pw.receive();
                        s_pa.send(answer);
                        continue X;
                    }
                    case "QUIT" -> {
                        s_pw.outbranch("QUIT");
                        break X;
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        listening.close();
        if (httpListening != null) {
            httpListening.close();
        }
    }
}
