package org.sessionj.types.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.ProtocolResolver;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;

/**
 * Every operation on types nesting {@link SessionTypes#MAX_NESTING_CEILING} levels (the highest limit
 * a user may set) runs on a thread with half the JVM's usual default stack: the algorithms that
 * recurse once per level (none of the hot ones do) stay far from its end. Called through the internal
 * classes so the ceiling, not the default limit, applies.
 */
class DeepTypesOnASmallStackTest {
    private static final int DEPTH = SessionTypes.MAX_NESTING_CEILING;
    private static final long SMALL_STACK = 512 * 1024;

    static Stream<String> shapes() {
        return Stream.of(
                "![".repeat(DEPTH) + "!<int>" + "]*".repeat(DEPTH),
                "?{QUIT: , MORE: ".repeat(DEPTH) + "?(int)" + "}".repeat(DEPTH),
                "!{A: ".repeat(DEPTH) + "@(P)" + "}".repeat(DEPTH),
                "!<".repeat(DEPTH) + "cbegin.?(int)" + ">".repeat(DEPTH),
                "?(".repeat(DEPTH - 64) + "!<" + "List<".repeat(63) + "String" + ">".repeat(63) + ">" + ")".repeat(DEPTH - 64),
                recChain(DEPTH / 2),
                mixed(DEPTH, new Random(7)));
    }

    /**
     * {@code rec X0[?{STOP: , GO: !<int>.rec X1[…#X0…]}]}, {@code recs} deep (two levels each): the
     * innermost body jumps back to the outermost rec.
     */
    private static String recChain(int recs) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < recs; i++) {
            text.append("rec X").append(i).append("[?{STOP: , GO: !<int>.");
        }
        text.append("#X0");
        text.append("}]".repeat(recs));
        return text.toString();
    }

    /** A random mix of every bracket, with a recursion variable bound at a random level. */
    private static String mixed(int depth, Random random) {
        List<String> closers = new ArrayList<>();
        StringBuilder text = new StringBuilder("cbegin.");
        int recAt = random.nextInt(depth);
        for (int i = 0; i < depth; i++) {
            if (i == recAt) {
                text.append("rec R[!<int>.");
                closers.add("]");
                continue;
            }
            switch (random.nextInt(5)) {
                case 0 -> { text.append("![?(int)."); closers.add("]*"); }
                case 1 -> { text.append("?{X: , Y: "); closers.add("}"); }
                case 2 -> { text.append("!{Z: ?(long)."); closers.add("}"); }
                case 3 -> { text.append("?["); closers.add("]*"); }
                default -> { text.append("?(!<boolean>."); closers.add(").!<int>"); }
            }
        }
        text.append("!<String>");
        for (int i = closers.size() - 1; i >= 0; i--) {
            text.append(closers.get(i));
        }
        return text.toString();
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void everyOperationRunsAtTheCeilingOnHalfTheDefaultStack(String text) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(null, () -> {
            try {
                allOperations(text);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "small-stack", SMALL_STACK);
        thread.start();
        thread.join();
        if (failure.get() != null) {
            throw new AssertionError("failed on a " + SMALL_STACK / 1024 + " KiB stack", failure.get());
        }
    }

    private static void allOperations(String text) {
        ProtocolParser.Result parsed = ProtocolParser.parse(text, DEPTH, true);
        SessionType type = parsed.type();
        assertThat(type.depth()).isBetween(DEPTH - 1, DEPTH);
        SessionType again = ProtocolParser.parse(text, DEPTH, false).type();
        assertThat(again).isEqualTo(type).hasSameHashCodeAs(type);

        assertThat(Printer.print(type)).isEqualTo(text);
        assertThat(Printer.printFolded(type)).isEqualTo(text);
        SessionType dual = Duality.dual(type);
        assertThat(Duality.dual(dual)).isEqualTo(type);

        assertThat(new WellFormedness(parsed.offsets()::get, DEPTH).check(type)).isEmpty();
        assertThat(FreeVariables.of(type)).isEmpty();
        ProtocolResolver resolver = ProtocolResolver.of(Map.of("P", SessionTypes.parse("!<int>.?(int)")));
        Expander expander = new Expander(resolver, DEPTH, SessionTypes.MAX_EXPANDED_SIZE, text, parsed.offsets());
        SessionType expanded = expander.expand(type);
        assertThat(new WellFormedness(node -> expander.offsets().getOrDefault(node, -1), DEPTH).check(expanded))
                .isEmpty();

        assertThat(Subtyping.compare(expanded, expanded, JavaSubtyping.EXACT, Subtyping.Mode.SUBTYPE)).isNull();
        assertThat(Subtyping.compare(expanded, Duality.dual(Duality.dual(expanded)),
                JavaSubtyping.EXACT, Subtyping.Mode.EQUIVALENT)).isNull();
        assertThat(Subtyping.compare(Duality.dual(expanded), expanded, JavaSubtyping.EXACT, Subtyping.Mode.SUBTYPE))
                .isNotNull();
        assertThat(Dot.toDot(expanded)).startsWith("digraph session {");
    }
}
