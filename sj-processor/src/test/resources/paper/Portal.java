import org.sessionj.api.*;

/*
 * Paper 000, section 4.2 and Figure 10: the Application Server Portal (transport-independent
 * delegation).  Printed in the paper: the protocols of Fig. 10, Portal's accept / request / delegate
 * lines and the Server's receive of the delegated session.  The application protocols
 * appletToWebmail, appletToCalendar, appletToDatabase are NOT printed: the bodies below are
 * PLACEHOLDERS.  The Calendar and Database protocols follow Webmail by analogy ("etc.").
 */

@Protocol("!<String>.?(String)")                 // PLACEHOLDER: not printed in the paper
interface AppletToWebmail {}

@Protocol("!<String>.?(String)")                 // PLACEHOLDER: not printed in the paper
interface AppletToCalendar {}

@Protocol("!<String>.?(String)")                 // PLACEHOLDER: not printed in the paper
interface AppletToDatabase {}

@Protocol("cbegin.!{WEBMAIL: @(AppletToWebmail), CALENDAR: @(AppletToCalendar), DATABASE: @(AppletToDatabase)}")
interface AppletToPortal {}

@Protocol("^(AppletToPortal)")                   // Portal's side of the Applet session
interface PortalToApplet {}

@Protocol("cbegin.!<@(WebmailToApplet)>")        // (iii)
interface PortalToWebmail {}

@Protocol("sbegin.?(@(WebmailToApplet))")        // (iv)
interface WebmailToPortal {}

@Protocol("^(AppletToWebmail)")
interface WebmailToApplet {}

@Protocol("cbegin.!<@(CalendarToApplet)>")       // by analogy with portalToWebmail
interface PortalToCalendar {}

@Protocol("^(AppletToCalendar)")                 // by analogy with webmailToApplet
interface CalendarToApplet {}

@Protocol("cbegin.!<@(DatabaseToApplet)>")       // by analogy with portalToWebmail
interface PortalToDatabase {}

@Protocol("^(AppletToDatabase)")                 // by analogy with webmailToApplet
interface DatabaseToApplet {}

public class Portal {

    // ------------------------------------------------------------------ Portal

    public void portal(int port_p, String webmailHost, int webmailPort, String calendarHost, int calendarPort,
                       String databaseHost, int databasePort) throws SJIOException {
        SJService c_webmail = SJService.create(PortalToWebmail.class, webmailHost, webmailPort);
        SJService c_calendar = SJService.create(PortalToCalendar.class, calendarHost, calendarPort);
        SJService c_database = SJService.create(PortalToDatabase.class, databaseHost, databasePort);

        try (SJServerSocket ss_p = SJServerSocket.create(PortalToApplet.class, port_p)) {
            while (true) {
                // noalias SJSocket s_pa; // To serve Applet.   Enter session-try scope for s_pa.
                try (SJSocket s_pa = ss_p.accept()) {                  // ss_p: SJServerSocket
                    // ... Preliminary exchange of parameters (elided in the paper).
                    switch (s_pa.inbranch()) {                        // Select application server.
                        case "WEBMAIL" -> {
                            try (SJSocket s_ps = c_webmail.request()) { // Connect to Server.
                                s_ps.send(s_pa);                      // !<@(webmailToApplet)>; s_pa is dead
                            }
                        }
                        case "CALENDAR" -> {
                            try (SJSocket s_ps = c_calendar.request()) {
                                s_ps.send(s_pa);                      // !<@(calendarToApplet)>
                            }
                        }
                        case "DATABASE" -> {
                            try (SJSocket s_ps = c_database.request()) {
                                s_ps.send(s_pa);                      // !<@(databaseToApplet)>
                            }
                        }
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ Webmail server

    public void webmail(int port_w) throws SJIOException {
        try (SJServerSocket ss_w = SJServerSocket.create(WebmailToPortal.class, port_w)) {
            while (true) {
                try (SJSocket s_sp = ss_w.accept();                   // the Server-Portal session
                     SJSocket s_sa = s_sp.receive()) {                // s_sa = (@(serverToApplet)) s_sp.receive(params);
                    serveApplet(s_sa);                                // Use s_sa to serve the Applet client.
                }
            }
        }
    }

    /** The delegated session, remaining type @(webmailToApplet) = ^(appletToWebmail) (placeholder body). */
    static void serveApplet(@Session("@(WebmailToApplet)") SJSocket s_sa) throws SJIOException {
        String user = s_sa.receive();                                 // placeholder ?(String)
        s_sa.send("no new mail for " + user);                         // placeholder !<String>
    }

    // ------------------------------------------------------------------ Applet (reconstructed)

    public String applet(String portalHost, int port_p, String user) throws SJIOException {
        SJService c = SJService.create(AppletToPortal.class, portalHost, port_p);
        try (SJSocket s = c.request()) {                              // cbegin (HTTP to the parent Web server)
            s.outbranch("WEBMAIL");                                   // !{WEBMAIL: ..
            s.send(user);                                             // placeholder !<String>
            return s.receive();                                       // placeholder ?(String), from Webmail after delegation
        }
    }
}
