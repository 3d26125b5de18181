package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The paper programs of docs/paper-programs.md (copied to src/test/resources/paper; multicast sends
 * of an int written as one send per socket, because SJ.send(int, SJSocket...) is ambiguous with
 * SJ.send(Object, SJSocket...)) compile cleanly; mutants of them are rejected with the right code.
 */
class PaperProgramsTest {

    private static final ProgramResources PROGRAMS = new ProgramResources("paper");

    static String program(String name) {
        return PROGRAMS.program(name);
    }

    /** The program with {@code from} (which must occur exactly once) replaced by {@code to}. */
    static String mutant(String name, String from, String to) {
        return PROGRAMS.mutant(name, from, to);
    }

    @ParameterizedTest
    @ValueSource(strings = {"MonteCarloPi", "JacobiFig5", "Master", "NBodyWorker", "NBodyRing", "Chat", "Portal",
            "BinTreeExchange"})
    void paperProgramCompilesWithoutAnyDiagnostic(String name) {
        assertAccepted(program(name));
    }

    @Test
    void swappedSendAndReceiveInTheMonteCarloWorker() {
        assertRejected("SJ012", 19, msg("session 's_wm': expected ?(int) but the program sends !<int>"),
                mutant("MonteCarloPi", "            int trials = s_wm.receiveInt();          // ?(int)",
                        "            s_wm.send(hits); int trials = s_wm.receiveInt();"));
    }

    @Test
    void missingReceiveInTheJacobiWorkerLoop() {
        assertRejected("SJ012", 59, msg("session 'wm': expected ?(double[]) but the program sends !<double[]>"),
                mutant("JacobiFig5", "                ghost = wm.receive();                           // wm: ?(double[])",
                        "                ghost = new double[size];"));
    }

    @Test
    void extraActionInTheJacobiWorkerLoopBody() {
        assertRejected("SJ012", 62, msg("session 'wm': expected the end of the iteration body but the program "
                        + "sends !<double>"),
                mutant("JacobiFig5", "                wm.send(convergenceData);                       // wm: !<double>",
                        "                wm.send(convergenceData); wm.send(convergenceData);"));
    }

    @Test
    void missingInbranchCaseInTheChatServer() {
        String program = program("Chat");
        int start = program.indexOf("                            case \"MESSAGE\" -> {");
        int end = program.indexOf("                            case \"PRIVATE_CONVERSATION\" -> {");
        String mutant = program.substring(0, start) + program.substring(end);
        assertRejected("SJ016", 0, msg("session 's_sc': the inbranch switch has no case for label MESSAGE of ?{JOIN:"),
                mutant);
    }

    @Test
    void useAfterDelegationInThePortal() {
        assertRejected("SJ025", 66, msg("session 's_pa' is used after it was delegated on line 65"),
                mutant("Portal", "                                s_ps.send(s_pa);                      // !<@(webmailToApplet)>; s_pa is dead",
                        "                                s_ps.send(s_pa);\n                                s_pa.send(\"x\");"));
    }

    @Test
    void unfinishedSessionInTheMonteCarloMaster() {
        assertRejected("SJ024", 37, msg("session 's_mw2' is not complete at this return: ?(int) remains"),
                mutant("MonteCarloPi", "                + s_mw2.receiveInt();", "                + 0;"));
    }

    @Test
    void socketStoredInAFieldInTheNBodyWorker() {
        String program = mutant("NBodyWorker", "public class NBodyWorker {",
                "public class NBodyWorker {\n    static SJSocket kept;");
        program = program.replace("                int p = s_r.receiveInt() + 1;", "                kept = s_r; int p = 1;");
        assertRejected("SJ031", 27, msg("session 's_r' escapes into field 'kept'"), program);
    }
}
