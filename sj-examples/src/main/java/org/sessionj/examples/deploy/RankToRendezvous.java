package org.sessionj.examples.deploy;

import org.sessionj.api.Protocol;

/**
 * A rank's side of the rendezvous: it registers its endpoint and gets the whole table once every
 * rank has registered, or the reason the run cannot start.
 */
@Protocol("cbegin.!<Registration>.?{TABLE: ?(Endpoint[]), REJECTED: ?(String)}")
public interface RankToRendezvous {
}
