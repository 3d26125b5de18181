package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The portal's side of {@link AppletToPortal}. */
@Protocol("^(AppletToPortal)")
public interface PortalToApplet {
}
