package org.sessionj.examples.deploy;

/**
 * What a rank tells the rendezvous: who it is, how many ranks it believes the run has, and where
 * its session ports listen.
 *
 * @param rank this rank, from 1 to {@code size - 1} (rank 0 hosts the rendezvous)
 * @param size the number of ranks this rank was started for
 * @param host the address the other ranks reach this rank at
 * @param ports the session ports of this rank's server sockets, in the order its program opens them, then
 *     the port the other ranks connect to before the program starts ({@link Connecting})
 */
public record Registration(int rank, int size, String host, int[] ports) {
}
