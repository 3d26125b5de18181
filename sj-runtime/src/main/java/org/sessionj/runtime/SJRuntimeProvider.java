package org.sessionj.runtime;

import com.google.auto.service.AutoService;
import org.sessionj.api.SJScope;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJThread;
import org.sessionj.api.spi.SessionRuntimeProvider;
import org.sessionj.runtime.internal.session.Join;
import org.sessionj.runtime.internal.session.Multicast;
import org.sessionj.runtime.internal.session.SessionThreads;

/**
 * Connects the public API's static factories to {@link SJRuntime#global()} (found by its class name,
 * else by ServiceLoader).
 */
@AutoService(SessionRuntimeProvider.class)
public final class SJRuntimeProvider implements SessionRuntimeProvider {

    /** Called by the API's look-up of this class by name, or by {@link java.util.ServiceLoader}. */
    public SJRuntimeProvider() {
    }

    @Override
    public SJService createService(Class<?> protocol, String host, int port) {
        return SJRuntime.global().service(protocol, host, port);
    }

    @Override
    public SJServerSocket createServerSocket(Class<?> protocol, int port) {
        return SJRuntime.global().serverSocket(protocol, port);
    }

    @Override
    public SJSelector openSelector() {
        return SJRuntime.global().openSelector();
    }

    @Override
    public SJSelector openSelector(Class<?>[] protocols) {
        return SJRuntime.global().openSelector(protocols);
    }

    @Override
    public SJScope openScope() {
        return SJRuntime.global().scope();
    }

    @Override
    public boolean multicastOutwhile(boolean condition, SJSocket... sockets) {
        return Multicast.outwhile(condition, sockets);
    }

    @Override
    public boolean multicastInwhile(SJSocket... sockets) {
        return Multicast.inwhile(sockets);
    }

    @Override
    public java.util.List<Object> join(SJSocket[] sockets) {
        return Join.receiveAll(sockets);
    }

    @Override
    public SJThread spawn(SJSocket[] sockets, SJThread.Task body) {
        return SessionThreads.spawn(sockets, body);
    }
}
