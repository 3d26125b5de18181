package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sessionj.types.Payload.JavaType;

/**
 * The nesting limit: every kind of bracket counts, the limit itself parses, one more level is a
 * positioned SJT103, and types built in code beyond it are refused by the operations that recurse.
 * Also the other direction of size: 100,000 actions in sequence go through every operation.
 */
class NestingLimitTest {

    /** A protocol nesting {@code depth} levels of one kind of bracket, and where its deepest opener is. */
    record Nest(String kind, String text, int deepestOpener) {
    }

    static Nest nest(String kind, int depth) {
        String open;
        String close;
        String leaf = "!<int>";
        switch (kind) {
            case "outwhile" -> { open = "!["; close = "]*"; }
            case "inwhile" -> { open = "?["; close = "]*"; }
            case "select" -> { open = "!{A: "; close = "}"; }
            case "branch" -> { open = "?{B: ?(int), A: "; close = "}"; }
            case "rec" -> { open = "rec X[!<int>."; close = "]"; leaf = "#X"; }
            case "send payload" -> { open = "!<"; close = ">"; leaf = "?(int)"; }
            case "receive payload" -> { open = "?("; close = ")"; leaf = "!<int>"; }
            case "type arguments" -> {
                return new Nest(kind, "!<" + "List<".repeat(depth) + "String" + ">".repeat(depth) + ">",
                        2 + "List<".length() * (depth - 1) + "List".length());
            }
            default -> throw new IllegalArgumentException(kind);
        }
        int bracketInOpener = switch (kind) {
            case "rec" -> "rec X".length();
            default -> 1;
        };
        String text = open.repeat(depth) + leaf + close.repeat(depth);
        return new Nest(kind, text, open.length() * (depth - 1) + bracketInOpener);
    }

    static Stream<String> kinds() {
        return Stream.of("outwhile", "inwhile", "select", "branch", "rec", "send payload", "receive payload");
    }

    static Stream<Arguments> kindsAndLimits() {
        return kinds().flatMap(kind -> Stream.of(Arguments.of(kind, 1), Arguments.of(kind, 40),
                Arguments.of(kind, SessionTypes.DEFAULT_MAX_NESTING)));
    }

    @ParameterizedTest(name = "{0} at limit {1}")
    @MethodSource("kindsAndLimits")
    void theLimitParsesAndOneMoreLevelIsAPositionedError(String kind, int limit) {
        SessionType atLimit = SessionTypes.parse(nest(kind, limit).text(), limit);
        assertThat(atLimit.depth()).isEqualTo(limit);
        assertThat(SessionTypes.parse(SessionTypes.print(atLimit), limit)).isEqualTo(atLimit);

        Nest deeper = nest(kind, limit + 1);
        assertThatThrownBy(() -> SessionTypes.parse(deeper.text(), limit))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT103");
                    assertThat(e.kind()).isEqualTo(ProtocolProblem.Kind.NESTING_TOO_DEEP);
                    assertThat(e.offset()).isEqualTo(deeper.deepestOpener());
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.column()).isEqualTo(deeper.deepestOpener() + 1);
                    assertThat(e.expected()).isEqualTo("at most " + limit + " levels of nesting");
                    assertThat(e.found()).startsWith("'" + deeper.text().charAt(deeper.deepestOpener()) + "'")
                            .endsWith("opening level " + (limit + 1));
                    assertThat(e.getMessage()).contains(SessionTypes.MAX_NESTING_PROPERTY);
                });
    }

    @Test
    void theDefaultLimitIsGenerousAndTheCeilingHolds() {
        assertThat(SessionTypes.maxNesting()).isEqualTo(SessionTypes.DEFAULT_MAX_NESTING);
        // Limits outside 1…ceiling are clamped, never disabled.
        String ceilingPlusOne = nest("outwhile", SessionTypes.MAX_NESTING_CEILING + 1).text();
        assertThatThrownBy(() -> SessionTypes.parse(ceilingPlusOne, Integer.MAX_VALUE))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> assertThat(e.code()).isEqualTo("SJT103"));
        assertThat(SessionTypes.parse("![!<int>]*", 0).depth()).isEqualTo(1);
    }

    @Test
    void typeArgumentsCountAndNestAtMost64LevelsWithinTheLimit() {
        assertThat(SessionTypes.parse(nest("type arguments", 64).text()).depth()).isEqualTo(64);
        Nest tooDeep = nest("type arguments", 65);
        assertThatThrownBy(() -> SessionTypes.parse(tooDeep.text()))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT103");
                    assertThat(e.offset()).isEqualTo(tooDeep.deepestOpener());
                    assertThat(e.expected()).isEqualTo("at most 64 levels of type arguments");
                });
        // Inside 10 loops, a limit of 12 leaves 2 levels for type arguments.
        String inLoops = "![".repeat(10) + "!<Map<String, List<Integer>>>" + "]*".repeat(10);
        assertThat(SessionTypes.parse(inLoops, 12).depth()).isEqualTo(12);
        assertThatThrownBy(() -> SessionTypes.parse(inLoops, 11))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT103");
                    assertThat(e.offset()).isEqualTo(inLoops.indexOf("<Integer"));
                });
    }

    @Test
    void messageTypesThatNeedJavaParserAreBoundedToo() {
        // A non-ASCII name sends a type to JavaParser, which nests a tree node per '.', '[', '<' and '('.
        String dotted = "!<\u00fc" + ".a".repeat(300) + ">";
        assertThatThrownBy(() -> SessionTypes.parse(dotted))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT103");
                    assertThat(e.found()).isEqualTo("'.'");
                });
        String longExotic = "!<\u00fc" + "x".repeat(2005) + ">";
        assertThatThrownBy(() -> SessionTypes.parse(longExotic))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT100");
                    assertThat(e.found()).endsWith("(2006 characters)");
                    assertThat(e.getMessage().length()).isLessThan(1000);
                });
        // The fast path reads long plain names and array brackets up to the JVM's 255 without JavaParser.
        String plain = "!<" + "a.".repeat(5000) + "B" + "[]".repeat(255) + ">";
        Payload.JavaType type = (JavaType) ((Action.Send) SessionTypes.parse(plain).head()).payload();
        assertThat(type.arrayDimensions()).isEqualTo(255);
        assertThat(type.name()).hasSize(2 * 5000 + 1);
    }

    /** {@code depth} loops around one send, built in code (no parser, so no limit on the way in). */
    private static SessionType deepLoopsBuiltInCode(int depth) {
        SessionType type = SessionType.of(new Action.Send(JavaType.of("int")));
        for (int i = 0; i < depth; i++) {
            type = SessionType.of(new Action.OutWhile(type));
        }
        return type;
    }

    @Test
    void typesBuiltInCodeBeyondTheLimitAreRefusedByTheOperationsThatRecurse() {
        SessionType deep = deepLoopsBuiltInCode(20_000);
        assertThat(deep.depth()).isEqualTo(20_000);
        // Never recursive: equality, hashing, printing, duality.
        assertThat(deep).isEqualTo(deepLoopsBuiltInCode(20_000)).hasSameHashCodeAs(deepLoopsBuiltInCode(20_000));
        assertThat(deep).isNotEqualTo(deepLoopsBuiltInCode(19_999));
        String printed = SessionTypes.print(deep);
        assertThat(printed).startsWith("![![").hasSize(20_000 * 4 + "!<int>".length());
        assertThat(SessionTypes.dual(SessionTypes.dual(deep))).isEqualTo(deep);
        // Everything else reports SJT103 instead of recursing 20,000 levels.
        assertThat(SessionTypes.wellFormednessProblems(deep)).singleElement()
                .satisfies(p -> assertThat(p.code()).isEqualTo("SJT103"));
        assertThatThrownBy(() -> SessionTypes.isSubtype(deep, deep, JavaSubtyping.EXACT))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.code()).isEqualTo("SJT103"));
        assertThatThrownBy(() -> SessionTypes.toDot(deep))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.code()).isEqualTo("SJT103"));
        assertThatThrownBy(() -> SessionTypes.expand(deep, ProtocolResolver.none()))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.code()).isEqualTo("SJT103"));
    }

    @Test
    void expansionStaysWithinTheLimitAndTheSizeCap() {
        // Each protocol nests 200 levels; inlined into each other they would nest 400.
        String nested = "![".repeat(200) + "@(Q)" + "]*".repeat(200);
        ProtocolResolver deep = ProtocolResolver.of(java.util.Map.of(
                "P", SessionTypes.parse(nested), "Q", SessionTypes.parse("![".repeat(200) + "!<int>" + "]*".repeat(200))));
        ParsedProtocol parsed = SessionTypes.parseWithPositions("cbegin.\n  @(P)");
        assertThatThrownBy(() -> parsed.expand(deep))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT103");
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(3);
                });
        // Each of 30 protocols uses the previous one twice: 2^30 actions once inlined.
        java.util.Map<String, SessionType> doubling = new java.util.HashMap<>();
        doubling.put("P0", SessionTypes.parse("!<int>"));
        for (int i = 1; i <= 30; i++) {
            doubling.put("P" + i, SessionTypes.parse("@(P" + (i - 1) + ").@(P" + (i - 1) + ")"));
        }
        assertThatThrownBy(() -> SessionTypes.expand(SessionTypes.parse("@(P30)"), ProtocolResolver.of(doubling)))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT304");
                    assertThat(e.getMessage()).contains("at most " + SessionTypes.MAX_EXPANDED_SIZE + " actions");
                });
    }

    @Test
    void aLongChainOfProtocolReferencesExpandsWithoutRecursion() {
        java.util.Map<String, SessionType> chain = new java.util.HashMap<>();
        int length = 20_000;
        for (int i = 0; i < length; i++) {
            chain.put("P" + i, SessionTypes.parse("!<int>.@(P" + (i + 1) + ")"));
        }
        chain.put("P" + length, SessionTypes.parse("?(int)"));
        SessionType expanded = SessionTypes.expand(SessionTypes.parse("@(P0)"), ProtocolResolver.of(chain));
        assertThat(expanded.actions()).hasSize(length + 1);
        // A cycle at the end of a long chain is still found, and named.
        chain.put("P" + length, SessionTypes.parse("@(P" + (length - 1) + ")"));
        assertThatThrownBy(() -> SessionTypes.expand(SessionTypes.parse("@(P0)"), ProtocolResolver.of(chain)))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT302");
                    assertThat(e.getMessage()).startsWith("protocol P" + (length - 1) + " refers to itself: P"
                            + (length - 1) + " -> P" + length + " -> P" + (length - 1));
                });
    }

    @Test
    void aHundredThousandActionsInSequenceGoThroughEveryOperation() {
        int n = 100_000;
        List<String> actions = new ArrayList<>(Collections.nCopies(n, "!<int>"));
        actions.set(0, "cbegin");
        actions.set(n / 2, "?(String)");
        actions.set(n - 1, "!{A: !<int>, B: }");
        String text = String.join(".", actions);
        SessionType type = SessionTypes.parse(text);
        assertThat(type.actions()).hasSize(n);
        assertThat(type.size()).isEqualTo(n + 1);
        assertThat(SessionTypes.print(type)).isEqualTo(text);
        SessionType again = SessionTypes.parse(text);
        assertThat(again).isEqualTo(type).hasSameHashCodeAs(type);
        SessionType dual = SessionTypes.dual(type);
        assertThat(SessionTypes.wellFormednessProblems(type)).isEmpty();
        assertThat(SessionTypes.isSubtype(type, again, JavaSubtyping.EXACT)).isTrue();
        assertThat(SessionTypes.compatible(type, dual, JavaSubtyping.EXACT)).isTrue();

        // One label fewer at the very end: a subtype (selects less), not equivalent, and the diff finds it.
        actions.set(n - 1, "!{A: !<int>}");
        SessionType fewer = SessionTypes.parse(String.join(".", actions));
        assertThat(SessionTypes.isSubtype(fewer, type, JavaSubtyping.EXACT)).isTrue();
        assertThat(SessionTypes.isSubtype(type, fewer, JavaSubtyping.EXACT)).isFalse();
        TypeDiff diff = TypeDiff.between(type, fewer).orElseThrow();
        assertThat(diff.path()).hasSize(n - 1).startsWith("cbegin", "!<int>").endsWith("!<int>");
        assertThat(diff.reason()).isEqualTo("labels [B] are expected but missing");
        assertThat(diff.expected()).isEqualTo("!{A: !<int>, B: }");
        assertThat(diff.found()).isEqualTo("!{A: !<int>}");
        assertThat(diff.toString()).contains("\u2026(" + (n - 1) + " steps)\u2026").hasSizeLessThan(1000);

        assertThat(SessionTypes.toDot(type)).contains("s" + (n - 1) + " -> s" + n + " [label=\"!{A}\"]");
    }
}
