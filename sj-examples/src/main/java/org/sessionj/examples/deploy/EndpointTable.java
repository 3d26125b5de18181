package org.sessionj.examples.deploy;

import java.util.Arrays;
import java.util.List;
import org.sessionj.api.SJService;

/** Every rank's endpoint, indexed by rank: the result of the rendezvous. */
public final class EndpointTable {
    private final List<Endpoint> endpoints;

    /** The table of {@code endpoints}, where {@code endpoints[r].rank() == r} for every rank. */
    public EndpointTable(Endpoint[] endpoints) {
        for (int r = 0; r < endpoints.length; r++) {
            if (endpoints[r] == null || endpoints[r].rank() != r) {
                throw new IllegalArgumentException("expected the endpoint of rank " + r + " at index " + r
                        + " but found " + endpoints[r]);
            }
        }
        this.endpoints = List.of(endpoints);
    }

    /** The number of ranks. */
    public int size() {
        return endpoints.size();
    }

    /** The endpoint of {@code rank}. */
    public Endpoint endpoint(int rank) {
        return endpoints.get(rank);
    }

    /**
     * The service at {@code rank}'s {@code index}-th server socket (in the order its program opens
     * them), for sessions of {@code protocol}.
     */
    public SJService service(Class<?> protocol, int rank, int index) {
        Endpoint endpoint = endpoint(rank);
        if (index < 0 || index >= endpoint.ports().length) {
            throw new IllegalArgumentException("expected a server socket index below " + endpoint.ports().length
                    + " for rank " + rank + " but found " + index);
        }
        return SJService.create(protocol, endpoint.host(), endpoint.ports()[index]);
    }

    /** The endpoints as an array (a copy). */
    public Endpoint[] toArray() {
        return endpoints.toArray(Endpoint[]::new);
    }

    @Override
    public String toString() {
        return Arrays.toString(toArray());
    }
}
