package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Any text either parses or fails with a positioned {@link ProtocolException} — never another
 * exception, never an {@link Error} — and so does everything done next with what parsed: token soups
 * up to 8 KB, bracket nests up to 16 KB (far past the nesting limit), and arbitrary characters.
 * Messages stay short whatever the input.
 */
class ParserRobustnessPropertiesTest {
    private static final String SEED = "20261123";
    private static final List<String> TOKENS = List.of("!<", "?(", "!{", "?{", "![", "?[", "]*", "]", "}", ">", ")",
            "rec X[", "rec Y[", "#X", "#Y", "@(P)", "^(P)", "cbegin", "sbegin", "end", ".", ".", ".", ",", ":", " ",
            "\n", "A: ", "B: ", "int", "String", "List<", "double[]", "/*", "*/", "//", "@A ", "?", "java.util.Map<",
            "\u00e9", "\t");
    private static final SessionType ACCEPTER = SessionTypes.parse("sbegin.?(int).rec X[?{A: !<String>.#X, B: }]");

    @Provide
    Arbitrary<String> tokenSoup() {
        return Arbitraries.of(TOKENS).list().ofMaxSize(2_000).map(tokens -> String.join("", tokens))
                .filter(text -> text.length() <= 8_192);
    }

    @Provide
    Arbitrary<String> bracketNests() {
        Arbitrary<String> opener = Arbitraries.of("![", "?[", "!{A: ", "?{B: ", "rec X[", "!<", "?(", "!<List<");
        return opener.list().ofMinSize(1).ofMaxSize(2_000).flatMap(openers -> Arbitraries.integers()
                .between(0, openers.size()).map(closed -> nest(openers, closed)));
    }

    /** {@code openers}, a leaf, then the closers of the innermost {@code closed} of them. */
    private static String nest(List<String> openers, int closed) {
        StringBuilder text = new StringBuilder();
        openers.forEach(text::append);
        text.append("!<int>");
        for (int i = openers.size() - 1; i >= openers.size() - closed; i--) {
            text.append(switch (openers.get(i)) {
                case "![", "?[" -> "]*";
                case "!{A: ", "?{B: " -> "}";
                case "rec X[" -> "]";
                case "!<" -> ">";
                case "?(" -> ")";
                default -> ">>";
            });
        }
        return text.toString();
    }

    @Property(tries = 1_000, seed = SEED)
    void tokenSoupParsesOrFailsWithAPositionedError(@ForAll("tokenSoup") String text) {
        check(text);
    }

    @Property(tries = 200, seed = SEED)
    void bracketNestsParseOrFailWithAPositionedError(@ForAll("bracketNests") String text) {
        check(text);
    }

    @Property(tries = 1_000, seed = SEED)
    void arbitraryCharactersParseOrFailWithAPositionedError(@ForAll String text) {
        check(text);
    }

    private static void check(String text) {
        SessionType type;
        try {
            type = SessionTypes.parse(text);
        } catch (ProtocolSyntaxException e) {
            assertThat(e.offset()).isBetween(0, text.length());
            assertThat(e.line()).isPositive();
            assertThat(e.column()).isPositive();
            assertThat(e.code()).startsWith("SJT10");
            assertThat(e.getMessage()).hasSizeLessThan(3_000);
            return;
        }
        assertThat(type.depth()).isLessThanOrEqualTo(SessionTypes.maxNesting());
        assertThat(SessionTypes.parse(SessionTypes.print(type))).isEqualTo(type);
        assertThat(SessionTypes.dual(SessionTypes.dual(type))).isEqualTo(type);
        try {
            SessionTypes.checkWellFormed(type);
        } catch (ProtocolException e) {
            assertThat(e.getMessage()).hasSizeLessThan(6_000);
            return;
        }
        assertThat(SessionTypes.isSubtype(type, type, JavaSubtyping.EXACT)).isTrue();
        assertThat(TypeDiff.compatibility(type, ACCEPTER, JavaSubtyping.EXACT).isEmpty())
                .isEqualTo(SessionTypes.compatible(type, ACCEPTER, JavaSubtyping.EXACT));
        assertThat(SessionTypes.equivalent(SessionTypes.parse(SessionTypes.printFolded(type)), type)).isTrue();
        if (type.size() < 500) {
            assertThat(SessionTypes.toDot(type)).startsWith("digraph");
        }
    }
}
