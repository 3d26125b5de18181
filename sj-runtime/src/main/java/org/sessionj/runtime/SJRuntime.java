package org.sessionj.runtime;

import java.security.Principal;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJScope;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.internal.session.SessionContext;
import org.sessionj.runtime.internal.session.SessionScope;
import org.sessionj.runtime.internal.session.SessionSelector;
import org.sessionj.runtime.internal.session.SessionServerSocket;
import org.sessionj.runtime.internal.session.SessionService;
import org.sessionj.runtime.internal.session.SessionSocket;
import org.sessionj.runtime.internal.transport.TransportManager;
import org.sessionj.runtime.spi.AuthenticatedConnection;

/**
 * A session runtime with one configuration. The public API's static factories
 * ({@code SJService.create} and friends) use the process-wide one, {@link #global()}; a program that
 * needs other settings for some sessions makes its own with {@link #create}.
 */
public final class SJRuntime {
    private static volatile SJRuntime global;

    private final SJRuntimeConfig config;
    private final TransportManager transports;
    private final SessionContext context;

    private SJRuntime(SJRuntimeConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.transports = TransportManager.create(config.transports());
        this.context = SessionContext.of(transports, config);
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
        return new SessionService(ProtocolRegistry.forCreate(protocol), host, port, transports.defaults(), context);
    }

    /**
     * A service whose requests use {@code preferences} (each empty list: this runtime's) for setup and
     * for the session transport negotiation (docs/negotiation.md).
     *
     * @throws IllegalArgumentException if a named transport is not installed
     */
    public SJService service(Class<?> protocol, String host, int port, TransportPreferences preferences) {
        return new SessionService(ProtocolRegistry.forCreate(protocol), host, port, transports.plan(preferences), context);
    }

    /** See {@link SJServerSocket#create}. */
    public SJServerSocket serverSocket(Class<?> protocol, int port) {
        return new SessionServerSocket(ProtocolRegistry.forCreate(protocol), port, transports.defaults(), context);
    }

    /**
     * A server socket that serves its session port with the setup transports of {@code preferences}
     * and offers their session transports (each empty list: this runtime's).
     *
     * @throws IllegalArgumentException if a named transport is not installed
     */
    public SJServerSocket serverSocket(Class<?> protocol, int port, TransportPreferences preferences) {
        return new SessionServerSocket(ProtocolRegistry.forCreate(protocol), port, transports.plan(preferences), context);
    }

    /**
     * The name of the transport {@code socket}'s session runs over (e.g. {@code "shm"}, {@code "tcp"},
     * {@code "tls"}), as negotiated.
     */
    public static String transportOf(SJSocket socket) {
        return session(socket).connection().transportName();
    }

    /**
     * The peer's authenticated identity when the session runs over a transport that authenticates
     * peers (TLS with a client or server certificate); empty otherwise.
     */
    public static Optional<Principal> peerPrincipal(SJSocket socket) {
        AuthenticatedConnection authenticated = session(socket).connection().capability(AuthenticatedConnection.class);
        return authenticated == null ? Optional.empty() : Optional.ofNullable(authenticated.peerPrincipal());
    }

    /**
     * How many session requests {@code server} refused or lost during their handshake (malformed,
     * incompatible, not completed within the initiation timeout). {@code accept()} returns only
     * compatible sessions and never fails for one bad requester; this count is where they show.
     */
    public static long failedHandshakes(SJServerSocket server) {
        if (server instanceof SessionServerSocket socket) {
            return socket.failedHandshakes();
        }
        throw new IllegalArgumentException("not a server socket of this runtime: " + server);
    }

    /**
     * Sets the one listener told why each session request to {@code server} was refused or lost
     * (what {@code accept()} does not throw: {@link org.sessionj.api.SJIncompatibleSessionException} for
     * incompatible types, {@link org.sessionj.api.SJTimeoutException} for a requester too slow, an
     * {@link org.sessionj.api.SJIOException} otherwise); it runs on the handshake's thread and must not
     * block. A server that waits for one particular requester (an invitation) can close itself from
     * it, so that its waiting {@code accept()} fails at once. {@code null} removes it.
     */
    public static void onFailedHandshake(SJServerSocket server,
            java.util.function.Consumer<? super org.sessionj.api.SJException> listener) {
        if (server instanceof SessionServerSocket socket) {
            socket.onFailedHandshake(listener);
            return;
        }
        throw new IllegalArgumentException("not a server socket of this runtime: " + server);
    }

    /**
     * Sets the one listener told of each session of this runtime closed before its type was complete.
     * {@code close()} (and try-with-resources) abandons such a session without throwing — on an exception
     * path a throw would replace the program's own exception — and tells the peer at once; this listener
     * is where the abandonment shows locally (the exception's message names the next action the type
     * expected, its stack trace the close). It runs on the closing thread and must not block; what it
     * throws (an {@code AssertionError} too; only a {@code VirtualMachineError} propagates) is logged, not thrown. Without a listener the runtime logs it at {@code DEBUG}. {@code null}
     * removes it.
     */
    public void onAbandonedSession(Consumer<? super SJProtocolViolationException> listener) {
        context.events().onAbandoned(listener);
    }

    private static SessionSocket session(SJSocket socket) {
        if (socket instanceof SessionSocket session) {
            return session;
        }
        throw new IllegalArgumentException("not a socket of this runtime: " + socket);
    }

    /** See {@link SJSelector#open}. */
    public SJSelector openSelector() {
        return new SessionSelector();
    }

    /** See {@link SJSelector#of}: a typed selector over the sessions of {@code protocols}. */
    public SJSelector openSelector(Class<?>... protocols) {
        return new SessionSelector(protocols);
    }

    /** See {@link org.sessionj.api.SJ#scope}. */
    public SJScope scope() {
        return new SessionScope();
    }
}
