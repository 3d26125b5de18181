package org.sessionj.examples.portal;

/**
 * Where a portal listens and where its application servers are.
 *
 * @param port the portal's session port (0: a free one); front ends reach it over tcp, and over http
 *        through the relay when one is configured
 * @param webmailHost the webmail server's host
 * @param webmailPort its port for delegated sessions
 * @param webmailDirectPort its port for forwarded sessions
 * @param calendarHost the calendar server's host
 * @param calendarPort its port for delegated sessions
 * @param forward relay webmail sessions instead of delegating them
 * @param httpPort a second session port served by an HTTP server of the portal's own, for front ends
 *        that may only speak HTTP (0: a free one; -1: none)
 */
public record PortalSettings(int port, String webmailHost, int webmailPort, int webmailDirectPort, String calendarHost,
        int calendarPort, boolean forward, int httpPort) {

    /** Validates the ports. */
    public PortalSettings {
        if (port < 0 || port > 65535 || httpPort < -1 || httpPort > 65535) {
            throw new IllegalArgumentException("ports must be 0..65535 (the HTTP port -1 for none), got " + port
                    + " and " + httpPort);
        }
    }

    /** Settings without an HTTP port. */
    public PortalSettings(int port, String webmailHost, int webmailPort, int webmailDirectPort, String calendarHost,
            int calendarPort, boolean forward) {
        this(port, webmailHost, webmailPort, webmailDirectPort, calendarHost, calendarPort, forward, -1);
    }

    /** These settings with an HTTP port ({@code 0}: a free one). */
    public PortalSettings withHttpPort(int port) {
        return new PortalSettings(this.port, webmailHost, webmailPort, webmailDirectPort, calendarHost, calendarPort,
                forward, port);
    }
}
