package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The webmail server receives a delegated front-end session (iv). */
@Protocol("sbegin.?(@(WebmailToApplet))")
public interface WebmailToPortal {
}
