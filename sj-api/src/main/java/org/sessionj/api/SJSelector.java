package org.sessionj.api;

import java.time.Duration;
import org.sessionj.api.spi.SessionRuntimeProvider;

/**
 * Waits on many sessions at once and yields one whose input is ready (SJ's non-blocking input).
 * Ready sessions are served fairly: none is starved while others stay ready.
 */
public interface SJSelector extends AutoCloseable {

    /** A new, empty selector. Sockets it selects are untyped (sj-processor reports them, SJ010). */
    static SJSelector open() {
        return SessionRuntimeProvider.get().openSelector();
    }

    /**
     * A new, empty typed selector over the sessions of the given protocols: the session set type
     * {@code {P1, …, Pn}} (each member is what a session of {@code Pi} does after its begin). Only a
     * session whose remaining type is one of them — at the very start of a member's protocol, or part
     * way through another — may be registered (checked: SJ053; at run time an
     * {@link IllegalArgumentException}); {@link #select()} hands out a session of the set, and removes
     * it from the selector; {@link #typecase} says which member it is, by the protocol's simple name:
     *
     * <pre>{@code
     * SJSelector selector = SJSelector.of(Get.class, Put.class);
     * ...
     * SJSocket s = selector.select();
     * switch (selector.typecase(s)) {
     *     case "Get" -> { ... s completes Get's type ... }
     *     case "Put" -> { ... s completes Put's type ... }
     * }
     * }</pre>
     *
     * Each arm is checked against its member and must complete it, hand the session on (spawn,
     * delegate), or hand it back with {@link #register} where what remains is a member's type;
     * docs/session-types.md §9. Each member starts with an input (a selector yields sessions whose
     * input is ready). A set protocol, {@code @Protocol("{@(Get), @(Put)}")},
     * stands for its members: {@code SJSelector.of(Server.class)} is {@code SJSelector.of(Get.class,
     * Put.class)}.
     *
     * @throws IllegalArgumentException when no protocol is given, one twice, two with one simple name,
     *                                  a member that starts with an output or is complete, or a set
     *                                  protocol has a member that is not one reference {@code @(P)}
     */
    static SJSelector of(Class<?>... protocols) {
        return SessionRuntimeProvider.get().openSelector(protocols.clone());
    }

    /**
     * Adds a session to watch. An untyped selector ({@link #open()}) does not own it: the caller still
     * completes it. A typed selector ({@link #of}) does: the session moves into it (sj-processor: a later
     * use is SJ025) until {@link #select()} hands it out, and {@link #close()} ends it.
     */
    void register(SJSocket socket);

    /**
     * Stops watching a session: for an untyped selector, whose caller still owns the session. A typed
     * selector's sessions leave it only through {@link #select()} (sj-processor: SJ031 elsewhere).
     */
    void deregister(SJSocket socket);

    /** Blocks until a registered session has input ready, and returns it. */
    SJSocket select();

    /** Like {@link #select()}, but fails with {@link SJTimeoutException} after {@code timeout}. */
    SJSocket select(Duration timeout);

    /**
     * Which member of a typed selector's set {@code socket} (just selected from it) is at: the simple
     * name of its protocol. Used only as the selector of a {@code switch} with one case per member.
     *
     * @throws IllegalStateException on a selector made by {@link #open()}
     * @throws IllegalArgumentException when {@code socket} was not selected from this selector
     */
    String typecase(SJSocket socket);

    /**
     * Deregisters everything. A typed selector also closes the sessions still registered with it (it owns
     * them): one that is not complete fails, and its peer learns of it ({@link SJIOException}) instead of
     * waiting for input that never comes, as when a session thread ends with its session incomplete.
     */
    @Override
    void close();
}
