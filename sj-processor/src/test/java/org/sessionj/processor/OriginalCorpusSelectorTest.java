package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The selector, typecase and set-type programs of the original SJ source tree, translated
 * (src/test/resources/corpus; docs/paper-programs.md §9 lists them with the translation choices):
 * each compiles, and the forms the original compiler rejects — or that cannot be carried over — are
 * rejected here with the code named in the test.
 */
class OriginalCorpusSelectorTest {

    private static final ProgramResources PROGRAMS = new ProgramResources("corpus");

    static String program(String name) {
        return PROGRAMS.program(name);
    }

    /** The program with {@code from} (which must occur exactly once) replaced by {@code to}. */
    static String mutant(String name, String from, String to) {
        return PROGRAMS.mutant(name, from, to);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SelectorTwoServers", "SelectorHandBack", "TypecaseRequester", "RecursionHandBack",
            "EventServer", "DelegatedSetNarrowed", "TypeServer"})
    void translatedProgramCompilesWithoutAnyDiagnostic(String name) {
        assertAccepted(program(name));
    }

    // The original's typecase checks that its when-cases are all and only the set's members
    // ("Typecase branches ... do not match with set type"): a missing one is SJ016, an extra one SJ014.

    @Test
    void aTypecaseMissingAMemberIsSJ016() {
        assertRejected("SJ016", 29, msg("From3"), mutant("SelectorTwoServers",
                "                    case \"From3\" -> {\n"
                        + "                        flag = s.receiveBoolean();\n"
                        + "                        s.close();\n"
                        + "                    }\n", ""));
    }

    @Test
    void aTypecaseWithACaseThatIsNoMemberIsSJ014() {
        assertRejected("SJ014", 34, msg("From4"), mutant("SelectorTwoServers",
                "                    case \"From3\" -> {\n",
                "                    case \"From4\" -> {\n"
                        + "                        s.close();\n"
                        + "                    }\n"
                        + "                    case \"From3\" -> {\n"));
    }

    // The original: "Typecase should have a set type".
    @Test
    void aTypecaseOfASessionThatWasNotSelectedIsSJ054() {
        assertRejected("SJ054", 29, msg("session 's'", "typecase applies to a session just selected"),
                mutant("SelectorTwoServers", "SJSocket s = sel.select();", "SJSocket s = ss1.accept();"));
    }

    @Test
    void anActionOnTheSelectedSessionBeforeItsTypecaseIsSJ012() {
        assertRejected("SJ012", 24, msg("session 's'", "receives ?(int)"), mutant("RecursionHandBack",
                "                SJSocket s = sel.select();\n",
                "                SJSocket s = sel.select();\n                first = s.receiveInt();\n"));
    }

    // Not carried over, each with its reason in docs/paper-programs.md §9.

    @Test
    void theLiteralTest2SelectorWithAMemberThatStartsWithAnOutputIsSJ052() {
        assertRejected("SJ052", 15, msg("member 'P1'", "starts with an output, !<int>"),
                mutant("SelectorHandBack", "SJSelector.of(P2.class)", "SJSelector.of(P1.class, P2.class)"));
    }

    @Test
    void theLiteralSetTypedDelegationIsSJ001() {
        assertRejected("SJ001", 13, msg("expected a message type"), mutant("DelegatedSetNarrowed", "\"cbegin.?(!<int>)\"",
                "\"cbegin.?({!<int>, !<boolean>})\""));
    }

    @Test
    void theThreePartyWorkersSetTypedDelegationIsSJ004() {
        assertRejected("SJ004", 6, msg("PSet"), """
                // tests/src/runtime/threeparty/typecaze/Worker.sj: p_set { !<String>, !<int> },
                // p_worker sbegin.?(@(p_set)).
                import org.sessionj.api.*;

                class Worker {
                    @Protocol("sbegin.?(@(PSet))") interface PWorker {}
                    @Protocol("{!<String>, !<int>}") interface PSet {}
                }
                """);
    }

    @Test
    void theLiteralTypeServerWithASetInsideASequenceIsSJ004() {
        assertRejected("SJ004", 7, msg("Type"), """
                // tests/src/dimitris/benchmark/SJE/TypeServer.sj: type {@(sInt), @(sStr), @(sObj)},
                // serverSide sbegin.@(request).@(type).
                import org.sessionj.api.*;

                class TypeServerLiteral {
                    @Protocol("?(String)") interface Request {}
                    @Protocol("sbegin.@(Request).@(Type)") interface ServerSide {}
                    @Protocol("!<int>") interface SInt {}
                    @Protocol("!<String>") interface SStr {}
                    @Protocol("{@(SInt), @(SStr)}") interface Type {}
                }
                """);
    }
}
