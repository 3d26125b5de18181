package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/**
 * The webmail server's second port, for a portal that forwards every message instead of delegating
 * (the control case of the migration benchmark): the portal plays the front end.
 */
@Protocol("sbegin.@(WebmailToApplet)")
public interface WebmailDirect {
}
