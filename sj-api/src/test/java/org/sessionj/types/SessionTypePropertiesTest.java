package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sessionj.types.SessionTypeGenerator.NUMBERS;
import static org.sessionj.types.SessionTypes.dual;
import static org.sessionj.types.SessionTypes.equivalent;
import static org.sessionj.types.SessionTypes.isSubtype;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sessionj.types.internal.Unfolding;

class SessionTypePropertiesTest {
    private static final int TRIES = 300;
    /** Fixed so the suite is deterministic; change it locally to explore other samples. */
    private static final String SEED = "20261122";

    @Provide
    Arbitrary<SessionType> types() {
        return SessionTypeGenerator.sessionTypes();
    }

    @Property(tries = TRIES, seed = SEED)
    void generatedTypesAreWellFormed(@ForAll("types") SessionType t) {
        assertThat(SessionTypes.wellFormednessProblems(t)).as(SessionTypes.print(t)).isEmpty();
    }

    @Property(tries = TRIES, seed = SEED)
    void printThenParseGivesTheSameType(@ForAll("types") SessionType t) {
        assertThat(SessionTypes.parse(SessionTypes.print(t))).isEqualTo(t);
    }

    @Property(tries = TRIES, seed = SEED)
    void lengthCountsTheTopLevelActionsOfEverySuffixAndConcatenation(@ForAll("types") SessionType s,
            @ForAll("types") SessionType t) {
        for (SessionType u : List.of(s, s.then(t), t.then(s))) {
            int length = u.actions().size();
            for (SessionType rest = u; ; rest = rest.tail()) {
                assertThat(rest.length()).as(SessionTypes.print(rest)).isEqualTo(length);
                if (rest.isEnd()) {
                    break;
                }
                length--;
            }
        }
    }

    @Property(tries = TRIES, seed = SEED)
    void dualIsAnInvolution(@ForAll("types") SessionType t) {
        assertThat(dual(dual(t))).isEqualTo(t);
    }

    @Property(tries = TRIES, seed = SEED)
    void subtypingIsReflexive(@ForAll("types") SessionType t) {
        assertThat(isSubtype(t, t, NUMBERS)).isTrue();
        assertThat(equivalent(t, t)).isTrue();
    }

    @Property(tries = TRIES, seed = SEED)
    void widenedTypesAreSupertypesAndDualityReversesSubtyping(@ForAll("types") SessionType s, @ForAll long seed) {
        SessionType t = SessionTypeGenerator.widen(s, new Random(seed));
        assertThat(isSubtype(s, t, NUMBERS)).as("%s ≤ %s", s, t).isTrue();
        assertThat(isSubtype(dual(t), dual(s), NUMBERS)).as("dual(%s) ≤ dual(%s)", t, s).isTrue();
    }

    @Property(tries = TRIES, seed = SEED)
    void subtypingIsTransitive(@ForAll("types") SessionType s, @ForAll long seed) {
        Random random = new Random(seed);
        SessionType t = SessionTypeGenerator.widen(s, random);
        SessionType u = SessionTypeGenerator.widen(t, random);
        assertThat(isSubtype(s, t, NUMBERS) && isSubtype(t, u, NUMBERS)).isTrue();
        assertThat(isSubtype(s, u, NUMBERS)).as("%s ≤ %s", s, u).isTrue();
    }

    @Property(tries = TRIES, seed = SEED)
    void unrelatedPairsObeyTransitivityAndDuality(@ForAll("types") SessionType s, @ForAll("types") SessionType t,
                                                  @ForAll("types") SessionType u) {
        boolean st = isSubtype(s, t, NUMBERS);
        if (st && isSubtype(t, u, NUMBERS)) {
            assertThat(isSubtype(s, u, NUMBERS)).isTrue();
        }
        assertThat(isSubtype(dual(t), dual(s), NUMBERS)).isEqualTo(st);
    }

    @Property(tries = TRIES, seed = SEED)
    void aTypeIsEquivalentToItsUnfoldings(@ForAll("types") SessionType t) {
        SessionType unfolded = unfoldEveryTopLevelRec(t);
        assertThat(equivalent(t, unfolded)).as("%s ≡ %s", t, unfolded).isTrue();
        assertThat(SessionTypes.compatible(t, dual(t), NUMBERS) || startsWith(t, Side.ACCEPT)).isTrue();
    }

    @Property(tries = 100, seed = SEED)
    void dotOutputIsDeterministic(@ForAll("types") SessionType t) {
        assertThat(SessionTypes.toDot(t)).isEqualTo(SessionTypes.toDot(SessionTypes.parse(SessionTypes.print(t))))
                .contains("start -> s0;");
    }

    @Property(tries = TRIES, seed = SEED)
    void damagedTextFailsOnlyWithAPositionedSyntaxError(@ForAll("types") SessionType t, @ForAll long seed) {
        String text = SessionTypes.print(t);
        Random random = new Random(seed);
        StringBuilder damaged = new StringBuilder(text);
        String noise = "!?<>()[]{}*.,:#@^ /x1";
        for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
            int at = random.nextInt(damaged.length() + 1);
            if (random.nextBoolean() && at < damaged.length()) {
                damaged.deleteCharAt(at);
            } else {
                damaged.insert(at, noise.charAt(random.nextInt(noise.length())));
            }
        }
        try {
            SessionTypes.parse(damaged.toString());
        } catch (ProtocolSyntaxException e) {
            assertThat(e.offset()).isBetween(0, damaged.length());
            assertThat(e.line()).isPositive();
            assertThat(e.column()).isPositive();
            assertThat(e.expected()).isNotBlank();
            assertThat(e.found()).isNotBlank();
            assertThat(e.getMessage()).contains("expected ").endsWith("^");
        }
    }

    private static boolean startsWith(SessionType t, Side side) {
        return !t.isEnd() && t.head() instanceof Action.Begin begin && begin.side() == side;
    }

    /** Unfolds, once, every rec that starts a suffix of the top-level sequence. */
    private static SessionType unfoldEveryTopLevelRec(SessionType t) {
        List<Action> prefix = new ArrayList<>();
        SessionType rest = t;
        while (!rest.isEnd()) {
            if (rest.head() instanceof Action.Rec) {
                SessionType unfolded = Unfolding.unfoldRecursion(rest);
                return new SessionType(prefix).then(unfolded);
            }
            prefix.add(rest.head());
            rest = rest.tail();
        }
        return t;
    }
}
