package org.sessionj.runtime;

import java.util.Objects;
import org.sessionj.api.SJScope;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.session.SessionScope;
import org.sessionj.runtime.internal.session.SessionSelector;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.runtime.internal.session.SessionService;
import org.sessionj.runtime.internal.transport.TransportManager;

/**
 * A session runtime with one configuration. The public API's static factories
 * ({@code SJService.create} and friends) use the process-wide one, {@link #global()}; a program that
 * needs other settings for some sessions makes its own with {@link #create}.
 */
public final class SJRuntime {
    private static volatile SJRuntime global;

    private final SJRuntimeConfig config;
    private final TransportManager transports;

    private SJRuntime(SJRuntimeConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.transports = TransportManager.select(config.transports());
    }

    /** A runtime with {@code config}. Fails if a named transport is not installed. */
    public static SJRuntime create(SJRuntimeConfig config) {
        return new SJRuntime(config);
    }

    /** The process-wide runtime: {@link SJRuntimeConfig#defaults()} unless {@link #configure}d. */
    public static SJRuntime global() {
        SJRuntime runtime = global;
        if (runtime == null) {
            synchronized (SJRuntime.class) {
                runtime = global;
                if (runtime == null) {
                    runtime = new SJRuntime(SJRuntimeConfig.defaults());
                    global = runtime;
                }
            }
        }
        return runtime;
    }

    /** Replaces the process-wide runtime's configuration; sessions opened before keep theirs. */
    public static void configure(SJRuntimeConfig config) {
        global = new SJRuntime(config);
    }

    /** This runtime's configuration. */
    public SJRuntimeConfig config() {
        return config;
    }

    /** See {@link SJService#create}. */
    public SJService service(Class<?> protocol, String host, int port) {
        return new SessionService(ProtocolRegistry.of(protocol), host, port, transports, config);
    }

    /** See {@link SJServerSocket#create}. */
    public SJServerSocket serverSocket(Class<?> protocol, int port) {
        return new SessionServerSocket(ProtocolRegistry.of(protocol), port, transports, config);
    }

    /** See {@link SJSelector#open}. */
    public SJSelector openSelector() {
        return new SessionSelector();
    }

    /** See {@link org.sessionj.api.SJ#scope}. */
    public SJScope scope() {
        return new SessionScope();
    }
}
