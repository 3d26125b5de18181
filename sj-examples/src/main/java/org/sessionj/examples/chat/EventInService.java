package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/**
 * {@code p_cs} of paper 000 §4.1: the service the server passes at (i), which the client requests to
 * open the server-to-client event stream.
 */
@Protocol("cbegin.@(EventInStream)")
public interface EventInService {
}
