package org.sessionj.runtime.internal.transport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sessionj.api.SJIOException;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.spi.Connection;
import org.sessionj.runtime.spi.ConnectionAcceptor;
import org.sessionj.runtime.spi.Transport;
import org.sessionj.runtime.spi.support.LazyLogger;

/**
 * The transport manager of a runtime (paper 000 §5.3): resolves transport preferences against the
 * installed transports, opens acceptor groups for server sockets and setup connections for
 * requests. The negotiation itself is in {@link Negotiation}; docs/negotiation.md describes both.
 */
public final class TransportManager {
    /**
     * Identifies this JVM in negotiations: the in-JVM transport is offered only to the same one. Random,
     * not secret ({@link RandomIds}).
     */
    public static final UUID RUNTIME_ID = RandomIds.next();
    private static final int PORT_ATTEMPTS = 20;
    private static final System.Logger LOG = LazyLogger.of(TransportManager.class.getName());

    private static final AtomicBoolean WARNED_IN_JVM_ONLY = new AtomicBoolean();

    private final InstalledTransports installed;
    private final TransportPreferences configured;
    private final Plan defaults;
    private final LocalRoutes routes = new LocalRoutes();
    /** {@code sessionj.ipc.straight}: whether requesters go straight to remembered same-host acceptors. */
    private final boolean straight = org.sessionj.runtime.spi.support.SystemSettings.system().flag("ipc.straight", true);

    /** A manager over {@code installed} (tests: transports made on demand) with {@code configured}. */
    TransportManager(InstalledTransports installed, TransportPreferences configured) {
        this.installed = installed;
        this.configured = configured;
        this.defaults = resolve(configured);
    }

    /**
     * A manager over the installed transports with the runtime-wide {@code preferences}. Only the
     * transports the preferences name are made (all when a list is left to the defaults): the others
     * are made when first named ({@link InstalledTransports}). Built-in transports that are named are
     * made by class name, without a look at the class path's service files.
     *
     * @throws IllegalStateException if no transport is installed
     * @throws IllegalArgumentException if a named transport is not installed, or two setup transports
     *         share a port space
     */
    public static TransportManager create(TransportPreferences preferences) {
        InstalledTransports installed = InstalledTransports.load(TransportManager.class.getClassLoader());
        List<String> named = new ArrayList<>(preferences.setup());
        named.addAll(preferences.session());
        if (installed.isEmpty(named)) {
            throw new IllegalStateException("no SJ transport on the class path: add org.sessionj:sj-transport-shm"
                    + " (in-JVM) or org.sessionj:sj-transport-netty (TCP)");
        }
        return new TransportManager(installed, preferences);
    }

    /** A manager over exactly {@code transports} (tests: transports that fail on purpose). */
    static TransportManager of(List<Transport> transports, TransportPreferences preferences) {
        return new TransportManager(InstalledTransports.of(transports), preferences);
    }

    /** The runtime-wide plan. */
    public Plan defaults() {
        return defaults;
    }

    /** The plan for per-service or per-server {@code preferences} (empty lists: the runtime's). */
    public Plan plan(TransportPreferences preferences) {
        TransportPreferences merged = preferences.orElse(configured);
        return merged.equals(configured) ? defaults : resolve(merged);
    }

    private Plan resolve(TransportPreferences preferences) {
        List<Transport> setup = resolve(preferences.setup(), false);
        List<Transport> session = resolve(preferences.session(), true);
        Map<String, String> spaces = new HashMap<>();
        for (Transport transport : setup) {
            String other = spaces.putIfAbsent(transport.portSpace(), transport.name());
            if (other != null) {
                throw new IllegalArgumentException("setup transports " + other + " and " + transport.name()
                        + " map session ports to the same ports (" + transport.portSpace() + "), so only one of them"
                        + " can serve a session port: name one of them as a setup transport and keep the other as a"
                        + " session transport (it then listens on a port of its own, found by negotiation)");
            }
        }
        return new Plan(setup, session, preferences.session().isEmpty());
    }

    /**
     * The named transports, or by default those enabled by default (in-JVM first), followed, for
     * sessions, by the others (TLS): a requester then accepts them when a server asks for them, and
     * a server offers them when it can listen on them. Indirect transports (HTTP tunnels) come last,
     * and only when enabled by default (http with a relay configured): a server does not open an HTTP
     * port nobody asked for.
     */
    private List<Transport> resolve(List<String> names, boolean forSessions) {
        if (names.isEmpty()) {
            List<Transport> all = new ArrayList<>(installed.all().stream()
                    .filter(t -> t.enabledByDefault() ? forSessions || t.servesSetup() : forSessions && !t.indirect())
                    .toList());
            all.sort(Comparator.comparing(Transport::indirect).thenComparing((Transport t) -> !t.enabledByDefault())
                    .thenComparing(Negotiation.Reach::of).thenComparing(Transport::name));
            return List.copyOf(all);
        }
        List<Transport> chosen = new ArrayList<>();
        for (String name : names) {
            Transport transport = installed.find(name);
            if (transport == null) {
                throw new IllegalArgumentException("transport '" + name + "' is not installed; installed transports: "
                        + installed.all().stream().map(Transport::name).toList());
            }
            if (forSessions || transport.servesSetup()) {
                chosen.add(transport); // a session-only transport in a setup list (transports(...)) carries sessions only
            }
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("no setup transport in " + names + ": " + String.join(", ", names)
                    + " carry sessions only, after negotiation over a setup transport such as tcp; name one as well");
        }
        return List.copyOf(chosen);
    }

    /**
     * Resolved preferences: setup transports in the order tried, session transports in order of
     * preference; {@code defaultSession} when the session list is the installed default (a server then
     * offers only the default-disabled and same-host transports it can listen on).
     */
    public record Plan(List<Transport> setup, List<Transport> session, boolean defaultSession) {

        /** The names of the session transports, in order. */
        public List<String> sessionNames() {
            return session.stream().map(Transport::name).toList();
        }

        /** The names of the setup transports, in order. */
        public List<String> setupNames() {
            return setup.stream().map(Transport::name).toList();
        }
    }

    /**
     * A connection and the transport that made it; for a setup connection also the setup transports
     * tried before it that could not reach the peer (their sessions would not get through either).
     */
    public record Opened(Connection connection, Transport transport, List<String> unreachable) {

        /** A connection made by the first transport tried. */
        public Opened(Connection connection, Transport transport) {
            this(connection, transport, List.of());
        }
    }

    /**
     * Phase one of the negotiation: a setup connection to session port {@code host:port} with the
     * first setup transport of {@code plan} that reaches it. Every attempt but the last is bounded by
     * {@code attemptNanos} (negative: none), so that a transport whose packets a firewall drops gives
     * way to the next (the relay) in bounded time; the last by {@code timeoutNanos}. An attempt's
     * reachability check ({@link Transport#canReach(String, int, long)}) and its connect share that time.
     */
    public Opened setup(Plan plan, String host, int port, long timeoutNanos, long attemptNanos) {
        List<String> failures = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        List<Transport> setup = plan.setup();
        for (int i = 0; i < setup.size(); i++) {
            Transport transport = setup.get(i);
            long attempt = i == setup.size() - 1 ? timeoutNanos : bounded(timeoutNanos, attemptNanos);
            long start = System.nanoTime();
            // The check gets the attempt's time, not a bound of its own: a relay check with a fixed 2 s bound
            // made a cold requester on a loaded machine give up on a relay that was up (FirewallRealTest).
            if (!transport.canReach(host, port, attempt)) {
                failures.add(transport.name() + ": cannot reach it");
                unreachable.add(transport.name());
                continue;
            }
            try {
                return new Opened(transport.connect(host, port, remaining(attempt, start)), transport,
                        List.copyOf(unreachable));
            } catch (IOException e) {
                failures.add(transport.name() + ": " + e.getMessage());
                unreachable.add(transport.name());
            }
        }
        throw new SJIOException("cannot connect to session port " + host + ":" + port + " with any setup transport ("
                + String.join("; ", failures) + ")" + likelyCause(host, port, unreachable.size() == setup.size()
                        && failures.stream().allMatch(failure -> failure.endsWith(": cannot reach it"))));
    }

    /**
     * Why no transport reached {@code host:port}, when it can be told (adv15 A24: a typo in the host name and a
     * server that is down read alike): the host has no address, or nothing accepted a connection there. Asked
     * only after every transport failed, so a name lookup costs nothing on the way to a session.
     */
    private static String likelyCause(String host, int port, boolean noneAnswered) {
        try {
            java.net.InetAddress.getAllByName(host);
        } catch (java.net.UnknownHostException e) {
            return ": the host name '" + host + "' is unknown (no address for it: check its spelling)";
        } catch (RuntimeException e) {
            return "";
        }
        return noneAnswered ? ": nothing accepted a connection there (is the server running, and listening on port "
                + port + "?)" : "";
    }

    /** What is left of {@code attemptNanos} (negative: none) begun at {@code start}; at least 1 ns. */
    private static long remaining(long attemptNanos, long start) {
        if (attemptNanos < 0) {
            return attemptNanos;
        }
        return Math.max(1, attemptNanos - (System.nanoTime() - start));
    }

    private static long bounded(long timeoutNanos, long boundNanos) {
        if (boundNanos < 0) {
            return timeoutNanos;
        }
        return timeoutNanos < 0 ? boundNanos : Math.min(timeoutNanos, boundNanos);
    }

    /** The same-host acceptors this runtime's requesters were sent to (docs/negotiation.md). */
    public LocalRoutes routes() {
        return routes;
    }

    /**
     * The remembered same-host acceptor for session port {@code host:port} that a request with
     * {@code plan} may go straight to, or null: there is none, the plan does not list its transport,
     * an in-JVM setup transport reaches the port (the negotiation would pick the in-JVM transport),
     * its acceptor is gone (then the route is forgotten), or {@code sessionj.ipc.straight} is false.
     */
    public LocalRoutes.Route localRoute(Plan plan, String host, int port) {
        LocalRoutes.Route route = straight ? routes.find(host, port) : null;
        if (route == null) {
            return null;
        }
        Transport transport = installed.find(route.transport());
        if (transport == null || !plan.session().contains(transport)) {
            return null;
        }
        for (Transport setup : plan.setup()) {
            if (setup.inJvmOnly() && setup.canReach(host, port)) {
                return null;
            }
        }
        if (!transport.canReach(host, route.port())) {
            routes.forget(host, port, route);
            return null;
        }
        return route;
    }

    /** Whether the installed transport {@code name} is a detour ({@link Transport#indirect()}: an HTTP tunnel). */
    public boolean isIndirect(String name) {
        Transport transport = installed.find(name);
        return transport != null && transport.indirect();
    }

    /** Whether the installed transport {@code name} reaches only peers on this host (or in this JVM). */
    public boolean isSameHostOnly(String name) {
        Transport transport = installed.find(name);
        return transport != null && transport.sameHostOnly();
    }

    /**
     * Whether sessions moved to the installed transport {@code name} may later go straight to its
     * acceptor ({@link LocalRoutes}): a same-host transport that is neither in-JVM nor a setup transport
     * ({@code ipc}).
     */
    public boolean isRoutable(String name) {
        Transport transport = installed.find(name);
        return transport != null && transport.sameHostOnly() && !transport.inJvmOnly() && !transport.servesSetup();
    }

    /** Opens the negotiated session connection over {@code transportName} to its own {@code port}. */
    public Opened connectSession(String transportName, String host, int port, long timeoutNanos) throws IOException {
        Transport transport = installed.find(transportName);
        if (transport == null) {
            throw new IOException("the negotiated transport " + transportName + " is not installed here");
        }
        String target = transport.sameHostOnly() ? "localhost" : host;
        return new Opened(transport.connect(target, port, timeoutNanos), transport);
    }

    /**
     * Opens the acceptor group of a server socket: every setup transport listens on session port
     * {@code port} ({@code 0} picks one free on all of them); every session transport that is not
     * also a setup transport listens on a free port of its own, advertised in negotiation.
     *
     * <p>With {@code port} 0 the first (port-scarce) setup transport picks a free port and the others
     * must listen on the same number in their own port spaces, where it may be taken
     * ({@link java.net.BindException}): then the whole group is closed and opened again on another
     * port, up to 20 times. That is the only failure a retry can mend; any other
     * (a port named by the program and taken, a bad bind address, a transport that cannot listen at
     * all) fails at once, naming the transport and the port; except that a session transport the program
     * did not name (the default list) is left out when it cannot listen and is off by default or reaches
     * only this host (ipc: the others carry the same sessions), with a warning when it was on by default.
     */
    public AcceptorGroup listen(Plan plan, int port) {
        // In-JVM ports are plentiful; let a port-scarce transport pick first. Two loops, not a sort by a
        // Comparator.comparing lambda: its class is spun on a fresh JVM's first server socket even with an
        // AOT cache (issue 15, cold start).
        List<Transport> setupOrder = new ArrayList<>(plan.setup().size());
        for (Transport transport : plan.setup()) {
            if (!transport.inJvmOnly()) {
                setupOrder.add(transport);
            }
        }
        for (Transport transport : plan.setup()) {
            if (transport.inJvmOnly()) {
                setupOrder.add(transport);
            }
        }
        List<String> conflicts = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            List<AcceptorGroup.Member> members = new ArrayList<>();
            int chosen = port;
            Transport failing = null;
            try {
                for (Transport transport : setupOrder) {
                    failing = transport;
                    ConnectionAcceptor acceptor = transport.listen(chosen);
                    members.add(new AcceptorGroup.Member(transport, acceptor, true));
                    chosen = acceptor.port();
                }
                for (Transport transport : plan.session()) {
                    if (plan.setup().contains(transport)) {
                        continue;
                    }
                    failing = transport;
                    try {
                        members.add(new AcceptorGroup.Member(transport, transport.listen(0), false));
                    } catch (IOException e) {
                        if (!plan.defaultSession() || transport.enabledByDefault() && !transport.sameHostOnly()) {
                            throw e;
                        }
                        // A same-host transport the program did not name only speeds up what the others carry: one
                        // that cannot listen is left out, loudly if it was on by default (hostile22 H22-2: another
                        // local user who made ipc's default directory in /tmp first kept every default server
                        // socket of this user from listening at all).
                        LOG.log(transport.enabledByDefault() ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                                "not offering session transport {0}: {1}; its sessions go over the other transports"
                                        + " (name {0} in sessionj.transports to make this an error)",
                                transport.name(), e.getMessage());
                    }
                }
                warnIfOnlyThisJvmCanReach(chosen);
                return new AcceptorGroup(members, plan, chosen);
            } catch (IOException e) {
                members.forEach(m -> m.acceptor().close());
                // Only a port this method chose (port 0, taken in a later transport's space) is worth another try.
                boolean chosenPortTaken = port == 0 && e instanceof java.net.BindException
                        && !members.isEmpty() && plan.setup().contains(failing);
                if (!chosenPortTaken) {
                    throw new SJIOException(listenFailure(port, failing, e, conflicts), e);
                }
                conflicts.add(failing.name() + " " + chosen);
                if (attempt == PORT_ATTEMPTS) {
                    throw new SJIOException("cannot listen on a session port: " + PORT_ATTEMPTS + " ports free for "
                            + setupOrder.get(0).name() + " were taken in another setup transport's port space ("
                            + String.join(", ", conflicts) + "); last: " + e.getMessage(), e);
                }
                LOG.log(System.Logger.Level.DEBUG, "session port {0} is free for {1} but taken for {2}; trying another",
                        String.valueOf(chosen), setupOrder.get(0).name(), failing.name());
            }
        }
    }

    private static String listenFailure(int port, Transport failing, IOException e, List<String> conflicts) {
        String where = port == 0 ? "a free session port" : "session port " + port;
        String which = failing == null ? "" : " with " + failing.name();
        String taken = e instanceof java.net.BindException && port != 0
                ? " (a server socket on port 0 picks a free one)" : "";
        String before = conflicts.isEmpty() ? "" : " (after " + conflicts.size() + " chosen ports taken: "
                + String.join(", ", conflicts) + ")";
        return "cannot listen on " + where + which + ": " + e.getMessage() + taken + before;
    }

    /**
     * Says once per JVM when a server's session port can be reached from this JVM only because no
     * installed transport serves other processes: a program that lists only sj-transport-shm binds no
     * network port, and its clients elsewhere would fail with nothing on the server side to explain it.
     * A runtime configured to in-JVM transports chose that, and is not told: the check runs only when a
     * transport list was left to the defaults, which is when every installed transport is known (a
     * runtime that names its transports makes only those, {@link InstalledTransports}).
     */
    private void warnIfOnlyThisJvmCanReach(int port) {
        if (!installed.complete()) {
            return;
        }
        inJvmOnlyWarning(installed.all(), port).ifPresent(message -> {
            if (WARNED_IN_JVM_ONLY.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.WARNING, message);
            }
        });
    }

    /** The warning for a server on {@code port} when every installed setup transport is in-JVM only. */
    static Optional<String> inJvmOnlyWarning(Collection<Transport> installed, int port) {
        List<Transport> setup = installed.stream().filter(Transport::servesSetup).toList();
        if (setup.isEmpty() || !setup.stream().allMatch(Transport::inJvmOnly)) {
            return Optional.empty();
        }
        return Optional.of("session port " + port + " is served only by in-JVM transports ("
                + String.join(", ", installed.stream().map(Transport::name).toList()) + " installed): clients in"
                + " other JVMs cannot reach it and will fail with 'cannot reach it'. To serve other processes add"
                + " org.sessionj:sj-transport-netty (tcp, tls) or org.sessionj:sj-all (every transport) to the"
                + " class path");
    }
}
