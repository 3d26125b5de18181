package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The portal connects to the calendar server and delegates the front end's session (as (iii)). */
@Protocol("cbegin.!<@(CalendarToApplet)>")
public interface PortalToCalendar {
}
