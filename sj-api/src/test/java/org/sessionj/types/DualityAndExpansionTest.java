package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.types.SessionTypes.dual;
import static org.sessionj.types.SessionTypes.expand;
import static org.sessionj.types.SessionTypes.parse;
import static org.sessionj.types.SessionTypes.print;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DualityAndExpansionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "cbegin.!<int>.?(double)                    | sbegin.?(int).!<double>",
            "!{A: !<int>, B: ?(String)}                 | ?{A: ?(int), B: !<String>}",
            "![!<double[]>.?(double[])]*.?(double[][])  | ?[?(double[]).!<double[]>]*.!<double[][]>",
            "rec X[?{MSG: ?(String).#X, QUIT: }]        | rec X[!{MSG: !<String>.#X, QUIT: }]",
            "@(P).^(Q)                                  | ^(P).@(Q)",
            "!<?(int).!<int>>                           | ?(?(int).!<int>)",
            "sbegin.?(cbegin.@(eventInStream))          | cbegin.!<cbegin.@(eventInStream)>",
            "''                                         | ''",
    })
    void dualSwapsDirectionsAndKeepsPayloads(String type, String expectedDual) {
        assertThat(print(dual(parse(type)))).isEqualTo(expectedDual);
        assertThat(dual(dual(parse(type)))).isEqualTo(parse(type));
    }

    private static ProtocolResolver defs(String... nameThenType) {
        Map<String, SessionType> map = new HashMap<>();
        for (int i = 0; i < nameThenType.length; i += 2) {
            map.put(nameThenType[i], parse(nameThenType[i + 1]));
        }
        return ProtocolResolver.of(map);
    }

    @Test
    void expandsReferencesAndDualReferencesTransitivelyIncludingPayloads() {
        ProtocolResolver resolver = defs(
                "eventOutStream", "rec X[!{MSG: !<String>.#X, QUIT: }]",
                "eventInStream", "^(eventOutStream)",
                "clientToServer", "cbegin.!<String>.?(cbegin.@(eventInStream)).@(eventOutStream)");
        assertThat(print(expand(parse("^(clientToServer)"), resolver))).isEqualTo(
                "sbegin.?(String).!<cbegin.rec X[?{MSG: ?(String).#X, QUIT: }]>.rec X[?{MSG: ?(String).#X, QUIT: }]");
        assertThat(print(expand(parse("![@(a)]*.?{L: ^(a)}"), defs("a", "!<int>.?(long)"))))
                .isEqualTo("![!<int>.?(long)]*.?{L: ?(int).!<long>}");
    }

    @Test
    void expandsEachProtocolOnce() {
        AtomicInteger lookups = new AtomicInteger();
        ProtocolResolver counting = name -> {
            lookups.incrementAndGet();
            return Optional.of(parse("!<int>"));
        };
        assertThat(print(expand(parse("@(P).^(P).!<@(P)>"), counting))).isEqualTo("!<int>.?(int).!<!<int>>");
        assertThat(lookups).hasValue(1);
    }

    @Test
    void unknownProtocolIsAnError() {
        assertThatThrownBy(() -> expand(parse("cbegin.@(A)"), defs("A", "!<int>.^(Missing)")))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProtocolProblem.Kind.UNKNOWN_PROTOCOL);
                    assertThat(e.getMessage()).isEqualTo("unknown protocol Missing (referenced as ^(Missing))");
                    assertThat(e.expected()).isEqualTo("a known protocol");
                    assertThat(e.found()).isEqualTo("^(Missing)");
                    assertThat(e.line()).isEqualTo(-1);
                });
    }

    @Test
    void directAndIndirectCyclesAreErrors() {
        assertThatThrownBy(() -> expand(parse("@(A)"), defs("A", "!<int>.@(A)")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("protocol A refers to itself: A -> A (use rec X[…] for a recursive protocol)");
        assertThatThrownBy(() -> expand(parse("cbegin.@(A)"), defs("A", "?{L: @(B)}", "B", "^(C)", "C", "!<int>.@(A)")))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProtocolProblem.Kind.CYCLIC_PROTOCOL);
                    assertThat(e.getMessage()).startsWith("protocol A refers to itself: A -> B -> C -> A");
                });
        // Through a message payload the type would be infinite too: the notation has no recursive
        // message types, so this is reported as well.
        assertThatThrownBy(() -> expand(parse("@(A)"), defs("A", "!<@(A)>")))
                .isInstanceOfSatisfying(ProtocolException.class,
                        e -> assertThat(e.kind()).isEqualTo(ProtocolProblem.Kind.CYCLIC_PROTOCOL));
    }

    @Test
    void theSameProtocolTwiceSideBySideIsNotACycle() {
        assertThat(print(expand(parse("@(A).@(A)"), defs("A", "@(B).@(B)", "B", "!<int>"))))
                .isEqualTo("!<int>.!<int>.!<int>.!<int>");
    }

    @Test
    void aReferencedProtocolMustBindItsOwnRecursionVariables() {
        assertThatThrownBy(() -> expand(parse("rec X[@(Open)]"), defs("Open", "!<int>.#X")))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProtocolProblem.Kind.OPEN_PROTOCOL);
                    assertThat(e.getMessage()).isEqualTo("protocol Open uses #X outside any rec X[…] of its own");
                });
    }

    @Test
    void expansionMayNestARecOfTheSameNameAndStaysWellFormed() {
        SessionType expanded = expand(parse("rec X[!{MORE: @(Inner).#X, DONE: }]"),
                defs("Inner", "rec X[?{A: ?(int).#X, B: }]"));
        assertThat(print(expanded)).isEqualTo("rec X[!{MORE: rec X[?{A: ?(int).#X, B: }].#X, DONE: }]");
        assertThat(SessionTypes.wellFormednessProblems(expanded)).isEmpty();
    }

    @Test
    void wellFormedTypesHaveNoProblems() {
        for (String text : new String[] {
                "cbegin.!<int>.![!<double[]>.?(double[])]*",
                "rec X[!{A: !<int>.#X, B: rec Y[?{C: #Y, D: #X}]}]",
                "rec X[!<int>.rec X[?(int).#X]]",
                "rec X[!{A: #X, B: }].!<int>",
                "rec X[rec Y[!<int>].#X]",
                "!<cbegin.rec X[!<int>.#X]>.rec X[?(int).#X]",
                "![]*",
                "rec X[]",
                "?(@(P)).^(Q)",
        }) {
            assertThat(SessionTypes.wellFormednessProblems(parse(text))).as(text).isEmpty();
        }
    }

    @Test
    void reportsEveryProblemInOrder() {
        ParsedProtocol parsed = SessionTypes.parseWithPositions("!<int>.cbegin.rec X[#X].#Z");
        assertThat(parsed.problems()).extracting(ProtocolProblem::code, ProtocolProblem::offset)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("SJT206", 7),
                        org.assertj.core.groups.Tuple.tuple("SJT204", 20),
                        org.assertj.core.groups.Tuple.tuple("SJT201", 24));
        assertThatThrownBy(parsed::checkWellFormed).hasMessageStartingWith(
                "line 1, column 8: [SJT206] cbegin is allowed only as the first action of a protocol or of a"
                        + " service message type (and 2 more: [SJT204] #X recurses");
    }
}
