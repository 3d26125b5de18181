package org.sessionj.crosscheck.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which one round compiles the configurations compared: a Williams design, so that over a
 * full cycle of rounds every configuration runs in every position, and right after every other one,
 * equally often.
 *
 * <p>Why: with one fixed order, the configuration in a given place pays for what ran before it (the
 * garbage the previous compilation left, the JIT's queue, the page cache). On the loaded build machine
 * the third of four configurations measured about 15 % dearer than the fourth whichever build it was
 * (docs/benchmarks.md, "Seventeenth session"). A design cancels such position and carry-over effects
 * in the medians when the number of rounds is a multiple of {@link #cycle(int)}: 6 rounds for three
 * configurations, 4 for four.
 */
final class RoundOrder {
    private RoundOrder() {
    }

    /** The configurations of round {@code round} (0-based), in the order to compile them. */
    static <T> List<T> of(List<T> setups, int round) {
        List<int[]> design = design(setups.size());
        int[] order = design.get(round % design.size());
        List<T> ordered = new ArrayList<>(order.length);
        for (int index : order) {
            ordered.add(setups.get(index));
        }
        return ordered;
    }

    /** The rounds after which the design repeats: {@code n} for an even number of configurations, 2n for odd. */
    static int cycle(int n) {
        return design(n).size();
    }

    /**
     * Williams' construction: the first order is 0, 1, n−1, 2, n−2, …; order i adds i to each element
     * modulo n. For an even n these n orders balance positions and predecessors; for an odd n their
     * reverses are added.
     */
    static List<int[]> design(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("no configurations to order");
        }
        int[] first = new int[n];
        int low = 1;
        int high = n - 1;
        for (int i = 1; i < n; i++) {
            first[i] = i % 2 == 1 ? low++ : high--;
        }
        List<int[]> orders = new ArrayList<>();
        for (int shift = 0; shift < n; shift++) {
            int[] order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = (first[i] + shift) % n;
            }
            orders.add(order);
        }
        if (n % 2 == 1 && n > 1) {
            for (int shift = 0; shift < n; shift++) {
                int[] forward = orders.get(shift);
                int[] reverse = new int[n];
                for (int i = 0; i < n; i++) {
                    reverse[i] = forward[n - 1 - i];
                }
                orders.add(reverse);
            }
        }
        return orders;
    }
}
