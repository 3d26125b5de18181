package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The calendar server receives a delegated front-end session (as (iv)). */
@Protocol("sbegin.?(@(CalendarToApplet))")
public interface CalendarToPortal {
}
