package org.sessionj.crosscheck.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compile-time benchmark's rounds vary their order so that no configuration always runs in the same
 * place or after the same other one (the seventeenth session measured a fixed order's bias at ~15 %).
 */
class RoundOrderTest {
    /** Over one cycle, every configuration takes every position, and follows every other, equally often. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5})
    void aCycleBalancesPositionsAndPredecessors(int n) {
        List<int[]> design = RoundOrder.design(n);
        assertThat(design).hasSize(RoundOrder.cycle(n)).hasSize(n % 2 == 0 ? n : 2 * n);
        int[][] positions = new int[n][n];
        Map<String, Integer> pairs = new HashMap<>();
        for (int[] order : design) {
            assertThat(order).containsExactlyInAnyOrder(java.util.stream.IntStream.range(0, n).toArray());
            for (int i = 0; i < n; i++) {
                positions[order[i]][i]++;
                if (i > 0) {
                    pairs.merge(order[i - 1] + ">" + order[i], 1, Integer::sum);
                }
            }
        }
        int perPosition = design.size() / n;
        for (int[] counts : positions) {
            assertThat(counts).containsOnly(perPosition);
        }
        assertThat(pairs).hasSize(n * (n - 1));
        assertThat(pairs.values()).containsOnly(pairs.values().iterator().next());
    }

    @Test
    void theFirstRoundKeepsTheGivenOrderAndLaterRoundsChangeIt() {
        List<String> setups = List.of("none", "empty", "sj");
        assertThat(RoundOrder.of(setups, 0)).containsExactly("none", "empty", "sj");
        assertThat(RoundOrder.of(setups, 1)).isNotEqualTo(setups);
        assertThat(RoundOrder.of(setups, RoundOrder.cycle(3))).containsExactly("none", "empty", "sj");
    }
}
