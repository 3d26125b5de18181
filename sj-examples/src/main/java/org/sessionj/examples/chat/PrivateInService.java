package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The service the inviting client passes inside the private conversation: the invited client's in stream. */
@Protocol("cbegin.@(PrivateInStream)")
public interface PrivateInService {
}
