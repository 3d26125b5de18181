package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The portal connects to the webmail server and delegates the front end's session (iii). */
@Protocol("cbegin.!<@(WebmailToApplet)>")
public interface PortalToWebmail {
}
