package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The service an inviting client passes at (ii): the invited client requests it. */
@Protocol("cbegin.@(ClientToClient)")
public interface PrivateService {
}
