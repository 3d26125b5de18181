package org.sessionj.runtime.internal.protocol;

import org.sessionj.api.Protocol;

/** A protocol whose descriptor class fails in its static initialiser. */
@Protocol("cbegin.!<int>")
public interface BrokenDescriptor {
}
