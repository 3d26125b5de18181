package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.types.SessionSets.parse;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Session set types {S1, S2, …}: notation, round trip, duality, subtyping, membership, errors. */
class SessionSetsTest {
    /** Integer ≤ Number ≤ Object, nothing else besides identity. */
    private static final JavaSubtyping NUMBERS = (sub, sup) -> sub.equals(sup)
            || Set.of("Integer<Number", "Integer<Object", "Number<Object").contains(sub + "<" + sup);

    @Test
    void parsesMembersInWrittenOrderWithCommentsAndATrailingComma() {
        SessionSet set = parse("""
                // the requests a key-value server serves
                { ?(String).!<Integer>,        /* get */
                  ?{PUT: ?(String).?(Integer), DEL: ?(String)},
                  end, }
                """);
        assertThat(set.members()).containsExactly(SessionTypes.parse("?(String).!<Integer>"),
                SessionTypes.parse("?{PUT: ?(String).?(Integer), DEL: ?(String)}"), SessionType.END);
        assertThat(SessionSets.print(set)).isEqualTo("{?(String).!<Integer>, ?{PUT: ?(String).?(Integer), DEL: ?(String)}, end}");
        assertThat(set).hasToString(SessionSets.print(set));
    }

    @Test
    void equalityIsAsSetsButPrintingKeepsTheWrittenOrder() {
        SessionSet ab = parse("{!<int>, ?(int)}");
        SessionSet ba = parse("{?(int), !<int>}");
        assertThat(ab).isEqualTo(ba).hasSameHashCodeAs(ba);
        assertThat(ab.toString()).isEqualTo("{!<int>, ?(int)}");
        assertThat(ba.toString()).isEqualTo("{?(int), !<int>}");
        assertThat(ab).isNotEqualTo(parse("{!<int>}"));
    }

    @Test
    void aSingleMemberSetAndMembersWithChoicesGenericsAndBegins() {
        assertThat(parse("{sbegin.?(java.util.Map<String, java.util.List<Integer>>).!<int>}").members())
                .containsExactly(SessionTypes.parse("sbegin.?(java.util.Map<String, java.util.List<Integer>>).!<int>"));
        assertThat(parse("{!{A: !<int>, B: }, @(P).^(Q)}").size()).isEqualTo(2);
    }

    @Test
    void isSetLooksAtTheFirstTokenOnly() {
        assertThat(SessionSets.isSet("  /* c */ {!<int>}")).isTrue();
        assertThat(SessionSets.isSet("!{A: }")).isFalse();
        assertThat(SessionSets.isSet("")).isFalse();
        assertThat(SessionSets.isSet("/* unclosed")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            // text                        | code   | line | column | expected (part)                       | found
            "!<int>                        | SJT100 | 1 | 1  | '{' opening a session set             | '!'",
            "{                             | SJT100 | 1 | 2  | a member session type                 | end of input",
            "{}                            | SJT208 | 1 | 2  | a member session type                 | '}'",
            "{ , !<int>}                   | SJT100 | 1 | 3  | a member session type                 | ','",
            "{!<int>,, ?(int)}             | SJT100 | 1 | 9  | a member session type                 | ','",
            "{!<int> ?(int)}               | SJT100 | 1 | 9  | '.', ',' or '}' after a member        | '?'",
            "{!<int>, ?(int)               | SJT100 | 1 | 16 | '.', ',' or '}' after a member        | end of input",
            "{!<int>]                      | SJT100 | 1 | 8  | '.', ',' or '}' after a member        | ']'",
            "{!<int>}.?(int)               | SJT100 | 1 | 9  | end of input after the set's closing  | '.'",
            "{!<int>} {?(int)}             | SJT100 | 1 | 10 | end of input after the set's closing  | '{'",
            "{!<int>, {?(int)}}            | SJT100 | 1 | 10 | a session action                      | '{'",
            "{!<int>, ?(int), !<int>}      | SJT104 | 1 | 18 | a member not already in this set      | '!<int>'",
            "{end, end}                    | SJT104 | 1 | 7  | a member not already in this set      | 'end'",
            "{!<int>.?(}                   | SJT100 | 1 | 11 | a message type                        | '}'",
    })
    void malformedSetsFailPositioned(String text, String code, int line, int column, String expected, String found) {
        assertThatThrownBy(() -> parse(text))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.line()).isEqualTo(line);
                    assertThat(e.column()).isEqualTo(column);
                    assertThat(e.expected()).contains(expected);
                    assertThat(e.found()).isEqualTo(found);
                    assertThat(e.getMessage()).startsWith("line " + line + ", column " + column + ": ");
                });
    }

    @Test
    void anErrorOnALaterLineOfAMultiLineSetIsPositionedThere() {
        assertThatThrownBy(() -> parse("{\n  !<int>,\n  ?(int).!<int>;\n}"))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.column()).isEqualTo(16);
                    assertThat(e.found()).isEqualTo("';'");
                    assertThat(e.excerpt()).contains("?(int).!<int>;");
                });
    }

    @Test
    void theBracesCountAsOneLevelOfNesting() {
        int limit = SessionTypes.maxNesting();
        String deepest = "![".repeat(limit - 1) + "]*".repeat(limit - 1);
        assertThat(parse("{" + deepest + "}").size()).isEqualTo(1);
        String tooDeep = "![".repeat(limit) + "]*".repeat(limit);
        assertThatThrownBy(() -> parse("{" + tooDeep + "}"))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> assertThat(e.code()).isEqualTo("SJT103"));
    }

    @Test
    void theModelRefusesEmptyAndDuplicateSets() {
        assertThatThrownBy(() -> new SessionSet(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionSet.of(SessionType.END, SessionType.END))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dualIsMemberWiseAndAnInvolution() {
        SessionSet set = parse("{sbegin.?(int).!<String>, ?{A: ![!<int>]*}}");
        assertThat(SessionSets.dual(set)).isEqualTo(parse("{cbegin.!<int>.?(String), !{A: ?[?(int)]*}}"));
        assertThat(SessionSets.dual(SessionSets.dual(set))).isEqualTo(set);
    }

    @ParameterizedTest(name = "{0} ≤ {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            // a set is a subtype of a larger set, never of a smaller one
            "{!<int>}                  | {!<int>, ?(int)}            | true",
            "{!<int>, ?(int)}          | {!<int>}                    | false",
            "{?(int), !<int>}          | {!<int>, ?(int)}            | true",
            // member-wise subtyping
            "{!<Integer>}              | {!<Number>}                 | true",
            "{!<Number>}               | {!<Integer>}                | false",
            "{!{A: }, ?{A: , B: }}     | {!{A: , B: }, ?{A: }}       | true",
            "{!<Integer>, !<Number>}   | {!<Number>}                 | true",
            // every member must find a supertype
            "{!<int>, !<long>}         | {!<int>, ?(long)}           | false",
    })
    void subtyping(String sub, String sup, boolean expected) {
        assertThat(SessionSets.isSubtype(parse(sub), parse(sup), NUMBERS)).isEqualTo(expected);
    }

    @Test
    void equivalenceIsUpToUnfoldingAndOrder() {
        assertThat(SessionSets.equivalent(parse("{rec X[!{A: !<int>.#X, B: }], ?(int)}"),
                parse("{?(int), !{A: !<int>.rec Y[!{A: !<int>.#Y, B: }], B: }}"))).isTrue();
        assertThat(SessionSets.equivalent(parse("{!<int>}"), parse("{!<int>, ?(int)}"))).isFalse();
    }

    @Test
    void memberOfFindsTheEquivalentMember() {
        SessionSet set = parse("{?(int), rec X[?{MORE: ?(int).#X, DONE: }]}");
        assertThat(SessionSets.memberOf(SessionTypes.parse("?(int)"), set)).isZero();
        assertThat(SessionSets.memberOf(SessionTypes.parse("?{MORE: ?(int).rec X[?{MORE: ?(int).#X, DONE: }], DONE: }"),
                set)).isEqualTo(1);
        assertThat(SessionSets.memberOf(SessionTypes.parse("?(long)"), set)).isEqualTo(-1);
    }

    @Test
    void expansionIsMemberWiseAndMergesMembersThatBecomeEqual() {
        ProtocolResolver resolver = ProtocolResolver.of(java.util.Map.of("Get", SessionTypes.parse("?(String).!<int>")));
        assertThat(SessionSets.expand(parse("{@(Get), ?(String).!<int>, ^(Get)}"), resolver))
                .isEqualTo(parse("{?(String).!<int>, !<String>.?(int)}"));
        assertThatThrownBy(() -> SessionSets.expand(parse("{@(Nope)}"), resolver))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.code()).isEqualTo("SJT301"));
    }

    @Test
    void positionedMembersReportWellFormednessAndExpansionProblemsInTheSetText() {
        ParsedSet parsed = SessionSets.parseWithPositions("{!<int>,\n rec X[#X]}");
        assertThatThrownBy(parsed::checkWellFormed)
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT204");
                    assertThat(e.line()).isEqualTo(2);
                });
        assertThatThrownBy(() -> SessionSets.parseWithPositions("{!<int>, @(Nope)}").expand(ProtocolResolver.none()))
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT301");
                    assertThat(e.column()).isEqualTo(10);
                });
        assertThatThrownBy(() -> SessionSets.checkWellFormed(parse("{!<int>.#Y}")))
                .isInstanceOfSatisfying(ProtocolException.class, e -> assertThat(e.code()).isEqualTo("SJT201"));
    }

    // ------------------------------------------------------------------ properties

    @Provide
    Arbitrary<SessionSet> sets() {
        return SessionTypeGenerator.sessionTypes().list().ofMinSize(1).ofMaxSize(5).map(list -> {
            List<SessionType> distinct = new ArrayList<>(new LinkedHashSet<>(list));
            return new SessionSet(distinct);
        });
    }

    @Property(tries = 200, seed = "20261127")
    void printThenParseGivesTheSameSet(@ForAll("sets") SessionSet set) {
        SessionSet back = parse(SessionSets.print(set));
        assertThat(back).isEqualTo(set);
        assertThat(back.members()).containsExactlyElementsOf(set.members());
    }

    @Property(tries = 200, seed = "20261127")
    void everySetIsASubtypeOfItselfAndOfItsUnionWithAnother(@ForAll("sets") SessionSet a, @ForAll("sets") SessionSet b) {
        assertThat(SessionSets.isSubtype(a, a, JavaSubtyping.EXACT)).isTrue();
        assertThat(SessionSets.isSubtype(a, a.union(b), JavaSubtyping.EXACT)).isTrue();
        assertThat(SessionSets.dual(SessionSets.dual(a))).isEqualTo(a);
    }

    @Property(tries = 200, seed = "20261127")
    void noTextMakesTheSetParserThrowAnythingButASyntaxError(@ForAll("soup") String text) {
        try {
            parse(text);
        } catch (ProtocolSyntaxException e) {
            assertThat(e.line()).isPositive();
        }
    }

    @Provide
    Arbitrary<String> soup() {
        return Arbitraries.of("{", "}", ",", "!<int>", "?(int)", ".", "end", "![", "]*", "!{A: ", " ", "/*", "*/",
                "@(P)", "rec X[", "#X", "<", ">").list().ofMaxSize(30).map(parts -> String.join("", parts));
    }
}
