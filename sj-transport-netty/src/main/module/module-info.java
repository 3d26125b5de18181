/**
 * The {@code tcp} and {@code tls} transports over Netty. Bouncy Castle is optional ({@code requires static}):
 * only self-signed certificates and traditional-form PEM keys need it; on the module path add it with
 * {@code --add-modules org.bouncycastle.pkix}.
 */
// AutoService (an automatic module) names the providers in META-INF/services as well; never needed at run time.
@SuppressWarnings("requires-automatic")
open module org.sessionj.transport.netty {
    // @AutoService (class retention) on the provider classes: needed to read those classes, never at run time.
    requires static com.google.auto.service;
    requires transitive org.sessionj.runtime;
    requires transitive io.netty.buffer;
    requires transitive io.netty.codec;
    requires transitive io.netty.handler;
    requires transitive io.netty.transport;
    requires io.netty.common;
    requires io.netty.transport.classes.epoll;
    requires org.jctools.core;
    requires static org.bouncycastle.pkix;
    requires static org.bouncycastle.provider;

    exports org.sessionj.transport.netty.internal;
    exports org.sessionj.transport.tcp;
    exports org.sessionj.transport.tls;

    provides org.sessionj.runtime.spi.Transport with
        org.sessionj.transport.tcp.TcpTransport,
        org.sessionj.transport.tls.TlsTransport;
}
