/** The {@code shm} (in-JVM) and {@code ipc} (shared memory between JVMs of one host) transports. */
// AutoService (an automatic module) names the providers in META-INF/services as well; never needed at run time.
@SuppressWarnings("requires-automatic")
open module org.sessionj.transport.shm {
    // @AutoService (class retention) on the provider classes: needed to read those classes, never at run time.
    requires static com.google.auto.service;
    requires transitive org.sessionj.runtime;
    requires io.netty.buffer;

    exports org.sessionj.transport.ipc;
    exports org.sessionj.transport.shm;

    provides org.sessionj.runtime.spi.Transport with
        org.sessionj.transport.shm.ShmTransport,
        org.sessionj.transport.ipc.IpcTransport;
}
