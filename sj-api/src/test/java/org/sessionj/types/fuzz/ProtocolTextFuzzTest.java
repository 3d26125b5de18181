package org.sessionj.types.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.ParsedProtocol;
import org.sessionj.types.ProtocolException;
import org.sessionj.types.ProtocolResolver;
import org.sessionj.types.ProtocolSyntaxException;
import org.sessionj.types.SessionType;
import org.sessionj.types.SessionTypes;
import org.sessionj.types.TypeDiff;

/**
 * Fuzzes the protocol parser and everything a server does with a requester's type text: any input
 * either parses or fails with a positioned {@link ProtocolSyntaxException}; a parsed type is checked
 * for well-formedness, and a well-formed one goes through printing, duality, subtyping and the
 * initiation check against a fixed accepter, expansion and the state machine. Only
 * {@link ProtocolException}s may come out, with messages that do not grow with the input.
 *
 * <p>Seeds: {@code src/test/resources/org/sessionj/types/fuzz/ProtocolTextFuzzTestInputs/protocolText}.
 */
class ProtocolTextFuzzTest {
    private static final SessionType ACCEPTER = SessionTypes.parse(
            "sbegin.?(int).rec LOOP[?{GET: ?(String).!<java.util.List<String>>.#LOOP, PUT: ?(String).?(int[]).#LOOP,"
                    + " QUIT: }].![!<double>]*.!<!<int>>");
    private static final ProtocolResolver DEFINITIONS = ProtocolResolver.of(Map.of(
            "P", SessionTypes.parse("!<int>.?(int)"), "Q", SessionTypes.parse("rec X[!{A: @(P).#X, B: }]")));
    /** Messages are cut to the neighbourhood of the error; this bounds them whatever the input's size. */
    private static final int MAX_MESSAGE = 6_000;

    @FuzzTest
    void protocolText(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        ParsedProtocol parsed;
        try {
            parsed = SessionTypes.parseWithPositions(text);
        } catch (ProtocolSyntaxException e) {
            assertThat(e.offset()).isBetween(0, text.length());
            assertThat(e.line()).isPositive();
            assertThat(e.column()).isPositive();
            assertThat(e.code()).startsWith("SJT1");
            assertThat(e.getMessage().length()).isLessThan(MAX_MESSAGE);
            return;
        }
        SessionType type = parsed.type();
        assertThat(SessionTypes.parse(text)).isEqualTo(type);
        assertThat(SessionTypes.parse(SessionTypes.print(type))).isEqualTo(type);
        if (!parsed.problems().isEmpty()) {
            try {
                parsed.checkWellFormed();
            } catch (ProtocolException e) {
                assertThat(e.getMessage().length()).isLessThan(MAX_MESSAGE);
                return;
            }
            throw new AssertionError("problems were found but checkWellFormed passed");
        }
        SessionType dual = SessionTypes.dual(type);
        assertThat(SessionTypes.dual(dual)).isEqualTo(type);
        assertThat(SessionTypes.isSubtype(type, type, JavaSubtyping.EXACT)).isTrue();
        boolean compatible = SessionTypes.compatible(type, ACCEPTER, JavaSubtyping.EXACT);
        assertThat(TypeDiff.compatibility(type, ACCEPTER, JavaSubtyping.EXACT).isEmpty()).isEqualTo(compatible);
        TypeDiff.compatibility(type, ACCEPTER, JavaSubtyping.EXACT)
                .ifPresent(diff -> assertThat(diff.toString().length()).isLessThan(MAX_MESSAGE));
        SessionTypes.printFolded(type);
        try {
            ParsedProtocol expanded = parsed.expand(DEFINITIONS);
            expanded.problems();
        } catch (ProtocolException e) {
            assertThat(e.getMessage().length()).isLessThan(MAX_MESSAGE);
        }
        if (type.size() < 2_000) {
            assertThat(SessionTypes.toDot(type)).startsWith("digraph");
        }
    }
}
