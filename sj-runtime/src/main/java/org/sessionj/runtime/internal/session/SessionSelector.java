package org.sessionj.runtime.internal.session;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.internal.monitor.RemainingType;
import org.sessionj.runtime.internal.monitor.State;
import org.sessionj.runtime.internal.protocol.ProtocolRegistry;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Waits on many sessions and yields one whose input is ready. Used by one thread (the owner of the
 * registered sessions); the sessions' readiness listeners run on the writers' threads.
 *
 * <p><b>Scale and fairness.</b> Each registered session has a listener that puts it, once, on a
 * queue of ready sessions when a frame arrives for it (a flag per session keeps it there at most once);
 * {@link #select()} takes the queue's head. So a select costs the same with 10 or 10,000 idle sessions
 * registered, and ready sessions are served in the order they became ready: none waits for more than
 * one turn of the others. The session returned last is put at the back of the queue again on the next
 * select if it still has input (it had two messages waiting, say), since no listener runs for input
 * that was already there.
 *
 * <p><b>Typed selectors</b> ({@code SJSelector.of(P1.class, …)}) know the first state after the begin
 * of each member protocol; compiled protocols are cached per class, so a session at the very start of
 * member {@code k} is in exactly that state object, and registration finds its member by identity. A
 * session part way through its protocol (a typecase arm handing its session back after some actions)
 * is a member when its remaining type is equivalent to the member's: that comparison is made only when
 * the identity check fails. A typed selector selects a session once: {@link #select()} removes it and
 * remembers its member for {@link #typecase}.
 */
public final class SessionSelector implements SJSelector {
    /** One registered session. */
    private final class Entry implements Runnable {
        final SessionSocket session;
        final int member;
        /** Whether the entry is on the ready queue (set by listeners, cleared by the selecting thread). */
        final AtomicBoolean queued = new AtomicBoolean();
        /** Set by the selecting thread when the session leaves the selector; queued entries are then skipped. */
        boolean removed;

        Entry(SessionSocket session, int member) {
            this.session = session;
            this.member = member;
        }

        /** The readiness listener: queue this session once, wake the selecting thread. */
        @Override
        public void run() {
            if (queued.compareAndSet(false, true)) {
                ready.offer(this);
                Thread w = waiter;
                if (w != null) {
                    LockSupport.unpark(w);
                }
            }
        }
    }

    /** The setting that bounds the sends of a selector's sessions (read as a literal below, for ConfigurationDocTest). */
    static final String SEND_TIMEOUT_SETTING = "selector.sendTimeout";
    /** The bound on a selector's sessions' sends when {@code sessionj.selector.sendTimeout} is not set. */
    static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(2);

    private final IdentityHashMap<SessionSocket, Entry> registered = new IdentityHashMap<>();
    /** How long a send to one of this selector's sessions may wait for its peer to take data (-1: no bound). */
    private final long sendTimeoutNanos = sendTimeout(SystemSettings.system());
    private final MpscUnboundedXaddArrayQueue<Entry> ready = new MpscUnboundedXaddArrayQueue<>(1024);
    private volatile Thread waiter;
    /** The entry select returned last (untyped selectors): re-queued if it still has input. */
    private Entry last;
    /** Typed selectors: the members' names and first states; null for an untyped selector. */
    private final String[] memberNames;
    private final State[] memberStarts;
    /** Typed selectors: each member's type, made when a session not at a member's start is registered. */
    private final SessionType[] memberTypes;
    /** Typed selectors: the member (or -1) of each state a session not at a member's start was registered at. */
    private final IdentityHashMap<State, Integer> memberByState = new IdentityHashMap<>();
    /** Typed selectors: the member of each selected session, until its typecase. */
    private final IdentityHashMap<SessionSocket, Integer> selected = new IdentityHashMap<>();

    /** An untyped selector. */
    public SessionSelector() {
        memberNames = null;
        memberStarts = null;
        memberTypes = null;
    }

    /** A typed selector over the sessions of the {@code given} protocols (a set protocol stands for its members). */
    public SessionSelector(Class<?>[] given) {
        // A set protocol stands for its members: SJSelector.of(Server.class), Server = {@(Get), @(Put)}.
        java.util.List<Class<?>> flat = new java.util.ArrayList<>();
        for (Class<?> protocol : given) {
            flat.addAll(ProtocolRegistry.setMembers(protocol).orElse(java.util.List.of(protocol)));
        }
        Class<?>[] protocols = flat.toArray(new Class<?>[0]);
        if (protocols.length == 0) {
            throw new IllegalArgumentException("a typed selector needs at least one protocol");
        }
        memberNames = new String[protocols.length];
        memberStarts = new State[protocols.length];
        memberTypes = new SessionType[protocols.length];
        for (int i = 0; i < protocols.length; i++) {
            String name = protocols[i].getSimpleName();
            for (int j = 0; j < i; j++) {
                if (memberNames[j].equals(name)) {
                    throw new IllegalArgumentException("two members of one typed selector named " + name
                            + ": typecase tells members apart by their protocols' simple names");
                }
            }
            memberNames[i] = name;
            memberStarts[i] = ProtocolRegistry.of(protocols[i]).start();
            State.Kind first = memberStarts[i].kind();
            if (first != State.Kind.RECEIVE && first != State.Kind.BRANCH && first != State.Kind.INWHILE) {
                // sj-processor: SJ052. A session waiting to send never has input: it would never be selected.
                throw new IllegalArgumentException("member " + name + " of a typed selector starts with "
                        + memberStarts[i].describe() + ": a selector yields a session when its input is ready, so"
                        + " each member starts with an input");
            }
        }
    }

    /**
     * The bound on the sends of a selector's sessions, from {@code settings}: -1 when it is {@code none}.
     * One thread serves every session of a selector, so its wait for a peer that takes nothing is every
     * other session's wait too (hostile18 H13): a send that waits longer fails that one session with a
     * {@link org.sessionj.api.SendTimeoutException} (its peer told), and the thread goes on.
     */
    static long sendTimeout(SystemSettings settings) {
        return settings.duration("selector.sendTimeout", DEFAULT_SEND_TIMEOUT).map(Duration::toNanos).orElse(-1L);
    }

    @Override
    public void register(SJSocket socket) {
        if (!(socket instanceof SessionSocket session)) {
            throw new IllegalArgumentException("not a socket of this runtime: " + socket);
        }
        if (registered.containsKey(session)) {
            return;
        }
        int member = -1;
        if (memberStarts != null) {
            member = memberOf(session);
            if (member < 0) {
                throw new IllegalArgumentException("the session " + session.protocol() + " is not at one of this"
                        + " typed selector's protocols " + java.util.Arrays.toString(memberNames) + ", at its start or"
                        + " part way through another with that type remaining (its next action is "
                        + session.state().describe() + ")");
            }
        }
        // Before anything else: the arms of a typed selector send after select() has handed the session
        // out, and a session keeps the bound for the rest of its life (docs/session-types.md §9).
        session.boundSends(sendTimeoutNanos);
        // The selecting thread takes it next, which may not be the registering one: the session is not judged
        // by a thread that ended (adv18 A13) until the selecting thread acts on it.
        session.forgetOwner();
        Entry entry = new Entry(session, member);
        registered.put(session, entry);
        session.readinessListener(entry);
        if (session.isInputReady()) {
            entry.run(); // input that arrived before the listener was there
        }
    }

    private int memberOf(SessionSocket session) {
        State state = session.state();
        for (int i = 0; i < memberStarts.length; i++) {
            if (memberStarts[i] == state) {
                return i;
            }
        }
        // Part way through its protocol (an arm handing its session back, or a session of another
        // protocol): a member if what remains is a member's type, as sj-processor checks it (SJ053).
        // States are shared by every session of a compiled protocol: the answer is kept per state, so
        // an event-driven server that hands sessions back at each step compares types once per state.
        Integer known = memberByState.get(state);
        if (known != null) {
            return known;
        }
        SessionType remaining = RemainingType.of(state);
        int found = -1;
        for (int i = 0; i < memberStarts.length && found < 0; i++) {
            if (memberTypes[i] == null) {
                memberTypes[i] = RemainingType.of(memberStarts[i]);
            }
            try {
                if (SessionTypes.equivalent(remaining, memberTypes[i])) {
                    found = i;
                }
            } catch (ProtocolException e) {
                // not comparable: not this member
            }
        }
        memberByState.put(state, found);
        return found;
    }

    @Override
    public void deregister(SJSocket socket) {
        if (socket instanceof SessionSocket session) {
            Entry entry = registered.remove(session);
            if (entry != null) {
                remove(entry);
            }
        }
    }

    private void remove(Entry entry) {
        entry.removed = true;
        entry.session.readinessListener(null);
        if (last == entry) {
            last = null;
        }
    }

    @Override
    public String typecase(SJSocket socket) {
        if (memberNames == null) {
            throw new IllegalStateException("typecase needs a typed selector, SJSelector.of(P1.class, …)");
        }
        Integer member = socket instanceof SessionSocket session ? selected.remove(session) : null;
        if (member == null) {
            throw new IllegalArgumentException("typecase of a session this selector did not select: " + socket);
        }
        return memberNames[member];
    }

    @Override
    public SJSocket select() {
        return select(-1);
    }

    @Override
    public SJSocket select(Duration timeout) {
        return select(timeout.toNanos());
    }

    private SJSocket select(long timeoutNanos) {
        if (registered.isEmpty()) {
            throw new IllegalStateException("select() on a selector with no sessions would wait forever");
        }
        Entry previous = last;
        last = null;
        if (previous != null && !previous.removed && previous.session.isInputReady()) {
            previous.run(); // to the back of the queue: the others ready now go first
        }
        Entry entry = nextReady();
        if (entry == null) {
            PendingOutputs.flushAll();
            long deadline = timeoutNanos < 0 ? 0 : System.nanoTime() + timeoutNanos;
            waiter = Thread.currentThread();
            try {
                while ((entry = nextReady()) == null) {
                    if (timeoutNanos < 0) {
                        LockSupport.park(this);
                    } else {
                        long remaining = deadline - System.nanoTime();
                        if (remaining <= 0) {
                            throw new SJTimeoutException("no session had input within " + Duration.ofNanos(timeoutNanos));
                        }
                        LockSupport.parkNanos(this, remaining);
                    }
                    if (Thread.interrupted()) {
                        Thread.currentThread().interrupt();
                        throw new SJIOException("interrupted while selecting");
                    }
                }
            } finally {
                waiter = null;
            }
        }
        if (memberStarts != null) {
            // Selected once: the arm of its typecase owns it now.
            registered.remove(entry.session);
            remove(entry);
            selected.put(entry.session, entry.member);
        } else {
            last = entry;
        }
        return entry.session;
    }

    /** The first queued session that is still registered and has input, or null. */
    private Entry nextReady() {
        Entry entry;
        while ((entry = ready.poll()) != null) {
            // Cleared before the check: input that arrives from here on queues the entry again.
            entry.queued.set(false);
            if (!entry.removed && entry.session.isInputReady()) {
                return entry;
            }
        }
        return null;
    }

    @Override
    public void close() {
        // A typed selector owns what is registered (register moves a session in, select hands it out):
        // closing it ends those sessions as a session thread's end does, so their peers learn of it
        // (an incomplete session's close fails it) instead of waiting for input that never comes.
        // An untyped selector only watches sessions its caller still completes.
        java.util.List<SessionSocket> owned = memberNames == null ? java.util.List.of()
                : new java.util.ArrayList<>(registered.keySet());
        for (Entry entry : registered.values()) {
            remove(entry);
        }
        for (SessionSocket session : owned) {
            try {
                session.close();
            } catch (RuntimeException e) {
                // ending one session must not keep the others open; the failure is the session's own
            }
        }
        registered.clear();
        selected.clear();
        last = null;
        while (ready.poll() != null) {
            // Drop what is queued; removed entries would be skipped anyway.
        }
    }
}
