package org.sessionj.runtime.internal.monitor;

import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.sessionj.runtime.internal.wire.RecordCodec;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * Spins up the record codecs of a session type's messages when a session of it opens over a wire
 * (tcp, ipc, …; not in-JVM, where values travel by reference), so that the program's first messages
 * do not: a layout's method-handle chains are otherwise compiled and customised by its first ~130
 * values, inside the program's first steps (issue 15: n-Body's first steps across processes).
 * Once per compiled session type (a flag on its start state) and once per layout
 * ({@link RecordCodec#prime}); {@code sessionj.codec.prime=false} leaves every codec to its first
 * message, as before.
 */
public final class CodecPriming {
    private static final boolean ENABLED = SystemSettings.system().flag("codec.prime", true);

    private CodecPriming() {
    }

    /** Primes the record codecs of every message reachable from {@code start}, scratch buffers from {@code alloc}. */
    public static void prime(State start, ByteBufAllocator alloc) {
        if (!ENABLED || start == null || start.codecsPrimed) {
            return;
        }
        start.codecsPrimed = true;
        Set<State> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<State> pending = new ArrayDeque<>();
        pending.push(start);
        while (!pending.isEmpty()) {
            State s = pending.pop();
            if (!seen.add(s)) {
                continue;
            }
            MessageType message = s.message;
            if (message != null && message.layout() != null) {
                RecordCodec.prime(message.layout(), alloc);
            }
            push(pending, s.next);
            if (s.branches != null) {
                for (State branch : s.branches) {
                    push(pending, branch);
                }
            }
            push(pending, s.body);
            push(pending, s.exit);
            push(pending, s.forward);
        }
    }

    private static void push(ArrayDeque<State> pending, State state) {
        if (state != null) {
            pending.push(state);
        }
    }
}
