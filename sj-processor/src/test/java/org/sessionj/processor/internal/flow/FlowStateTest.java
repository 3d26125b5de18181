package org.sessionj.processor.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sessionj.types.SessionType;

class FlowStateTest {
    private static final VarState LIVE = new VarState.Live(SessionType.END, 0);

    @Test
    void updatesAreImmutableAndIdentityPreservingWhenNothingChanges() {
        FlowState<String> empty = FlowState.empty();
        FlowState<String> one = empty.with("s", LIVE);
        assertThat(empty.tracks("s")).isFalse();
        assertThat(one.get("s")).isEqualTo(LIVE);
        assertThat(one.with("s", LIVE)).isSameAs(one);
        assertThat(one.without(List.of("t"))).isSameAs(one);
        assertThat(one.without(List.of("s")).variables()).isEmpty();
    }

    @Test
    void joinKeepsAgreeingStatesAndAsksTheMergerOnlyAboutDifferences() {
        FlowState<String> left = FlowState.<String>empty().with("a", LIVE).with("b", VarState.OWNED);
        FlowState<String> right = FlowState.<String>empty().with("a", LIVE).with("b", new VarState.Moved("x"))
                .with("c", VarState.UNASSIGNED);
        List<String> asked = new ArrayList<>();
        FlowState<String> joined = FlowState.join(left, right, (var, l, r) -> {
            asked.add(var);
            return r;
        });
        assertThat(asked).containsExactly("b");
        assertThat(joined.get("a")).isEqualTo(LIVE);
        assertThat(joined.get("b")).isEqualTo(new VarState.Moved("x"));
        assertThat(joined.variables()).isEqualTo(Set.of("a", "b", "c"));
    }

    @Test
    void unreachableSidesDoNotContribute() {
        FlowState<String> state = FlowState.<String>empty().with("a", LIVE);
        FlowState.Merger<String> failing = (var, l, r) -> {
            throw new AssertionError("no merge expected");
        };
        assertThat(FlowState.join(null, state, failing)).isSameAs(state);
        assertThat(FlowState.join(state, null, failing)).isSameAs(state);
        assertThat(FlowState.<String>join(null, null, failing)).isNull();
    }

    @Test
    void aLiveSessionIsCompleteOnlyAtTheEndOutsideIterations() {
        assertThat(new VarState.Live(SessionType.END, 0).complete()).isTrue();
        assertThat(new VarState.Live(SessionType.END, 1).complete()).isFalse();
    }

    /** adv18 A4: a scope membership is a per-path fact: a member on one path only is one on some paths. */
    @Test
    void membershipsJoinAsPerPathFacts() {
        FlowState.Membership member = new FlowState.Membership("sc", true);
        FlowState<String> both = FlowState.<String>empty().with("a", LIVE).with("b", LIVE);
        FlowState<String> added = both.withMembership("a", member).withMembership("b", member);
        FlowState<String> onlyB = both.withMembership("b", member);
        FlowState.Merger<String> same = (var, l, r) -> l;
        FlowState<String> joined = FlowState.join(added, onlyB, same);
        assertThat(joined.membership("a")).isEqualTo(new FlowState.Membership("sc", false));
        assertThat(joined.membership("b")).isEqualTo(member);
        assertThat(FlowState.join(onlyB, added, same).membership("a")).isEqualTo(new FlowState.Membership("sc", false));
        assertThat(FlowState.Membership.join(member, new FlowState.Membership("other", true)))
                .isEqualTo(new FlowState.Membership(null, false));
        assertThat(added.without(List.of("a")).membership("a")).isNull();
        assertThat(added).isNotEqualTo(both);
        assertThat(both.withMembershipsJoined(added).membership("a")).isEqualTo(new FlowState.Membership("sc", false));
    }
}
