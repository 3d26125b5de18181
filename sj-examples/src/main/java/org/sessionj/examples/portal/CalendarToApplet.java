package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The calendar server's side of {@link AppletToCalendar}. */
@Protocol("^(AppletToCalendar)")
public interface CalendarToApplet {
}
