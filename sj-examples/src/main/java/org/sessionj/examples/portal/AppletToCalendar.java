package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/**
 * The calendar application, from the front end (not in the paper): the user's name, the entries to
 * add (streamed without waiting), then the user's whole agenda streamed back in date order.
 */
@Protocol("!<String>.![!<CalendarEntry>]*.?[?(CalendarEntry)]*")
public interface AppletToCalendar {
}
