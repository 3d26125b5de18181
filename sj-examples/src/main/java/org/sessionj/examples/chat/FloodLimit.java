package org.sessionj.examples.chat;

/**
 * A token bucket: {@code burst} events at once, then {@code perSecond}. A client over the limit has its
 * events dropped (and is told once per burst), so a flooding client costs the others nothing.
 */
final class FloodLimit {
    private final double burst;
    private final double perNano;
    private double tokens;
    private long last;
    private boolean warned;

    FloodLimit(int burst, int perSecond) {
        this.burst = burst;
        this.perNano = perSecond / 1e9;
        this.tokens = burst;
        this.last = System.nanoTime();
    }

    /** Whether one more event is allowed now. */
    synchronized boolean allow() {
        long now = System.nanoTime();
        tokens = Math.min(burst, tokens + (now - last) * perNano);
        last = now;
        if (tokens >= 1) {
            tokens -= 1;
            warned = false;
            return true;
        }
        return false;
    }

    /** True the first time after {@link #allow()} said no since it last said yes: warn the client once. */
    synchronized boolean shouldWarn() {
        if (warned) {
            return false;
        }
        warned = true;
        return true;
    }
}
