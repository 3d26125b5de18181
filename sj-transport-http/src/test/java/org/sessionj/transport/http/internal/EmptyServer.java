package org.sessionj.transport.http.internal;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A tunnel server on loopback that knows no connection and answers every other request 204: for
 * tests of the server's own machinery (binding, closing) and of a client channel's.
 */
final class EmptyServer {
    /** No halves; everything else answered "nothing new". */
    static final Routes ROUTES = new Routes() {
        @Override
        public Half half(String token) {
            return null;
        }

        @Override
        public void route(Exchange exchange) {
            exchange.empty();
        }
    };

    private EmptyServer() {
    }

    /** Binds a free loopback port with the settings of the system properties. */
    static TunnelServer bind() throws IOException {
        return TunnelServer.bind(new InetSocketAddress("127.0.0.1", 0), null, HttpSettings.fromSystemProperties(), ROUTES,
                16, 30_000, 1 << 20);
    }
}
