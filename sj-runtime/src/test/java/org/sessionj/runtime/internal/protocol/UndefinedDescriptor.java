package org.sessionj.runtime.internal.protocol;

import org.sessionj.api.Protocol;

/** A protocol whose descriptor class defines nothing (not one sj-processor generated). */
@Protocol("cbegin.!<int>")
public interface UndefinedDescriptor {
}
