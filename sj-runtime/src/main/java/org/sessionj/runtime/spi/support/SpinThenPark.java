package org.sessionj.runtime.spi.support;

/**
 * How a {@link HandoffQueue} consumer waits for the next element, backing off in three steps as
 * Agrona's {@code BackoffIdleStrategy} does: it polls {@link #spins()} more times (with
 * {@link Thread#onSpinWait()} between polls), then {@link #yields()} times more with a
 * {@link Thread#yield()} before each, then parks with
 * {@link java.util.concurrent.locks.LockSupport#park} until the producer wakes it. Parking holds no
 * monitor, so a waiting virtual thread never pins its carrier.
 *
 * <p>Spinning pays when producer and consumer run on different cores: waking a parked thread there
 * costs tens of microseconds, more than a short spin. With a single core to share, spinning only
 * delays the producer, so use no spins there ({@link #defaultSpins()}). Yielding pays when the
 * cores are shared: the consumer gives its core to the producer (on a virtual thread, its carrier
 * to the producer's virtual thread) and finds the element without the producer having to wake it.
 * Virtual threads therefore skip the spins and only yield. A timed wait (a receive timeout) yields
 * only on a virtual thread, and no longer than its deadline: there a yield costs less than the timed
 * park it may save (which schedules and cancels a timer task), while a platform thread's yield may
 * give away a whole time slice.
 *
 * @param spins polls before yielding (platform threads only); not negative
 * @param yields polls, each after a yield, before parking; not negative
 */
public record SpinThenPark(int spins, int yields) {
    /** Parks as soon as the queue is found empty. */
    public static final SpinThenPark PARK_AT_ONCE = new SpinThenPark(0, 0);

    /** @throws IllegalArgumentException if {@code spins} or {@code yields} is negative */
    public SpinThenPark {
        if (spins < 0) {
            throw new IllegalArgumentException("spins must be a non-negative number of polls, found " + spins);
        }
        if (yields < 0) {
            throw new IllegalArgumentException("yields must be a non-negative number of polls, found " + yields);
        }
    }

    /** Spins, then parks (no yields). @throws IllegalArgumentException if {@code spins} is negative */
    public SpinThenPark(int spins) {
        this(spins, 0);
    }

    /**
     * 200 spins (a few microseconds) when the JVM may use more than one CPU; none on one, where
     * spinning only delays the thread that would hand over the element.
     */
    public static int defaultSpins() {
        return Runtime.getRuntime().availableProcessors() > 1 ? 200 : 0;
    }

    /**
     * This strategy with the number of yields configured by setting {@code name} (system property
     * {@code sessionj.<name>}), or {@code defaultYields} when it is not set.
     *
     * @throws IllegalArgumentException if the property holds anything but a non-negative integer
     */
    public SpinThenPark withYieldsFromSetting(String name, int defaultYields) {
        int configured = SystemSettings.system().integer(name, defaultYields);
        if (configured < 0) {
            throw SystemSettings.invalid(name, "a non-negative number of yields before parking", Integer.toString(configured));
        }
        return new SpinThenPark(spins, configured);
    }

    /**
     * The strategy configured by setting {@code name} (system property {@code sessionj.<name>}, a
     * number of spins; see {@link SystemSettings}), or {@code defaultSpins} when it is not set.
     *
     * @throws IllegalArgumentException if the property holds anything but a non-negative integer
     */
    public static SpinThenPark fromSetting(String name, int defaultSpins) {
        int spins = SystemSettings.system().integer(name, defaultSpins);
        if (spins < 0) {
            throw SystemSettings.invalid(name, "a non-negative number of polls before parking", Integer.toString(spins));
        }
        return new SpinThenPark(spins);
    }
}
