package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The inviting client's server socket for {@link PrivateInService}: it serves its stream towards the invited client. */
@Protocol("sbegin.@(PrivateOutStream)")
public interface PrivateOutServer {
}
