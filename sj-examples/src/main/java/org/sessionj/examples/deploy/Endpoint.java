package org.sessionj.examples.deploy;

import java.util.Arrays;

/**
 * Where one rank listens: its host and the session ports of its server sockets.
 *
 * @param rank the rank
 * @param host the address other ranks use
 * @param ports the session ports, in the order the rank's program opens its server sockets, then the
 *     rank's connect port ({@link Connecting})
 */
public record Endpoint(int rank, String host, int[] ports) {

    @Override
    public String toString() {
        return "rank " + rank + " at " + host + " " + Arrays.toString(ports);
    }
}
