package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.types.SessionTypes.parse;
import static org.sessionj.types.SessionTypes.print;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.types.Action.Begin;
import org.sessionj.types.Action.Branch;
import org.sessionj.types.Action.DualRef;
import org.sessionj.types.Action.InWhile;
import org.sessionj.types.Action.OutWhile;
import org.sessionj.types.Action.ProtocolRef;
import org.sessionj.types.Action.Rec;
import org.sessionj.types.Action.RecVar;
import org.sessionj.types.Action.Receive;
import org.sessionj.types.Action.Select;
import org.sessionj.types.Action.Send;
import org.sessionj.types.Payload.JavaType;
import org.sessionj.types.Payload.SessionPayload;

class ParserTest {

    private static Send send(String type) {
        return new Send(JavaType.of(type));
    }

    private static Receive receive(String type) {
        return new Receive(JavaType.of(type));
    }

    private static JavaType array(String name, int dimensions) {
        return new JavaType(name, List.of(), dimensions);
    }

    @Test
    void parsesTheJacobiMasterProtocol() {
        SessionType type = parse("cbegin.!<int>.![!<double[]>.?(double[]).?(double)]*.?(double[][])");
        assertThat(type).isEqualTo(SessionType.of(
                new Begin(Side.REQUEST),
                send("int"),
                new OutWhile(SessionType.of(new Send(array("double", 1)), new Receive(array("double", 1)),
                        receive("double"))),
                new Receive(array("double", 2))));
    }

    @Test
    void parsesEveryConstruct() {
        SessionType type = parse("sbegin.?[?(int)]*.rec X[?{A: #X, B: }].@(P).^(q.R)");
        Map<String, SessionType> branches = new LinkedHashMap<>();
        branches.put("A", SessionType.of(new RecVar("X")));
        branches.put("B", SessionType.END);
        assertThat(type).isEqualTo(SessionType.of(
                new Begin(Side.ACCEPT),
                new InWhile(SessionType.of(receive("int"))),
                new Rec("X", SessionType.of(new Branch(branches))),
                new ProtocolRef("P"),
                new DualRef("q.R")));
    }

    /**
     * Identifiers are Java identifiers, read by code point: a letter outside the Basic Multilingual
     * Plane ({@code 𝔸}, two {@code char}s) may start or continue a label, a recursion variable or a
     * protocol name (issue 12, adv11 A10: these were SJT100 "found '?'").
     */
    @Test
    void identifiersMayHoldLettersOutsideTheBasicMultilingualPlane() {
        String a = "\uD835\uDD38"; // MATHEMATICAL DOUBLE-STRUCK CAPITAL A
        SessionType type = parse("cbegin.rec " + a + "X[!{" + a + ": #" + a + "X, B" + a + ": }].@(p." + a + "P)");
        Map<String, SessionType> branches = new LinkedHashMap<>();
        branches.put(a, SessionType.of(new RecVar(a + "X")));
        branches.put("B" + a, SessionType.END);
        assertThat(type).isEqualTo(SessionType.of(
                new Begin(Side.REQUEST),
                new Rec(a + "X", SessionType.of(new Select(branches))),
                new ProtocolRef("p." + a + "P")));
        assertThat(parse(print(type))).isEqualTo(type);
    }

    /** 255 dimensions, the JVM's limit, is a Java type (MalformedProtocolTest: 256 is not). */
    @Test
    void anArrayTypeMayHaveTheJvmsMaximumOfDimensions() {
        Send send = (Send) parse("!<int" + "[]".repeat(255) + ">").head();
        assertThat(send.payload()).isEqualTo(array("int", 255));
    }

    @Test
    void keepsTheWrittenOrderOfLabels() {
        Select select = (Select) parse("!{Z: , A: , M: }").head();
        assertThat(select.branches().keySet()).containsExactly("Z", "A", "M");
    }

    @Test
    void parsesGenericQualifiedAndNestedMessageTypes() {
        Send send = (Send) parse("!<java.util.Map<String, java.util.List<int[]>>[]>").head();
        assertThat(send.payload()).isEqualTo(new JavaType("java.util.Map", List.of(
                JavaType.of("String"),
                new JavaType("java.util.List", List.of(array("int", 1)), 0)), 1));
        assertThat(parse("?(pkg.Outer$Inner)").head()).isEqualTo(receive("pkg.Outer$Inner"));
        assertThat(parse("?(Map.Entry<K, V>)").head()).isEqualTo(new Receive(
                new JavaType("Map.Entry", List.of(JavaType.of("K"), JavaType.of("V")), 0)));
        assertThat(parse("!<double[] []>").head()).isEqualTo(new Send(array("double", 2)));
    }

    @Test
    void parsesSessionPayloads() {
        assertThat(parse("!<?(int).!<int>>").head()).isEqualTo(
                new Send(new SessionPayload(SessionType.of(receive("int"), send("int")))));
        SessionPayload service = (SessionPayload) ((Receive) parse("?(cbegin.@(eventInStream))").head()).payload();
        assertThat(service.isService()).isTrue();
        assertThat(service.type()).isEqualTo(SessionType.of(new Begin(Side.REQUEST), new ProtocolRef("eventInStream")));
        SessionPayload delegated = (SessionPayload) ((Send) parse("!<@(P)>").head()).payload();
        assertThat(delegated.isService()).isFalse();
        assertThat(parse("!<end>").head()).isEqualTo(new Send(new SessionPayload(SessionType.END)));
        assertThat(parse("!<rec X[!<int>.#X]>").head()).isEqualTo(new Send(new SessionPayload(
                SessionType.of(new Rec("X", SessionType.of(send("int"), new RecVar("X")))))));
    }

    @Test
    void emptyBranchesMayBeBlankOrEnd() {
        SessionType blank = parse("?{QUIT: , MSG: ?(String)}");
        assertThat(parse("?{QUIT: end, MSG: ?(String)}")).isEqualTo(blank);
        assertThat(parse("?{QUIT:\n , MSG: ?(String),\n}")).isEqualTo(blank);
        assertThat(((Branch) blank.head()).branches().get("QUIT")).isEqualTo(SessionType.END);
    }

    @Test
    void emptyTextAndEndAreTheTerminatedSession() {
        assertThat(parse("")).isEqualTo(SessionType.END);
        assertThat(parse("  // nothing\n")).isEqualTo(SessionType.END);
        assertThat(parse("end")).isEqualTo(SessionType.END);
        assertThat(parse("![]*")).isEqualTo(SessionType.of(new OutWhile(SessionType.END)));
    }

    @Test
    void acceptsWhitespaceNewlinesAndCommentsAsInTextBlocks() {
        String text = """
                cbegin.            // Request the Worker service.
                !<int>.            /* matrix size */
                ![                 // main loop
                  !<double[]>.
                  ?( double[] ).
                  ?(double)
                ]* .
                ?(double[][])      // final results
                """;
        assertThat(parse(text)).isEqualTo(
                parse("cbegin.!<int>.![!<double[]>.?(double[]).?(double)]*.?(double[][])"));
        assertThat(parse("@( eventOutStream )")).isEqualTo(SessionType.of(new ProtocolRef("eventOutStream")));
        assertThat(parse("! < int >")).isEqualTo(SessionType.of(send("int")));
    }

    @Test
    void acceptsTheChatProtocolAsThePaperPrintsIt() {
        String eventOutStream = """
                rec X[ // Enter recursion scope for stream.
                 !{ // Select the event type.
                    JOIN: !<UserJoinEvent>.#X,
                    MESSAGE: !<MessageEvent>.#X,
                    PRIVATE_CONVERSATION: // Make request and...
                      !<PrivateConversationEvent>.?{ // ...get response.
                        ACCEPT: !<cbegin.@(clientToClient)>, // (ii).
                        REJECT:
                      }.#X,
                    QUIT: !<UserQuitEvent> // No recurse (stream end).
                 }
                ]
                """;
        SessionType type = parse(eventOutStream);
        assertThat(print(type)).isEqualTo("rec X[!{JOIN: !<UserJoinEvent>.#X, MESSAGE: !<MessageEvent>.#X, "
                + "PRIVATE_CONVERSATION: !<PrivateConversationEvent>.?{ACCEPT: !<cbegin.@(clientToClient)>, "
                + "REJECT: }.#X, QUIT: !<UserQuitEvent>}]");
        assertThat(SessionTypes.wellFormednessProblems(type)).isEmpty();
    }

    @Test
    void acceptsATrailingCommaAfterTheLastBranchAsFigure10PrintsIt() {
        assertThat(parse("cbegin.!{WEBMAIL: @(appletToWebmail), CALENDAR: @(appletToCalendar),\n}"))
                .isEqualTo(parse("cbegin.!{WEBMAIL: @(appletToWebmail), CALENDAR: @(appletToCalendar)}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "cbegin.!<int>.![!<double[]>.?(double[])]*",
            "sbegin.?(int).!<double[][]>",
            "!{L1: !<int>, L2: ?(String).!<boolean>}",
            "?{QUIT: , MSG: ?(String)}",
            "cbegin.!<String>.?(int).?(cbegin.@(eventInStream)).@(eventOutStream)",
            "sbegin.!<?[?(BinTree).!<BinTree>]*>",
            "rec X[!{A: !<int>.#X, B: rec Y[?{C: #Y, D: #X}]}]",
            "!<java.util.Map<String, int[]>[]>.?(List<List<String>>)",
            "![![]*]*.?[]*",
            "!<end>.?(rec X[?{A: #X, B: }])",
            "^(P).@(a.b.Q)",
            "",
    })
    void canonicalTextPrintsAsItself(String canonical) {
        SessionType type = parse(canonical);
        assertThat(print(type)).isEqualTo(canonical);
        assertThat(type.toString()).isEqualTo(canonical);
        assertThat(parse(print(type))).isEqualTo(type);
    }

    @Test
    void printerWritesTheCanonicalFormOfLooseText() {
        assertThat(print(parse(" cbegin . !< List< String > > . ?{ A : end , B:?(int) , } "))).isEqualTo(
                "cbegin.!<List<String>>.?{A: , B: ?(int)}");
    }

    @Test
    void positionsPointAtEveryNode() {
        ParsedProtocol parsed = SessionTypes.parseWithPositions("cbegin.\n  !<int>.?{A: #X}");
        SessionType type = parsed.type();
        assertThat(parsed.offsetOf(type.actions().get(0))).isZero();
        assertThat(parsed.offsetOf(type.actions().get(1))).isEqualTo(10);
        Send send = (Send) type.actions().get(1);
        assertThat(parsed.offsetOf(send.payload())).isEqualTo(12);
        Branch branch = (Branch) type.actions().get(2);
        assertThat(parsed.offsetOf(branch)).isEqualTo(17);
        assertThat(parsed.offsetOf(branch.branches().get("A").head())).isEqualTo(22);
        assertThat(parsed.offsetOf(new RecVar("X"))).isEqualTo(-1);
        assertThat(parsed.problems()).containsExactly(new ProtocolProblem(ProtocolProblem.Kind.UNBOUND_VARIABLE,
                "#X is not bound by any enclosing rec X[…]", 22));
    }

    @Test
    void checkWellFormedOnParsedTextReportsLineColumnAndExcerpt() {
        ParsedProtocol parsed = SessionTypes.parseWithPositions("cbegin.\n  !<int>.cbegin");
        assertThatThrownBy(parsed::checkWellFormed)
                .isInstanceOfSatisfying(ProtocolException.class, e -> {
                    assertThat(e.code()).isEqualTo("SJT206");
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(10);
                    assertThat(e.excerpt()).isEqualTo("  !<int>.cbegin\n         ^");
                    assertThat(e.getMessage()).isEqualTo("line 2, column 10: [SJT206] cbegin is allowed only as the"
                            + " first action of a protocol or of a service message type\n  !<int>.cbegin\n         ^");
                });
    }

    @Test
    void syntaxErrorsCarryExpectedFoundAndACaretExcerpt() {
        assertThatThrownBy(() -> parse("cbegin.\n\t!<int>.?[?(int)]"))
                .isInstanceOfSatisfying(ProtocolSyntaxException.class, e -> {
                    assertThat(e.offset()).isEqualTo(25);
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(18);
                    assertThat(e.expected()).isEqualTo("'*' after ']' (loops are written ![…]* and ?[…]*)");
                    assertThat(e.found()).isEqualTo("end of input");
                    assertThat(e.excerpt()).isEqualTo("\t!<int>.?[?(int)]\n\t                ^");
                    assertThat(e.getMessage()).isEqualTo("line 2, column 18: expected '*' after ']' (loops are"
                            + " written ![…]* and ?[…]*) but found end of input\n" + e.excerpt());
                });
    }

    @Test
    void rejectsNullText() {
        assertThatThrownBy(() -> parse(null)).isInstanceOf(NullPointerException.class);
    }
}
