package org.sessionj.runtime.spi.support;

/**
 * How a {@link HandoffQueue} consumer waits for the next element: it polls {@link #spins()} more
 * times (with {@link Thread#onSpinWait()} between polls), then parks with
 * {@link java.util.concurrent.locks.LockSupport#park} until the producer wakes it. Parking holds no
 * monitor, so a waiting virtual thread never pins its carrier.
 *
 * <p>Spinning pays when producer and consumer run on different cores: waking a parked thread there
 * costs tens of microseconds, more than a short spin. With a single core to share, spinning only
 * delays the producer, so use {@link #PARK_AT_ONCE}.
 *
 * @param spins polls before parking; not negative
 */
public record SpinThenPark(int spins) {
    /** Parks as soon as the queue is found empty. */
    public static final SpinThenPark PARK_AT_ONCE = new SpinThenPark(0);

    /** @throws IllegalArgumentException if {@code spins} is negative */
    public SpinThenPark {
        if (spins < 0) {
            throw new IllegalArgumentException("spins must be a non-negative number of polls, found " + spins);
        }
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
