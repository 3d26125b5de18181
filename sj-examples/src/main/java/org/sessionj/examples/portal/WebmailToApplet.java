package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/** The webmail server's side of {@link AppletToWebmail} (paper 000 Fig. 10, {@code webmailToApplet}). */
@Protocol("^(AppletToWebmail)")
public interface WebmailToApplet {
}
