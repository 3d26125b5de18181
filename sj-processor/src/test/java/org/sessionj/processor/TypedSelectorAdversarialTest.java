package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * Typed selection, typecase and session threads attacked from outside: each form that would go wrong
 * at run time (a typecase the runtime refuses, a session never yielded, a session used twice or lost)
 * is rejected with its code; the forms that are sound are accepted.
 */
class TypedSelectorAdversarialTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Ev {
                @Protocol("rec X[?{REC: ?(String).!<Integer>.#X, QUIT: }]") interface Rounds {}
                @Protocol("?(String).!<Integer>.@(Rounds)") interface Request {}
                @Protocol("sbegin.@(Rounds)") interface Server {}
                @Protocol("!<Integer>.@(Rounds)") interface Answer {}
            }
            """;

    /** A server with a selector of {Rounds, Request} and one accepted session registered; then {@code %s}. */
    private static String server(String rest) {
        return """
                package demo;
                import java.util.List;
                import org.sessionj.api.*;
                class Srv {
                    SJSocket kept;
                    void run(@Session(protocol = Ev.Server.class) SJServerSocket ss, List<SJSocket> list) {
                        final SJSelector sel = SJSelector.of(Ev.Rounds.class, Ev.Request.class);
                        SJSocket a = ss.accept();
                        sel.register(a);
                %s
                    }
                    void serve(@Session("?(String).!<Integer>.@(Ev.Rounds)") SJSocket t) {
                        String r = t.receive();
                        t.send(1);
                        X: while (true) {
                            switch (t.inbranch()) {
                                case "REC" -> { String k = t.receive(); t.send(2); }
                                case "QUIT" -> { break X; }
                            }
                        }
                    }
                }
                """.formatted(rest);
    }

    @Test
    void armsThatHandTheirSessionsBackAtTheNextMemberCompile() {
        assertAccepted(PROTOCOLS, server("""
                        while (true) {
                            SJSocket s = sel.select();
                            switch (sel.typecase(s)) {
                                case "Rounds" -> {
                                    switch (s.inbranch()) {
                                        case "REC" -> sel.register(s);
                                        case "QUIT" -> s.close();
                                    }
                                }
                                case "Request" -> {
                                    String r = s.receive();
                                    s.send(r.length());
                                    sel.register(s);
                                }
                            }
                        }"""));
    }

    @Test
    void handingBackAtATypeThatIsNoMemberIsSJ053() {
        assertRejected("SJ053", 15, msg("session 's' is at !<java.lang.Integer>"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            case "Request" -> {
                                String r = s.receive();
                                sel.register(s);
                            }
                        }"""));
    }

    @Test
    void aMemberThatStartsWithAnOutputIsSJ052() {
        assertRejected("SJ052", 6, msg("member 'Answer'", "starts with an output, !<java.lang.Integer>"), PROTOCOLS, """
                package demo;
                import org.sessionj.api.*;
                class Srv {
                    void run() {
                        final SJSelector sel = SJSelector.of(Ev.Rounds.class,
                                Ev.Answer.class);
                        sel.close();
                    }
                }
                """);
    }

    @Test
    void registeringOneSessionTwiceIsSJ025() {
        assertRejected("SJ025", 10, msg("session 'a' is used after it was registered with selector 'sel'"), PROTOCOLS,
                server("        sel.register(a);"));
    }

    @Test
    void registeringASelectedSessionBeforeItsTypecaseIsSJ054() {
        assertRejected("SJ054", 11, msg("session 's'", "registered with selector 'sel'"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        sel.register(s);"""));
    }

    @Test
    void aTypecaseOnAnotherSelectorOfTheSameSetIsSJ054() {
        assertRejected("SJ054", 12, msg("session 's'", "selected from selector 'sel'", "must be on that selector"),
                PROTOCOLS, server("""
                        final SJSelector other = SJSelector.of(Ev.Rounds.class, Ev.Request.class);
                        SJSocket s = sel.select();
                        switch (other.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            case "Request" -> { String r = s.receive(); s.send(1); sel.register(s); }
                        }"""));
    }

    @Test
    void aCaseThatFallsThroughIntoTheNextMemberAtAnotherStateIsSJ020() {
        assertRejected("SJ020", 14, msg("session 's'", "falling through into this case"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Request":
                                String r = s.receive();
                            case "Rounds":
                                switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); }
                        }"""));
    }

    /** Request's arm leaves the session at Rounds' type: falling into Rounds' arm is sound. */
    @Test
    void aCaseThatFallsThroughIntoTheMemberItsSessionIsNowAtCompiles() {
        assertAccepted(PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Request":
                                String r = s.receive();
                                s.send(1);
                            case "Rounds":
                                switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); }
                        }"""));
    }

    @Test
    void aDefaultArmInsteadOfAMemberIsSJ016() {
        assertRejected("SJ016", 11, msg("Request"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            default -> { }
                        }"""));
    }

    @Test
    void aDefaultArmBesideEveryMemberIsNeverTakenAndCompiles() {
        assertAccepted(PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            case "Request" -> { String r = s.receive(); s.send(1); sel.register(s); }
                            default -> throw new IllegalStateException("no other member");
                        }"""));
    }

    @Test
    void aSelectedSessionStoredInAFieldIsSJ031() {
        assertRejected("SJ031", 11, msg("session 's'", "into field 'kept'"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        kept = s;"""));
    }

    @Test
    void aSelectedSessionPutInACollectionIsSJ031() {
        assertRejected("SJ031", 11, msg("session 's'", "into a call of 'add'"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        list.add(s);"""));
    }

    @Test
    void anArmThatSpawnsItsSessionCompiles() {
        assertAccepted(PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            case "Request" -> SJ.spawn(s, this::serve);
                        }"""));
    }

    @Test
    void anArmThatSpawnsItsSessionAndThenTouchesItIsSJ050() {
        assertRejected("SJ050", 15, msg("session 's'"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            case "Request" -> {
                                SJ.spawn(s, this::serve);
                                sel.register(s);
                            }
                        }"""));
    }

    @Test
    void spawningInALoopAndTouchingTheSessionInTheNextRoundIsSJ050() {
        assertRejected("SJ050", 9, msg("session 'a'"), PROTOCOLS, server("""
                        for (int i = 0; i < 2; i++) {
                            SJ.spawn(a, (@Session("rec X[?{REC: ?(String).!<Integer>.#X, QUIT: }]") SJSocket t) -> {
                                X: while (true) {
                                    switch (t.inbranch()) {
                                        case "REC" -> { String k = t.receive(); t.send(2); }
                                        case "QUIT" -> { break X; }
                                    }
                                }
                            });
                        }""").replace("        sel.register(a);\n", ""));
    }

    @Test
    void anArmWhoseSpawnedBodyCapturesTheSessionInsteadOfTakingItIsSJ032() {
        assertRejected("SJ032", 14, msg("session 's'"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        switch (sel.typecase(s)) {
                            case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                            case "Request" -> SJ.spawn(s, (@Session("?(String).!<Integer>.@(Ev.Rounds)") SJSocket t) -> {
                                String r = s.receive();
                                serve(t);
                            });
                        }"""));
    }

    @Test
    void aSessionSelectedInALoopAndLeftIncompleteByOneArmIsSJ020() {
        assertRejected("SJ020", 12, msg("session 's'", "the cases of this switch", "registered with selector 'sel'"), PROTOCOLS, server("""
                        while (true) {
                            SJSocket s = sel.select();
                            switch (sel.typecase(s)) {
                                case "Rounds" -> { switch (s.inbranch()) { case "REC" -> sel.register(s); case "QUIT" -> s.close(); } }
                                case "Request" -> {
                                    String r = s.receive();
                                }
                            }
                        }"""));
    }

    @Test
    void aJoinOverASelectedSessionBeforeItsTypecaseIsSJ012() {
        assertRejected("SJ012", 11, msg("session 's'", "in a join"), PROTOCOLS, server("""
                        SJSocket s = sel.select();
                        java.util.List<String> got = SJ.join(s);"""));
    }
}
