package org.sessionj.runtime.internal.protocol;

import org.sessionj.api.Protocol;

/**
 * A protocol with a descriptor class ({@code ClassDescribed$$SJProtocol}: {@code cbegin.!<String>}), a
 * descriptor resource ({@code cbegin.!<Long>}) and an annotation ({@code cbegin.!<int>}): the class wins.
 */
@Protocol("cbegin.!<int>")
public interface ClassDescribed {
}
