package org.sessionj.examples.nbody;

import org.sessionj.api.Protocol;

/** The first unit's side of the ring-closing link: the dual of {@link LastToFirst}. */
@Protocol("^(LastToFirst)")
public interface FirstFromLast {
}
