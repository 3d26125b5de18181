package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The inviting client's server socket for {@link PrivateService}. */
@Protocol("sbegin.^(ClientToClient)")
public interface PrivateServer {
}
