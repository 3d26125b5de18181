package org.sessionj.examples.portal;

/**
 * The portal's last word before it delegates: which application the front end is handed over to and
 * where it runs, or that the portal relays the session itself.
 *
 * @param application the application ("webmail", "calendar")
 * @param server the application server's host:port
 * @param delegated true when the session moves to the server, false when the portal forwards it
 */
public record Handover(String application, String server, boolean delegated) {
}
