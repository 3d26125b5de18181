package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/**
 * The server's dynamic server socket for (i), "sbegin.@(eventOutStream), i.e. the dual session type to
 * the type of c" (paper 000 §4.1): it accepts the client's request for its event in stream.
 */
@Protocol("sbegin.@(EventOutStream)")
public interface EventOutServer {
}
