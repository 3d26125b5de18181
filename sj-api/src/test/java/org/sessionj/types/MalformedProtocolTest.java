package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed protocols, each with the exact code, position, expected and found it is reported with. */
class MalformedProtocolTest {
    private static final String ACTION =
            "a session action (!<, ?(, !{, ?{, ![, ?[, rec, #, @(, ^(, cbegin, sbegin)";

    static Stream<Arguments> syntaxErrors() {
        return Stream.of(
                // protocol, code, line, column, expected, found
                syntax("cbegin !<int>", "SJT100", 1, 8, "'.' or end of input", "'!'"),
                syntax("cbegin.", "SJT100", 1, 8, ACTION, "end of input"),
                syntax("cbegin..!<int>", "SJT100", 1, 8, ACTION, "'.'"),
                syntax("foo.!<int>", "SJT100", 1, 1, ACTION, "'foo'"),
                syntax("!<>", "SJT100", 1, 3, "a message type (a Java type or a session type)", "'>'"),
                syntax("?()", "SJT100", 1, 3, "a message type (a Java type or a session type)", "')'"),
                syntax("!<int", "SJT100", 1, 6, "'>' after the message type", "end of input"),
                syntax("?(int", "SJT100", 1, 6, "')' after the message type", "end of input"),
                syntax("!<int x>", "SJT100", 1, 7, "'>'", "'x'"),
                syntax("!<int[>", "SJT100", 1, 7, "']'", "'>'"),
                syntax("!<Map<String,>>", "SJT100", 1, 14, "a Java type", "'>'"),
                syntax("!<List<?>>", "SJT102", 1, 8, "a type argument without wildcards", "'?'"),
                syntax("?(List<? extends Number>)", "SJT102", 1, 8, "a type argument without wildcards",
                        "'? extends Number'"),
                syntax("!<void>", "SJT102", 1, 3, "a Java type", "'void'"),
                syntax("!<List<int>>", "SJT102", 1, 3, "a Java type", "'List<int>'"),
                syntax("!<List<>>", "SJT102", 1, 3, "type arguments", "'List<>'"),
                syntax("!<Outer<String>.Inner>", "SJT102", 1, 3,
                        "a type without type arguments on its enclosing type", "'Outer<String>'"),
                syntax("!{A: !<int>, A: ?(int)}", "SJT101", 1, 14, "a label not already used in this choice", "'A'"),
                syntax("!{A !<int>}", "SJT100", 1, 5, "':' after the label", "'!'"),
                syntax("!{A: !<int> B: ?(int)}", "SJT100", 1, 13, "'.', ',' or '}'", "'B'"),
                syntax("?{: !<int>}", "SJT100", 1, 3, "a label", "':'"),
                syntax("![!<int>]", "SJT100", 1, 10, "'*' after ']' (loops are written ![…]* and ?[…]*)",
                        "end of input"),
                syntax("?[?(int)", "SJT100", 1, 9, "'.' or ']'", "end of input"),
                syntax("rec [!<int>]", "SJT100", 1, 5, "a recursion variable name after 'rec'", "'['"),
                syntax("rec X !<int>", "SJT100", 1, 7, "'[' after 'rec X'", "'!'"),
                syntax("rec X[!<int>", "SJT100", 1, 13, "'.' or ']'", "end of input"),
                syntax("!<int>.#", "SJT100", 1, 9, "a recursion variable name after '#'", "end of input"),
                syntax("@P", "SJT100", 1, 2, "'(' after '@'", "'P'"),
                syntax("^(P", "SJT100", 1, 4, "')' after the protocol name", "end of input"),
                syntax("@(P.)", "SJT100", 1, 5, "a protocol name after '.'", "')'"),
                syntax("!x", "SJT100", 1, 2, "'<', '{' or '[' after '!'", "'x'"),
                syntax("?<int>", "SJT100", 1, 2, "'(', '{' or '[' after '?'", "'<'"),
                syntax("cbegin.!<int>)", "SJT100", 1, 14, "'.' or end of input", "')'"),
                syntax("!<?(int).!<int>", "SJT100", 1, 16, "'.' or '>'", "end of input"),
                syntax("cbegin. /* unclosed", "SJT100", 1, 20,
                        "'*/' closing the comment opened at column 9 of line 1", "end of input"),
                syntax("cbegin.\n  !<int>.\n  ?(double[]\n", "SJT100", 4, 1, "')' after the message type",
                        "end of input"),
                syntax("cbegin.\n  !<int>\n  .!<foo bar>", "SJT100", 3, 10, "'>'", "'bar'"),
                syntax("end.!<int>", "SJT100", 1, 4, "'.' or end of input", "'.'"),
                // a character outside the BMP is quoted whole, not as half of its surrogate pair ('?')
                syntax("?{\uD83D\uDE00: !<int>}", "SJT100", 1, 3, "a label", "'\uD83D\uDE00'"),
                syntax("!<int>.#\uD83D\uDE00", "SJT100", 1, 9, "a recursion variable name after '#'",
                        "'\uD83D\uDE00'"),
                // no JVM loads an array type of more than 255 dimensions (JVMS 4.3.2), so no peer could use it
                syntax("!<int" + "[]".repeat(256) + ">", "SJT102", 1, 3, "an array type of at most 255 dimensions",
                        "'int' with 256 dimensions"),
                syntax("?(java.util.List<String" + "[]".repeat(300) + ">)", "SJT102", 1, 3,
                        "an array type of at most 255 dimensions", "'String' with 300 dimensions"));
    }

    private static Arguments syntax(String text, String code, int line, int column, String expected, String found) {
        return Arguments.of(text, code, line, column, expected, found);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("syntaxErrors")
    void syntaxErrorIsReportedPrecisely(String text, String code, int line, int column, String expected,
                                        String found) {
        assertThatThrownBy(() -> SessionTypes.parse(text))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.code()).as("code").isEqualTo(code);
                    assertThat(e.line()).as("line").isEqualTo(line);
                    assertThat(e.column()).as("column").isEqualTo(column);
                    assertThat(e.expected()).as("expected").isEqualTo(expected);
                    assertThat(e.found()).as("found").isEqualTo(found);
                    assertThat(e.getMessage()).startsWith("line " + line + ", column " + column + ": ")
                            .contains("expected " + expected + " but found " + found)
                            .endsWith(e.excerpt());
                    assertThat(e.excerpt().lines().toList()).hasSize(2);
                    assertThat(e.excerpt().lines().toList().get(1)).hasSize(column).endsWith("^");
                });
    }

    static Stream<Arguments> wellFormednessErrors() {
        return Stream.of(
                // protocol, code, line, column, message
                Arguments.of("rec X[#X]", "SJT204", 1, 7,
                        "#X recurses before any communication in rec X[…] (unguarded recursion)"),
                Arguments.of("rec X[rec Y[#X]]", "SJT204", 1, 13,
                        "#X recurses before any communication in rec X[…] (unguarded recursion)"),
                Arguments.of("rec X[rec Y[].#X]", "SJT204", 1, 15,
                        "#X recurses before any communication in rec X[…] (unguarded recursion)"),
                Arguments.of("rec X[!<int>].#X", "SJT202", 1, 15, "#X is used outside the rec X[…] that binds it"),
                Arguments.of("!<int>.#Y", "SJT201", 1, 8, "#Y is not bound by any enclosing rec Y[…]"),
                Arguments.of("rec X[!<#X>]", "SJT203", 1, 9,
                        "#X is used inside a message type but bound outside it (a message type is a separate session)"),
                Arguments.of("rec X[!<int>.#X.?(int)]", "SJT205", 1, 14,
                        "#X must end its rec X[…]: here it is followed by more actions or inside a loop body"),
                Arguments.of("rec X[![!<int>.#X]*]", "SJT205", 1, 16,
                        "#X must end its rec X[…]: here it is followed by more actions or inside a loop body"),
                Arguments.of("rec X[!{A: #X}.!<int>]", "SJT205", 1, 12,
                        "#X must end its rec X[…]: here it is followed by more actions or inside a loop body"),
                Arguments.of("!<int>.cbegin", "SJT206", 1, 8,
                        "cbegin is allowed only as the first action of a protocol or of a service message type"),
                Arguments.of("cbegin.\n  ![sbegin]*", "SJT206", 2, 5,
                        "sbegin is allowed only as the first action of a protocol or of a service message type"),
                Arguments.of("?(sbegin.?(int))", "SJT206", 1, 3,
                        "a message type may start with cbegin (a service) but not with sbegin"),
                Arguments.of("!{}", "SJT207", 1, 1, "a selection !{…} must have at least one label"),
                Arguments.of("cbegin.?{ }", "SJT207", 1, 8, "a branching ?{…} must have at least one label"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("wellFormednessErrors")
    void wellFormednessProblemIsReportedPrecisely(String text, String code, int line, int column, String message) {
        ParsedProtocol parsed = SessionTypes.parseWithPositions(text);
        assertThat(parsed.problems()).hasSize(1);
        assertThat(parsed.problems().get(0).code()).isEqualTo(code);
        assertThat(parsed.problems().get(0).message()).isEqualTo(message);
        assertThatThrownBy(parsed::checkWellFormed).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.line()).isEqualTo(line);
            assertThat(e.column()).isEqualTo(column);
            assertThat(e.getMessage()).isEqualTo("line " + line + ", column " + column + ": [" + code + "] "
                    + message + "\n" + e.excerpt());
        });
        // Without positions the same problem is found, with offset -1.
        assertThat(SessionTypes.wellFormednessProblems(parsed.type()))
                .singleElement().satisfies(p -> {
                    assertThat(p.code()).isEqualTo(code);
                    assertThat(p.offset()).isEqualTo(-1);
                });
        assertThatThrownBy(() -> SessionTypes.checkWellFormed(parsed.type()))
                .isInstanceOf(ProtocolException.class).hasMessage("[" + code + "] " + message);
    }
}
