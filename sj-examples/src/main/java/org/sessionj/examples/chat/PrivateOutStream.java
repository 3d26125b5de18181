package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** One direction of a private conversation: {@link EventOutStream} without JOIN and PRIVATE_CONVERSATION. */
@Protocol("rec X[!{MESSAGE: !<MessageEvent>.#X, QUIT: !<UserQuitEvent>}]")
public interface PrivateOutStream {
}
