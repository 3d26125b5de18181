package org.sessionj.examples.deploy;

import org.sessionj.api.Protocol;

/**
 * A rank's session with another rank while the ranks connect ({@link Connecting}): it says its rank,
 * then either CONNECT (the other rank answers with its own at once) or READY (only to rank 0, which
 * answers once every rank is ready: the barrier).
 */
@Protocol("cbegin.!<int>.!{CONNECT: ?(int), READY: ?(int)}")
public interface RankToRank {
}
