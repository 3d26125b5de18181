package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.sessionj.types.SessionTypes;

/**
 * Class names a peer sends are related to the declared ones through {@link ReachableClasses}: only
 * classes reachable from the declared protocol (and {@code java.*}) are loaded, none initialised;
 * and the verdicts remembered for peers' types are bounded by memory, not count.
 */
class PeerChosenClassesTest {

    /** Records every class name it is asked for, then delegates. */
    static final class RecordingLoader extends ClassLoader {
        final Set<String> asked = ConcurrentHashMap.newKeySet();

        RecordingLoader() {
            super(PeerChosenClassesTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            asked.add(name);
            return super.loadClass(name, resolve);
        }
    }

    /** Set by initialisers; reading a field of the class itself would initialise it. */
    static final class Initialised {
        static volatile boolean bystander;
    }

    /** A class no protocol here names, whose initialiser would show. */
    public static final class Bystander extends Number {
        static {
            Initialised.bystander = true;
        }

        @Override public int intValue() { return 0; }
        @Override public long longValue() { return 0; }
        @Override public float floatValue() { return 0; }
        @Override public double doubleValue() { return 0; }
    }

    @Test
    void aRequesterNamingAnUnreachableClassLoadsNothingAndIsNotASubtype() {
        RecordingLoader loader = new RecordingLoader();
        var accepter = SessionTypes.parse("sbegin.?(java.lang.Number).!<int>");
        ReachableClasses reachable = ReachableClasses.of(accepter, loader);
        String bystander = Bystander.class.getName();
        var requester = SessionTypes.parse("cbegin.!<" + bystander + ">.?(int)");

        boolean compatible = SessionTypes.compatible(requester, accepter, reachable.subtyping());

        assertThat(compatible).as("an unreachable class is related only to itself").isFalse();
        assertThat(loader.asked).doesNotContain(bystander);
        assertThat(Initialised.bystander).isFalse();
        assertThat(reachable.allows("java.lang.Integer")).isTrue();
        assertThat(SessionTypes.compatible(SessionTypes.parse("cbegin.!<java.lang.Integer>.?(int)"), accepter,
                reachable.subtyping())).as("platform classes are related as Java relates them").isTrue();
    }

    @Test
    void declaredClassesAndTheirSupertypesAreReachable() {
        var type = SessionTypes.parse("sbegin.?(" + Bystander.class.getName() + ").!<java.util.List<"
                + Bystander.class.getName() + ">>");
        ReachableClasses reachable = ReachableClasses.of(type, getClass().getClassLoader());
        assertThat(reachable.allows(Bystander.class.getName())).isTrue();
        assertThat(reachable.allows(PeerChosenClassesTest.class.getName())).isFalse();
        assertThat(reachable.subtyping().isSubtype(SessionTypes.parse("!<" + Bystander.class.getName() + ">")
                .actions().stream().map(a -> ((org.sessionj.types.Action.Send) a).payload())
                .map(org.sessionj.types.Payload.JavaType.class::cast).findFirst().orElseThrow(),
                new org.sessionj.types.Payload.JavaType("java.lang.Number", List.of(), 0))).isTrue();
        assertThat(Initialised.bystander).as("loaded without initialisation").isFalse();
    }

    @Test
    void theVerdictCacheIsBoundedByTheMemoryOfItsKeys() {
        VerdictCache cache = new VerdictCache(64 * 1024);
        for (int i = 0; i < 10_000; i++) {
            cache.put("cbegin.!<int>." + "x".repeat(i % 500) + i, true);
            assertThat(cache.bytes()).isLessThanOrEqualTo(64 * 1024);
        }
        assertThat(cache.size()).isPositive();
        String huge = "y".repeat(9_000); // over a quarter of the bound
        cache.put(huge, false);
        assertThat(cache.get(huge)).as("a type over a quarter of the bound is never kept").isNull();
    }

    @Test
    void theVerdictCacheEvictsTheLeastRecentlyUsed() {
        VerdictCache cache = new VerdictCache(4 * (2 * 10 + 96)); // four entries of ten characters
        cache.put("aaaaaaaaaa", true);
        cache.put("bbbbbbbbbb", false);
        cache.put("cccccccccc", true);
        cache.put("dddddddddd", true);
        assertThat(cache.get("aaaaaaaaaa")).isTrue(); // now the most recent
        cache.put("eeeeeeeeee", true);
        assertThat(cache.get("bbbbbbbbbb")).isNull();
        assertThat(cache.get("aaaaaaaaaa")).isTrue();
        assertThat(cache.get("dddddddddd")).isTrue();
    }
}
