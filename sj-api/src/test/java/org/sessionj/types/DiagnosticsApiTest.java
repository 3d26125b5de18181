package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.types.SessionTypes.parse;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sessionj.types.internal.Unfolding;

/**
 * What diagnostics build on: {@link SessionTypes#printFolded}, {@link TypeDiff}, error excerpts cut to
 * the neighbourhood of the column, and positions on well-formedness and expansion errors.
 */
class DiagnosticsApiTest {
    private static final String LOOP = "rec LOOP[!{GET: !<String>.?(boolean).#LOOP, QUIT: }]";

    @Test
    void foldedPrintingWritesAnUnfoldedRecOnceWithItsVariableInside() {
        SessionType loop = parse(LOOP);
        SessionType unfolded = Unfolding.unfoldRecursion(loop);
        // Plain printing repeats the whole body after one round.
        assertThat(SessionTypes.print(unfolded))
                .isEqualTo("!{GET: !<String>.?(boolean).rec LOOP[!{GET: !<String>.?(boolean).#LOOP, QUIT: }], QUIT: }");
        assertThat(SessionTypes.printFolded(unfolded)).isEqualTo(LOOP);
        // After GET and its messages, the state is the loop again: folded, it is the rec, once.
        SessionType afterGet = ((Unfolding.Choice) Unfolding.head(unfolded)).branches().get("GET").tail().tail();
        assertThat(SessionTypes.printFolded(afterGet)).isEqualTo(LOOP);
        // In the middle of a sequence, and with what follows the rec.
        SessionType inSequence = parse("cbegin.!<int>").then(Unfolding.unfoldRecursion(parse(LOOP + ".?(int)")));
        assertThat(SessionTypes.printFolded(inSequence)).isEqualTo("cbegin.!<int>." + LOOP + ".?(int)");
        assertThat(SessionTypes.equivalent(parse(SessionTypes.printFolded(inSequence)), inSequence)).isTrue();
        // Nothing unfolded: the same text as print.
        assertThat(SessionTypes.printFolded(loop)).isEqualTo(LOOP);
    }

    @Test
    void theDiffNamesThePathAndTheDifferingPartFirst() {
        SessionType expected = parse("cbegin.!<int>.?{GET: ?(String).!<int>, QUIT: }");
        TypeDiff diff = TypeDiff.between(expected, parse("cbegin.!<int>.?{GET: ?(int).!<int>, QUIT: }")).orElseThrow();
        assertThat(diff.path()).containsExactly("cbegin", "!<int>", "?{GET}");
        assertThat(diff.expected()).isEqualTo("?(String).!<int>");
        assertThat(diff.found()).isEqualTo("?(int).!<int>");
        assertThat(diff.reason()).isEqualTo("message type int where String is expected");
        assertThat(diff).hasToString("after cbegin.!<int>.?{GET}: expected ?(String).!<int> but found ?(int).!<int>:"
                + " message type int where String is expected");
        assertThat(TypeDiff.between(expected, parse("cbegin.!<int>.?{QUIT: , GET: ?(String).!<int>}"))).isEmpty();
    }

    @Test
    void theDiffExplainsEveryKindOfDifference() {
        assertThat(reason("!<int>", "?(int)")).isEqualTo("a receive (?(int)) where a send (!<int>) is expected");
        assertThat(reason("!<int>", "")).isEqualTo("the session ends where more is expected");
        assertThat(reason("", "!<int>")).isEqualTo("more follows where the session is expected to end");
        assertThat(reason("![!<int>]*", "!{A: !<int>}")).isEqualTo(
                "a selection (!{…}) where a loop this side controls (![…]*) is expected");
        assertThat(reason("?{A: , B: }", "?{A: }")).isEqualTo("labels [B] are expected but missing");
        assertThat(reason("!{A: }", "!{A: , C: }")).isEqualTo("label C is not among the expected labels [A]");
        // Subtyping: selecting fewer and offering more is fine; the other way round is named.
        assertThat(TypeDiff.subtype(parse("!{A: }"), parse("!{A: , B: }"), JavaSubtyping.EXACT)).isEmpty();
        assertThat(TypeDiff.subtype(parse("?{A: }"), parse("?{A: , B: }"), JavaSubtyping.EXACT).orElseThrow().reason())
                .isEqualTo("label B is expected to be offered but only [A] are");
        assertThat(TypeDiff.subtype(parse("!<Object>"), parse("!<String>"), JavaSubtyping.EXACT).orElseThrow().reason())
                .isEqualTo("sends Object, which is not a subtype of the expected String");
    }

    @Test
    void theDiffGoesIntoPayloadsAndThroughRecursion() {
        TypeDiff inPayload = TypeDiff.between(parse("!<int>.!<?(int).!<String>>"), parse("!<int>.!<?(int).!<int>>"))
                .orElseThrow();
        assertThat(inPayload.path()).containsExactly("!<int>", "payload of !<?(int).!<String>>", "?(int)");
        assertThat(inPayload.expected()).isEqualTo("!<String>");
        assertThat(inPayload.found()).isEqualTo("!<int>");
        // The third round of a loop differs: the path runs through the rec, folded where it repeats.
        TypeDiff inLoop = TypeDiff.between(parse("rec X[!{MORE: !<int>.#X, DONE: }]"),
                parse("!{MORE: !<int>.!{MORE: !<int>.rec X[!{MORE: ?(int).#X, DONE: }], DONE: }, DONE: }")).orElseThrow();
        assertThat(inLoop.path()).containsExactly("!{MORE}", "!<int>", "!{MORE}", "!<int>", "!{MORE}");
        assertThat(inLoop.expected()).isEqualTo("!<int>.rec X[!{MORE: !<int>.#X, DONE: }]");
        assertThat(inLoop.found()).isEqualTo("?(int).rec X[!{MORE: ?(int).#X, DONE: }]");
    }

    @Test
    void compatibilityIsSeenFromTheRequester() {
        SessionType accepter = parse("sbegin.?(int).!<String>");
        assertThat(TypeDiff.compatibility(parse("cbegin.!<int>.?(String)"), accepter, JavaSubtyping.EXACT)).isEmpty();
        TypeDiff diff = TypeDiff.compatibility(parse("cbegin.!<int>.?(int)"), accepter, JavaSubtyping.EXACT)
                .orElseThrow();
        assertThat(diff.path()).containsExactly("cbegin", "!<int>");
        assertThat(diff.expected()).isEqualTo("?(String)");
        assertThat(diff.found()).isEqualTo("?(int)");
        TypeDiff sides = TypeDiff.compatibility(parse("sbegin.!<int>"), accepter, JavaSubtyping.EXACT).orElseThrow();
        assertThat(sides.path()).isEmpty();
        assertThat(sides.reason()).contains("but they begin with sbegin and sbegin");
    }

    @Test
    void diffPartsStayShortWhateverTheTypes() {
        String huge = "!<int>.".repeat(5_000) + "?(int)";
        TypeDiff diff = TypeDiff.between(parse(huge), parse("?(long)." + huge)).orElseThrow();
        assertThat(diff.expected()).hasSize(TypeDiff.MAX_PART).endsWith("\u2026");
        assertThat(diff.toString()).hasSizeLessThan(3 * TypeDiff.MAX_PART);
    }

    @Test
    void anErrorInAHugeProtocolEchoesItsNeighbourhoodNotTheProtocol() {
        String text = "cbegin." + "!<int>.".repeat(150_000) + "!x" + ".!<int>".repeat(1_000);
        assertThat(text.length()).isGreaterThan(1_000_000);
        assertThatThrownBy(() -> parse(text)).isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
            assertThat(e.line()).isEqualTo(1);
            assertThat(e.column()).isEqualTo(text.indexOf("!x") + 2);
            assertThat(e.found()).isEqualTo("'x'");
            assertThat(e.getMessage().length()).isLessThan(500);
            String[] excerpt = e.excerpt().split("\n");
            assertThat(excerpt[0]).startsWith("\u2026").endsWith("\u2026").hasSizeLessThanOrEqualTo(2 + 2 * 60);
            int caret = excerpt[1].indexOf('^');
            assertThat(excerpt[0].charAt(caret)).isEqualTo('x');
            assertThat(excerpt[0].charAt(caret - 1)).isEqualTo('!');
        });
        // A huge identifier is quoted by its ends.
        String word = "x".repeat(100_000);
        assertThatThrownBy(() -> parse("cbegin." + word)).isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
            assertThat(e.found()).contains("(100000 characters)").hasSizeLessThan(100);
            assertThat(e.getMessage().length()).isLessThan(1_000);
        });
        // A hundred thousand problems are counted, a few listed.
        String unbound = String.join(".", java.util.Collections.nCopies(100_000, "!<int>.![#X]*"));
        assertThatThrownBy(() -> SessionTypes.checkWellFormed(parse(unbound)))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.getMessage()).contains("(and 99999 more: ").hasSizeLessThan(3_000);
                });
    }

    @Test
    void wellFormednessAndExpansionErrorsArePositionedInTheText() {
        ParsedProtocol parsed = SessionTypes.parseWithPositions("cbegin.\n  !<int>.\n  rec X[?(int)].#X");
        assertThatThrownBy(parsed::checkWellFormed).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.code()).isEqualTo("SJT202");
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.column()).isEqualTo(17);
            assertThat(e.excerpt()).isEqualTo("  rec X[?(int)].#X\n                ^");
        });
        ProtocolResolver defs = ProtocolResolver.of(Map.of("Service", parse("cbegin.!<int>"), "Open", parse("!<int>.#Y")));
        ParsedProtocol withReferences = SessionTypes.parseWithPositions("cbegin.\n  ?(int).\n  @(Missing)");
        assertThatThrownBy(() -> withReferences.expand(defs)).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.code()).isEqualTo("SJT301");
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.column()).isEqualTo(3);
        });
        assertThatThrownBy(() -> SessionTypes.parseWithPositions("rec Y[!<int>.@(Open)]").expand(defs))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT303");
                    assertThat(e.column()).isEqualTo(14);
                });
        // A problem that only inlining creates is positioned at the reference that inlined it.
        ParsedProtocol inlined = SessionTypes.parseWithPositions("cbegin.?(int).\n  @(Service)").expand(defs);
        assertThat(inlined.type()).isEqualTo(parse("cbegin.?(int).cbegin.!<int>"));
        assertThat(inlined.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo("SJT206");
            assertThat(problem.offset()).isEqualTo("cbegin.?(int).\n  ".length());
        });
        assertThatThrownBy(inlined::checkWellFormed).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.column()).isEqualTo(3);
        });
    }

    private static String reason(String expected, String found) {
        return TypeDiff.between(parse(expected), parse(found)).orElseThrow().reason();
    }
}
