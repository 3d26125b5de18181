package org.sessionj.examples.deploy;

import org.sessionj.api.Protocol;

/** The rendezvous service's side of a registration: the dual of {@link RankToRendezvous}. */
@Protocol("^(RankToRendezvous)")
public interface RendezvousToRank {
}
