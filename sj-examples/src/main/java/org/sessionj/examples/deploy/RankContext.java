package org.sessionj.examples.deploy;

import java.util.List;
import org.sessionj.api.SJServerSocket;

/**
 * What a rank's program gets from its deployment: who it is, its own server sockets (opened before
 * the rendezvous, in the order {@link RankProgram#accepts} listed their protocols) and where every
 * other rank listens.
 *
 * @param rank this rank
 * @param size the number of ranks
 * @param servers this rank's server sockets
 * @param table every rank's endpoint
 * @param progress where rank 0 reports progress (ignored on other ranks)
 */
public record RankContext(int rank, int size, List<SJServerSocket> servers, EndpointTable table, Progress progress) {

    /** This rank's {@code index}-th server socket. */
    public SJServerSocket server(int index) {
        return servers.get(index);
    }
}
