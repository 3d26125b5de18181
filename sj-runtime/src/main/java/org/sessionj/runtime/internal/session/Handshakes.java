package org.sessionj.runtime.internal.session;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sessionj.runtime.internal.protocol.CompiledProtocol;
import org.sessionj.runtime.internal.transport.AcceptorGroup;
import org.sessionj.runtime.spi.support.LazyLogger;

/**
 * The handshakes of one server socket, off the thread that calls {@code accept()}: a virtual thread
 * takes connections from the acceptor group and starts a virtual thread per connection that runs its
 * initiation with its own deadline (the initiation timeout, counted from the connection's accept where the
 * transport says when that was: {@link org.sessionj.runtime.spi.Connection#acceptedNanos}). Compatible sessions queue for
 * {@code accept()}; a requester that stalls, lies or is incompatible fails only its own handshake,
 * which is logged and counted ({@link #failures()}).
 *
 * <p>Bounded: at most {@code maxPending} connections are in a handshake or agreed and waiting for
 * {@code accept()} (plus the one connection taken that waits for a slot). A slot is given back when
 * its handshake fails, moves to another transport, or its session is taken. At the limit, a new
 * connection does not simply wait for one of those to end (up to the initiation timeout, which let
 * 4,096 connections that send one byte hold every new client off for 30 s, again and again): a handshake
 * that stalled for {@link #STALLED_AFTER} is dropped (closed, logged and counted like any failed
 * handshake) to make room, and the next; while connections keep coming, each look drops twice as many as
 * the last, up to an eighth of the limit ({@link #dropBatch}). While handshakes succeed (one did within
 * the stall time) only one stalled for twice that in its slot goes (time in the acceptor's queue does not
 * count there): a server busy with a burst of real requesters
 * (which send their whole request in their first frame, but may be slow to get to it when their own
 * machine is overloaded) drops none of them, and a flooder whose own handshakes succeed now and then no
 * longer keeps its stalled connections in their slots for ever by it (hostile17 H5: before, nothing was
 * dropped at all while any handshake had succeeded within the stall time).
 *
 * <p>Stalled means the requester stalled, not this server: a handshake whose connection was accepted more
 * than {@link #STALLED_AFTER} ago (time spent waiting in the acceptor's queue counts: before, a flood's
 * connections taken from the queue each had their stall time again, one wave of the limit per stall time)
 * whose first frame has not been read, and
 * <ul>
 *   <li>not if that frame is there, whole, waiting for a handshake thread that has not got to it (a
 *       server starved of CPU: {@link org.sessionj.runtime.spi.Connection#frameWaiting}), and
 *   <li>not if the requester sent more since the last look ({@link org.sessionj.runtime.spi.Connection#receivedBytes}:
 *       a slow requester still sending its request), and at least {@link StallRule#MIN_REQUEST_BYTES_PER_SECOND}
 *       on average since its accept (a slowloris that trickles a byte per look is not sending a request:
 *       hostile17 H2).
 * </ul>
 * The stalled handshakes of the source address that has the most of them go first
 * ({@link org.sessionj.runtime.spi.Connection#peerAddress}), then those that sent nothing at all, then the
 * oldest. Where the transport cannot tell (receivedBytes {@code -1}) age alone decides, as before.
 *
 * <p>A connection in a handshake of its transport's own (TLS), before the acceptor can hand it over,
 * holds a slot too ({@link org.sessionj.runtime.spi.HandshakeSlots}): it counts toward the limit, may be
 * dropped as stalled once older than {@link #STALLED_AFTER}, and is closed with the server socket.
 */
final class Handshakes implements AutoCloseable, org.sessionj.runtime.spi.HandshakeSlots {
    private static final System.Logger LOG = LazyLogger.of(Handshakes.class.getName());

    private final AcceptorGroup acceptors;
    private final CompiledProtocol protocol;
    private final SessionContext context;
    private final Semaphore slots;
    /** The agreed sessions not yet taken by {@code accept()}, bounded in number and age. */
    private final AcceptQueue ready;
    /** Asked as each handshake agrees: null, or why the accept queue refuses the session. */
    private final java.util.function.Supplier<String> admission;
    private final AtomicLong failures = new AtomicLong();
    /** Told the reason of every failed handshake, or null. */
    private volatile java.util.function.Consumer<? super org.sessionj.api.SJException> failureListener;
    /**
     * How long a requester may take to send its first frame before its handshake may be dropped to
     * make room at the pending limit (at most the initiation timeout).
     */
    static final java.time.Duration STALLED_AFTER = java.time.Duration.ofSeconds(5);
    /** How often a connection waiting for a slot looks for a stalled handshake to drop. */
    private static final long SLOT_CHECK_MILLIS = 100;

    /**
     * A connection in its transport's own handshake (TLS), holding a slot. Its state moves once, by
     * compare-and-set, from running to dropped or left, and from dropped to left: dropped at most once,
     * never after it left, and a drop is counted back exactly once, by {@link #leave}.
     */
    private final class TransportHandshake implements Slot {
        private static final int RUNNING = 0;
        private static final int DROPPED = 1;
        private static final int LEFT = 2;

        final long started = clock.getAsLong();
        final String transport;
        final Runnable drop;
        private final java.util.concurrent.atomic.AtomicInteger state = new java.util.concurrent.atomic.AtomicInteger();

        TransportHandshake(String transport, Runnable drop) {
            this.transport = transport;
            this.drop = drop;
        }

        /** Whether it may still be dropped. */
        boolean droppable() {
            return state.get() == RUNNING;
        }

        /** Claims it for a drop; false when it was dropped or left first. */
        boolean claimDrop() {
            return state.compareAndSet(RUNNING, DROPPED);
        }

        @Override
        public void leave() {
            int was = state.getAndSet(LEFT);
            if (was == LEFT) {
                return;
            }
            inTransport.remove(this);
            if (was == DROPPED) {
                Handshakes.this.failed(port() + ": dropped a " + transport + " connection", new org.sessionj.api.SJTimeoutException("dropped: the requester did"
                        + " not finish its " + transport + " handshake within " + java.time.Duration.ofNanos(stalledAfterNanos)
                        + " while the server had its limit of " + context.config().maxPendingHandshakes()
                        + " pending handshakes (sessionj.maxPendingHandshakes) and a new connection waited; closed to"
                        + " make room"));
                droppedUnreleased.decrementAndGet();
            }
            released();
        }

        /** Gives the slot back as a failed handshake: it outlasted the initiation timeout (see {@link Slot#expired}). */
        @Override
        public void expired() {
            if (!state.compareAndSet(RUNNING, LEFT)) {
                leave(); // dropped or left first: that end counts
                return;
            }
            inTransport.remove(this);
            Handshakes.this.failed(port() + ": closed a " + transport + " connection", new org.sessionj.api.SJTimeoutException(
                    "expected the requester's " + transport + " handshake to succeed within "
                    + context.config().initiationTimeout() + " of its accept (sessionj.initiationTimeout), found it"
                    + " unfinished; closed"));
            released();
        }

        /** Gives the slot back as a failed handshake: the transport refused what the peer sent (see {@link Slot#failed}). */
        @Override
        public void failed(String expectedAndFound) {
            if (!state.compareAndSet(RUNNING, LEFT)) {
                leave(); // dropped or left first: that end counts
                return;
            }
            inTransport.remove(this);
            Handshakes.this.failed(port() + ": closed a " + transport + " connection", new org.sessionj.api.SJIOException(
                    "the requester's " + transport + " handshake failed: " + expectedAndFound + "; closed"));
            released();
        }
    }

    /** Connections in their transport's own handshake, each holding a slot. */
    private final java.util.Set<TransportHandshake> inTransport = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Connections in a handshake, closed when the server socket closes. */
    private final java.util.concurrent.ConcurrentHashMap<org.sessionj.runtime.spi.Connection, InFlight> inFlight =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Handshakes dropped to make room whose slot has not come back yet: no more are dropped meanwhile. */
    private final java.util.concurrent.atomic.AtomicInteger droppedUnreleased = new java.util.concurrent.atomic.AtomicInteger();
    /**
     * Held while one thread picks a stalled handshake and drops it. Several threads look for one at once
     * (the handshake pump, and every TLS connection waiting for a slot, on each event loop): without it,
     * two could pick the same handshake, both count it as dropped and only one count come back, so that
     * {@link #droppedUnreleased} never went back to 0 and drops stopped (a TLS client then waited past
     * its 10 s handshake timeout), or two could drop two handshakes where one slot was wanted.
     */
    private final java.util.concurrent.locks.ReentrantLock dropping = new java.util.concurrent.locks.ReentrantLock();
    private final long stalledAfterNanos;
    /** What the stall rule reads the time from ({@code System.nanoTime()} but in tests). */
    private final java.util.function.LongSupplier clock;
    /** When a handshake last succeeded ({@link #clock}). */
    private volatile long lastSuccess;
    /** When a stalled handshake was last dropped ({@link #clock}). */
    private volatile long lastDrop;
    /** How many the last look dropped ({@link #dropBatch}); under {@link #dropping}. */
    private int lastBatch = 1;
    /** Connections in a handshake or agreed and waiting for {@code accept()}. */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    /** Makes the handshake threads (one builder and one name for all: not made again per session). */
    private final java.util.concurrent.ThreadFactory handshakeThreads;
    private volatile boolean closed;

    Handshakes(AcceptorGroup acceptors, CompiledProtocol protocol, SessionContext context) {
        this(acceptors, protocol, context, System::nanoTime);
    }

    /**
     * With the clock the stall rule reads ({@code System.nanoTime()} but in tests, which drive it so that
     * what counts as stalled does not depend on how fast a loaded machine runs them).
     */
    Handshakes(AcceptorGroup acceptors, CompiledProtocol protocol, SessionContext context,
            java.util.function.LongSupplier clock) {
        this.clock = clock;
        this.lastSuccess = clock.getAsLong();
        this.lastDrop = lastSuccess - Long.MAX_VALUE / 2;
        this.acceptors = acceptors;
        this.protocol = protocol;
        this.context = context;
        this.slots = new Semaphore(context.config().maxPendingHandshakes());
        this.stalledAfterNanos = Math.min(STALLED_AFTER.toNanos(), context.config().initiationTimeout().toNanos());
        this.handshakeThreads = Thread.ofVirtual().name("sj-handshake-" + acceptors.port()).factory();
        this.ready = new AcceptQueue(acceptors.port(), context.config().acceptQueue(), context.config().acceptTimeout(),
                this::neverAccepted);
        this.admission = ready::refusal;
    }

    /** Starts taking connections (once, when the server socket opens). */
    void start() {
        acceptors.countHandshakes(this);
        acceptors.handOverInline(this::inline);
        ready.start();
        Thread.ofVirtual().name("sj-handshakes-" + acceptors.port()).start(this::pump);
    }

    /**
     * An in-JVM requester's connection, on the requester's thread once its first frame is there: the
     * handshake runs here (decode, a verdict-cache lookup, one write; nothing waits on the requester),
     * so a session costs no handshake thread and the requester no wait for its verdict. False (queued for
     * the pump instead) when every handshake slot is taken or the socket is closing.
     */
    private boolean inline(org.sessionj.runtime.spi.Connection connection, String transport) {
        if (closed || !slots.tryAcquire()) {
            return false;
        }
        pending.incrementAndGet();
        handshakeInline(new AcceptorGroup.Accepted(connection, transport));
        return true;
    }

    private void pump() {
        while (!closed) {
            AcceptorGroup.Accepted accepted;
            try {
                accepted = acceptors.accept(-1);
            } catch (IOException e) {
                ready.end(e);
                return;
            } catch (RuntimeException | Error e) {
                // The server's own code failed, not a requester: this thread ends, so accept() must fail
                // at once instead of waiting for sessions nobody will hand it.
                ready.end(new IOException("accepting connections on session port " + acceptors.port()
                        + " failed: " + e, e));
                return;
            }
            if (accepted == null) {
                continue;
            }
            try {
                awaitSlot();
            } catch (InterruptedException e) {
                accepted.connection().close();
                return;
            }
            if (closed) {
                accepted.connection().close();
                return;
            }
            pending.incrementAndGet();
            if (accepted.connection().frameWaiting()) {
                // Its whole first frame is there, so the handshake waits for nobody: decode, a verdict,
                // one write. Run here rather than on a thread of its own, which costs a start, a
                // hand-off to a carrier and an end per session (most connections of a busy server reach
                // this point with their request in).
                handshake(accepted);
            } else {
                handshakeThreads.newThread(() -> handshake(accepted)).start();
            }
        }
    }

    /**
     * A slot for a connection in its transport's own handshake (TLS), or null at the limit; then, as
     * for a session handshake waiting in {@link #awaitSlot}, the oldest stalled handshake may be
     * dropped to make room for the next try. After the socket closed, a slot that counts nothing.
     */
    @Override
    public Slot tryEnter(String transport, Runnable drop) {
        if (closed) {
            return () -> { };
        }
        if (!slots.tryAcquire()) {
            dropOldestStalled();
            return null;
        }
        pending.incrementAndGet();
        TransportHandshake handshake = new TransportHandshake(transport, drop);
        inTransport.add(handshake);
        if (closed && inTransport.remove(handshake)) {
            drop.run(); // closed meanwhile: close() may have missed it
        }
        return handshake;
    }

    /** The initiation timeout: a requester's whole initiation, its transport handshake included, counts from its accept. */
    @Override
    public long transportHandshakeTimeoutNanos() {
        return context.config().initiationTimeout().toNanos();
    }

    private String port() {
        return "session port " + acceptors.port();
    }

    /** Takes a slot: a free one, or the one of a stalled handshake dropped for it (see the class comment). */
    private void awaitSlot() throws InterruptedException {
        if (slots.tryAcquire()) {
            return;
        }
        do {
            dropOldestStalled();
        } while (!slots.tryAcquire(SLOT_CHECK_MILLIS, TimeUnit.MILLISECONDS) && !closed);
    }

    /**
     * Closes the handshakes whose requester stalled (see the class comment), up to {@link #dropBatch}
     * of them in one look: those that sent nothing at all first, then the oldest, session and transport
     * handshakes alike.
     */
    private void dropOldestStalled() {
        if (!dropping.tryLock()) {
            return; // another thread is dropping some; their slots serve whoever takes them first
        }
        try {
            dropStalledLocked();
        } finally {
            dropping.unlock();
        }
    }

    private void dropStalledLocked() {
        long now = clock.getAsLong();
        if (droppedUnreleased.get() > 0 && now - lastDrop < stalledAfterNanos) {
            // Some are on their way out; their slots come next. Bounded in time: should their slots be slow to
            // come back (a dropped session handshake's thread starved of CPU), drops go on one stall time later.
            return;
        }
        // A server that succeeds lets its stalled handshakes be a while longer, twice the stall time in their
        // slot (not since their accept: a burst of real requesters that waited in the acceptor's queue, on a
        // starved machine whose handshake threads are slow to read them, is served, not dropped), but not for
        // ever: before, one cheap handshake every few seconds kept every stalled one of the same flooder in
        // its slot (hostile17 H5).
        boolean succeeding = now - lastSuccess < stalledAfterNanos;
        long stallAge = succeeding ? 2 * stalledAfterNanos : stalledAfterNanos;
        java.util.List<StallRule.Stalled> stalled = new java.util.ArrayList<>();
        for (java.util.Map.Entry<org.sessionj.runtime.spi.Connection, InFlight> e : inFlight.entrySet()) {
            InFlight h = e.getValue();
            long age = now - h.started;
            if (!h.droppable() || age < stallAge || succeeding && now - h.slotted < stallAge
                    || e.getKey().frameWaiting()) {
                continue; // in time, or its request is there and this server is slow to get to it
            }
            long bytes = e.getKey().receivedBytes();
            long before = h.lastBytes;
            h.lastBytes = bytes;
            if (bytes > 0 && bytes != before && !StallRule.belowRequestRate(bytes, age)) {
                continue; // it sent more since the last look, and at a request's pace: slow, not stalled
            }
            // Dropped by closing it: its handshake thread fails, counts it and gives the slot back.
            stalled.add(new StallRule.Stalled(h::claimDrop, e.getKey()::close, bytes == 0, h.started,
                    e.getKey().peerAddress()));
        }
        for (TransportHandshake h : inTransport) {
            if (h.droppable() && now - h.started >= stallAge) {
                // The transport closes it, and gives the slot back (Slot.leave).
                stalled.add(new StallRule.Stalled(h::claimDrop, h.drop, false, h.started, null));
            }
        }
        int batch = dropBatch(now);
        if (stalled.size() > batch) {
            stalled.sort(StallRule.shedOrder(stalled));
        }
        // Claimed before counted (under the lock, so nobody reads the count in between): a handshake that
        // ended or left since the look is not dropped, and its slot is back already.
        int dropped = 0;
        for (int i = 0; i < stalled.size() && dropped < batch; i++) {
            StallRule.Stalled h = stalled.get(i);
            if (h.claim().getAsBoolean()) {
                lastDrop = now;
                droppedUnreleased.incrementAndGet();
                dropped++;
                h.drop().run();
            }
        }
        if (dropped > 0) {
            lastBatch = dropped;
        }
    }

    /**
     * How many stalled handshakes one look drops: one, unless the last drop was less than half a stall time
     * ago (connections keep coming while every slot is held by a stalled handshake: a flood), then twice as
     * many as last time, up to an eighth of the limit (at least 16). A lone newcomer still costs one stalled
     * handshake. Under a slowloris every connection ahead of a real requester must go, and each look
     * costs a pass over every pending handshake: one drop per look made that quadratic, and a starved
     * blocking-tcp server (load 30 on two cores) behind 8,000 stalled connections dropped ~150 a second,
     * too slowly for the requester behind them (docs/reliability.md). Called under {@link #dropping}.
     */
    private int dropBatch(long now) {
        if (now - lastDrop >= stalledAfterNanos / 2) {
            return 1;
        }
        int most = Math.max(16, context.config().maxPendingHandshakes() / 8);
        return (int) Math.min(most, 2L * lastBatch);
    }

    private void handshake(AcceptorGroup.Accepted accepted) {
        long acceptedAt = accepted.connection().acceptedNanos();
        long slotted = clock.getAsLong();
        InFlight entry = new InFlight(acceptedAt == org.sessionj.runtime.spi.Connection.UNKNOWN_TIME ? slotted : acceptedAt,
                slotted);
        inFlight.put(accepted.connection(), entry);
        if (closed) {
            accepted.connection().close();
        }
        SessionSocket session;
        try {
            session = Initiation.accept(accepted, acceptors.offers(), acceptors.id(), protocol, context, entry::opened,
                    admission);
        } catch (RuntimeException | Error e) {
            inFlight.remove(accepted.connection());
            // One requester's failure is not the server's: its connection closes, accept() goes on. Any
            // Error too (a class of the accepting path that cannot be loaded): the requester learns at
            // once instead of at its initiation timeout, and the slot comes back, whatever the close throws.
            boolean dropped = !entry.end();
            closeAfterFailure(accepted.connection(), e);
            failed(accepted, dropped ? droppedReason(e) : e);
            released(dropped);
            return;
        }
        inFlight.remove(accepted.connection());
        if (!entry.end()) {
            // Dropped just as its first frame came: its connection is closed, so its session would fail
            // at the first action. accept() hands out only usable sessions: it fails here, counted.
            if (session != null) {
                org.sessionj.api.SJIOException closed = new org.sessionj.api.SJIOException("closed as its request arrived");
                closeAfterFailure(session.connection(), closed);
                failed(accepted, droppedReason(closed));
            }
            released(true);
            return;
        }
        succeeded(session);
    }

    /**
     * A handshake run on an in-JVM requester's thread ({@link #inline}): its first frame is in, so it
     * cannot stall and is never dropped, and it ends before that thread goes on, so it needs no entry
     * among the handshakes in flight (a server socket closing meanwhile closes the session it queues).
     */
    private void handshakeInline(AcceptorGroup.Accepted accepted) {
        SessionSocket session;
        try {
            session = Initiation.accept(accepted, acceptors.offers(), acceptors.id(), protocol, context, NOTHING,
                    admission);
        } catch (RuntimeException | Error e) {
            closeAfterFailure(accepted.connection(), e);
            failed(accepted, e);
            released();
            return;
        }
        succeeded(session);
    }

    /**
     * Closes the connection of a failed handshake. Whatever the close throws (a transport whose resources
     * another process damaged) is added to the failure, never thrown: the failure must still be counted and
     * its slot given back, or the server socket would lose a slot per such requester and stop serving.
     */
    private static void closeAfterFailure(org.sessionj.runtime.spi.Connection connection, Throwable failure) {
        try {
            connection.close();
        } catch (RuntimeException | Error e) {
            if (e != failure) {
                failure.addSuppressed(e);
            }
        }
    }

    private static final Runnable NOTHING = () -> { };

    /** A handshake ended well: its session queued for {@code accept()}, or moved to another transport (null). */
    private void succeeded(SessionSocket session) {
        lastSuccess = clock.getAsLong();
        if (session == null) {
            released(); // negotiated onto another transport: its connection is accepted anew
            return;
        }
        session.releaseThread(); // this handshake thread ends here; the program's thread takes the session
        if (!ready.add(session)) {
            session.connection().close(); // the server socket closed meanwhile
            released();
        }
    }

    /** A session the program did not accept within the accept timeout was failed ({@link AcceptQueue}). */
    private void neverAccepted(String reason) {
        failed(port() + ": failed a session never accepted", new org.sessionj.api.SJTimeoutException(reason));
        released();
    }

    private Throwable droppedReason(Throwable cause) {
        return new org.sessionj.api.SJTimeoutException("dropped: the requester sent no session request within "
                + java.time.Duration.ofNanos(stalledAfterNanos) + " while the server had its limit of "
                + context.config().maxPendingHandshakes() + " pending handshakes (sessionj.maxPendingHandshakes)"
                + " and a new connection waited; closed to make room (" + cause.getMessage() + ")");
    }

    /** A handshake's slot is free again; a dropped one lets the next be dropped. */
    private void released(boolean dropped) {
        if (dropped) {
            droppedUnreleased.decrementAndGet();
        }
        released();
    }

    /** A connection's slot is free again (its handshake failed or moved, or its session was taken). */
    private void released() {
        pending.decrementAndGet();
        slots.release();
    }

    private void failed(AcceptorGroup.Accepted accepted, Throwable e) {
        failed("session port " + acceptors.port() + ": refused a session request over " + accepted.transport(), e);
    }

    private void failed(String what, Throwable e) {
        long count = failures.incrementAndGet();
        java.util.function.Consumer<? super org.sessionj.api.SJException> listener = failureListener;
        if (listener != null) {
            try {
                listener.accept(e instanceof org.sessionj.api.SJException sj ? sj
                        : new org.sessionj.api.SJIOException("session initiation failed: " + e, e));
            } catch (RuntimeException listenerFailure) {
                LOG.log(System.Logger.Level.WARNING, "a failed-handshake listener failed", listenerFailure);
            }
        }
        // Every failure at DEBUG; the first and then each power of two at INFO, so a flood of bad
        // requesters cannot flood the log.
        boolean loud = (count & (count - 1)) == 0;
        // The failure may quote what the requester sent (its session type, in a parse error): escaped, so that
        // a peer cannot write log lines of its choosing (hostile H8).
        LOG.log(loud ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                () -> what + " (" + count + " so far): " + org.sessionj.runtime.internal.wire.PeerText.escaped(
                        String.valueOf(e)));
    }

    /**
     * The next compatible session: the session, {@code null} after {@code timeoutNanos} (negative
     * waits forever).
     *
     * @throws IOException if the acceptors failed or were closed
     */
    SessionSocket next(long timeoutNanos) throws IOException {
        SessionSocket next = ready.next(timeoutNanos);
        if (next != null) {
            released();
        }
        return next;
    }

    /** Sets the one listener told the reason of each failed handshake (null: none). */
    void failureListener(java.util.function.Consumer<? super org.sessionj.api.SJException> listener) {
        this.failureListener = listener;
    }

    /** How many session requests failed their handshake (refused, incompatible, malformed, timed out). */
    long failures() {
        return failures.get();
    }

    /** Handshakes dropped whose slot has not come back yet (for tests: 0 once every dropped one ended). */
    int droppedUnreleased() {
        return droppedUnreleased.get();
    }

    /** Handshakes in progress plus sessions waiting for {@code accept()}. */
    int pending() {
        return pending.get();
    }

    /** Closes the connections in a handshake and the sessions agreed but not taken. */
    @Override
    public void close() {
        closed = true;
        slots.release(); // a pump waiting for a slot wakes, finds the acceptors closed and ends
        inFlight.keySet().forEach(org.sessionj.runtime.spi.Connection::close);
        inTransport.forEach(h -> h.drop.run()); // their slots come back through Slot.leave
        ready.close(new IOException("session port " + acceptors.port() + " is closed"), session -> {
            session.connection().close();
            released();
        });
    }
}
