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
 * @param clock where rank 0's timed region begins (see {@link #sessionsOpen})
 */
public record RankContext(int rank, int size, List<SJServerSocket> servers, EndpointTable table, Progress progress,
        ProgramClock clock) {

    /** A context whose timed region begins when the program starts (no {@link #sessionsOpen} mark yet). */
    public RankContext(int rank, int size, List<SJServerSocket> servers, EndpointTable table, Progress progress) {
        this(rank, size, servers, table, progress, new ProgramClock(System.nanoTime()));
    }

    /**
     * Says that every session of the program is open, as the program's own structure shows it (rank 0's
     * requests and accepts have returned, or a message has gone round all the ranks' sessions): rank 0's
     * timed region starts here instead of at the barrier before the program, as an MPI program's starts
     * after {@code MPI_Init} has connected every rank. No change per deployment: threads, processes and
     * cluster ranks mark the same point. Only rank 0's first call counts; on other ranks it does nothing.
     * The time before the mark is reported apart ("opening the program's sessions") and stays in the whole job.
     */
    public void sessionsOpen() {
        if (rank == 0) {
            clock.sessionsOpen();
        }
    }

    /** This rank's {@code index}-th server socket. */
    public SJServerSocket server(int index) {
        return servers.get(index);
    }
}
