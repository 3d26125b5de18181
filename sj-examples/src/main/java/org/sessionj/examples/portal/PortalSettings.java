package org.sessionj.examples.portal;

/**
 * Where a portal listens and where its application servers are.
 *
 * @param port the portal's session port (0: a free one)
 * @param webmailHost the webmail server's host
 * @param webmailPort its port for delegated sessions
 * @param webmailDirectPort its port for forwarded sessions
 * @param calendarHost the calendar server's host
 * @param calendarPort its port for delegated sessions
 * @param forward relay webmail sessions instead of delegating them
 */
public record PortalSettings(int port, String webmailHost, int webmailPort, int webmailDirectPort, String calendarHost,
        int calendarPort, boolean forward) {
}
