package org.sessionj.examples.deploy;

import org.sessionj.api.Protocol;

/** The accepting side of {@link RankToRank}, served by every rank's connect port. */
@Protocol("^(RankToRank)")
public interface RankFromRank {
}
