package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The receiving side of {@link EventOutStream} (paper 000 Fig. 9, {@code eventInStream}). */
@Protocol("^(EventOutStream)")
public interface EventInStream {
}
