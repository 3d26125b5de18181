package org.sessionj.examples.nbody;

import org.sessionj.api.Protocol;

/** The first unit's side of a result report: the dual of {@link ResultToFirst}. */
@Protocol("^(ResultToFirst)")
public interface FirstFromResult {
}
