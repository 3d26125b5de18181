package org.sessionj.examples.chat;

import org.sessionj.api.Protocol;

/** The receiving side of {@link PrivateOutStream}. */
@Protocol("^(PrivateOutStream)")
public interface PrivateInStream {
}
