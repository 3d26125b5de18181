package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/**
 * The front end's session with the portal (paper 000 Fig. 10, {@code appletToPortal}; a command-line
 * front end takes the applet's place). After the preliminary exchange (the user's name) the front end
 * selects an application; the portal tells it where it is being handed over to and delegates the rest
 * of the session to that application's server, so the front end then talks to the server directly.
 */
@Protocol("""
        cbegin.                                   // Request application session.
        !<String>.                                // Preliminary exchange of parameters: the user.
        !{
          WEBMAIL: ?(Handover).@(AppletToWebmail),
          CALENDAR: ?(Handover).@(AppletToCalendar)
        }
        """)
public interface AppletToPortal {
}
