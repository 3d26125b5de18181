package org.sessionj.transport.http.relay;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import javax.net.ssl.SSLException;
import org.sessionj.transport.http.internal.Endpoint;
import org.sessionj.transport.http.internal.HttpClientChannel;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.TunnelConnection;
import org.sessionj.transport.http.internal.Wire;

/** {@link HttpRelay#selfCheck}: one request to the relay through its own port, as a peer would make it. */
final class RelaySelfCheck {
    private RelaySelfCheck() {
    }

    /**
     * Asks the relay bound at {@code address} (port {@code port}, HTTPS when {@code tls}) whether a server is
     * registered for a name nobody registers, and returns how long the answer took.
     *
     * @throws IOException if no answer came within {@code timeout}
     */
    static Duration run(InetSocketAddress address, int port, boolean tls, HttpSettings settings, Duration timeout)
            throws IOException {
        InetAddress bound = address.getAddress();
        String host = (bound == null || bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound)
                .getHostAddress();
        SslContext client = null;
        if (tls) {
            try {
                client = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                        .endpointIdentificationAlgorithm(null).build();
            } catch (SSLException e) {
                throw new IOException("cannot make the TLS context of the relay's self-check: " + e.getMessage(), e);
            }
        }
        Endpoint self = new Endpoint(host, port, client, settings);
        HttpClientChannel channel = new HttpClientChannel(self);
        long start = System.nanoTime();
        try {
            FullHttpResponse answer = TunnelConnection.await(channel.send(channel.request(HttpMethod.GET,
                    Wire.TARGET + "?name=sj-relay-self-check:1", null), timeout.toMillis()), timeout.toNanos(), self);
            answer.release();
            return Duration.ofNanos(System.nanoTime() - start);
        } catch (IOException e) {
            throw new IOException("the relay does not answer on its own port (" + self + "): " + e.getMessage(), e);
        } finally {
            channel.close();
        }
    }
}
