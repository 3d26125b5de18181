package org.sessionj.transport.http.session;

import org.sessionj.api.Protocol;

/** Protocols of the http session tests (parsed at run time: no processor here). */
public final class HttpProtocols {
    private HttpProtocols() {
    }

    /** A loop of round trips, then a branch: sums of arrays or echoes of texts. */
    @Protocol("cbegin.![!<int>.?(int)]*.!{SUM: !<int[]>.?(long), ECHO: !<String>.?(String)}")
    public interface LoopClient {
    }

    /** The dual of {@link LoopClient}. */
    @Protocol("^(LoopClient)")
    public interface LoopServer {
    }

    /** One big array there, its sum back, then one int there after a pause. */
    @Protocol("cbegin.!<byte[]>.?(long).!<int>.?(int)")
    public interface BulkClient {
    }

    /** The dual of {@link BulkClient}. */
    @Protocol("^(BulkClient)")
    public interface BulkServer {
    }

    /** A stream of arrays there, then the end: the requester writes a burst and closes. */
    @Protocol("cbegin.![!<byte[]>]*")
    public interface BurstClient {
    }

    /** The dual of {@link BurstClient}. */
    @Protocol("^(BurstClient)")
    public interface BurstServer {
    }

    /** A stream of arrays back, then the end: the server writes a burst and closes. */
    @Protocol("cbegin.?[?(byte[])]*")
    public interface SinkClient {
    }

    /** The dual of {@link SinkClient}. */
    @Protocol("^(SinkClient)")
    public interface SinkServer {
    }
}
