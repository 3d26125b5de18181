package org.sessionj.examples.tally;

import org.sessionj.api.Protocol;

/**
 * The protocols of the tally demo: clients add numbers to one shared total, each addition answered
 * with the total so far, until they quit. The server's side is split into the two points at which a
 * session waits for input, so that one thread can serve every client with a typed selector.
 */
public final class TallyProtocols {
    private TallyProtocols() {
    }

    /** A client's side: any number of rounds, each an addition answered with the running total. */
    @Protocol("cbegin.rec X[!{ADD: !<int>.?(int).#X, QUIT: }]")
    public interface TallyClient {
    }

    /** The server's side of a whole session. */
    @Protocol("sbegin.@(Rounds)")
    public interface TallyService {
    }

    /** A session waiting for its client's next choice: add, or quit. */
    @Protocol("rec X[?{ADD: ?(int).!<int>.#X, QUIT: }]")
    public interface Rounds {
    }

    /** A session whose client chose to add and whose number has yet to arrive. */
    @Protocol("?(int).!<int>.@(Rounds)")
    public interface Pending {
    }
}
