/** The {@code http} and {@code https} transports (WebSocket or long polling), direct or through a relay. */
// AutoService (an automatic module) names the providers in META-INF/services as well; never needed at run time.
@SuppressWarnings("requires-automatic")
open module org.sessionj.transport.http {
    // @AutoService (class retention) on the provider classes: needed to read those classes, never at run time.
    requires static com.google.auto.service;
    requires transitive org.sessionj.runtime;
    requires transitive org.sessionj.transport.netty;
    requires transitive io.netty.buffer;
    requires transitive io.netty.codec.http;
    requires transitive io.netty.common;
    requires transitive io.netty.handler;
    requires transitive io.netty.transport;
    requires io.netty.codec;

    exports org.sessionj.transport.http;
    exports org.sessionj.transport.http.internal;
    exports org.sessionj.transport.http.relay;

    provides org.sessionj.runtime.spi.Transport with
        org.sessionj.transport.http.HttpTransport,
        org.sessionj.transport.http.HttpsTransport;
}
