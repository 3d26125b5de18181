package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** A forwarding portal's session with {@link WebmailDirect}: the front end's part, played by the portal. */
@Protocol("cbegin.@(AppletToWebmail)")
public interface PortalForwardsWebmail {
}
