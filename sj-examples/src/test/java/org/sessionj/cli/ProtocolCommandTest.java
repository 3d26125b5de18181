package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProtocolCommandTest {

    /** Exit status and both output streams of one command-line run. */
    record Run(int status, String out, String err) {
    }

    static Run sj(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SjCommand.commandLine();
        // Buffered, like picocli's own writers: output that is never flushed is lost, and the test sees it.
        cli.setOut(new PrintWriter(new BufferedWriter(out)));
        cli.setErr(new PrintWriter(new BufferedWriter(err)));
        int status = SjCommand.execute(cli, args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void checkAcceptsAWellFormedProtocol() {
        Run run = sj("protocol", "check", "cbegin . !<int> . ![ !<double[]>.?(double[]) ]*");
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("ok: cbegin.!<int>.![!<double[]>.?(double[])]*\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void checkReportsASyntaxErrorWithPositionAndExitsOne() {
        Run run = sj("protocol", "check", "cbegin.!<>");
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("error in PROTOCOL: line 1, column 10: expected")
                .contains("found '>'")
                .contains("cbegin.!<>\n         ^");
    }

    @Test
    void checkReportsAnUnboundRecursionVariable() {
        Run run = sj("protocol", "check", "rec X[!<int>.#Y]");
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("#Y");
    }

    @Test
    void checkReportsAnUnknownReference() {
        Run run = sj("protocol", "check", "cbegin.@(Missing)");
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("Missing");
    }

    @Test
    void printGivesTheCanonicalForm() {
        Run run = sj("protocol", "print", "cbegin.\n  // the request\n  !<java.util.List<String>> . ?( int )");
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("cbegin.!<java.util.List<String>>.?(int)\n");
    }

    @Test
    void dualSwapsEveryDirection() {
        Run run = sj("protocol", "dual", "cbegin.!<int>.?{A: ![?(String)]*, B: }");
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("sbegin.?(int).!{A: ?[!<String>]*, B: }\n");
    }

    @Test
    void definitionsResolveReferencesAndExpandInlinesThem() {
        Run run = sj("protocol", "print", "--expand", "--define", "Inner=?(int).!<int>", "cbegin.@(Inner).^(Inner)");
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("cbegin.?(int).!<int>.!<int>.?(int)\n");
    }

    @Test
    void readsProtocolsAndDefinitionsFromFiles(@TempDir Path dir) throws Exception {
        Path inner = Files.writeString(dir.resolve("inner.sj"), "/* the worker */ ?(int)");
        Path outer = Files.writeString(dir.resolve("outer.sj"), "cbegin.!<@(Inner)>");
        Run run = sj("protocol", "print", "--expand", "-D", "Inner=@" + inner, "@" + outer);
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("cbegin.!<?(int)>\n");
    }

    @Test
    void aFileIsReadWholeSpacesNewlinesAndAll(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("kv protocol.sj"),
                "cbegin.rec SESSION[\n  !{PUT: !<String>.?(boolean).#SESSION,\n    QUIT: }\n]\n");
        Run run = sj("protocol", "print", "@" + file);
        assertThat(run.err()).isEmpty();
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("cbegin.rec SESSION[!{PUT: !<String>.?(boolean).#SESSION, QUIT: }]\n");
    }

    @Test
    void aProtocolStartingWithAReferenceIsTextNotAFile() {
        Run run = sj("protocol", "print", "--expand", "-D", "P=!<int>", "@(P).?(int)");
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("!<int>.?(int)\n");
    }

    @Test
    void everyCommandAndSubcommandHasHelp() {
        java.util.List<String> paths = new java.util.ArrayList<>();
        collect(SjCommand.commandLine(), java.util.List.of(), paths);
        assertThat(paths).contains("protocol check", "example kv client", "tls keygen", "demo pi");
        for (String path : paths) {
            Run run = sj((path + " --help").split(" "));
            assertThat(run.status()).as("./sj %s --help: %s", path, run.err()).isZero();
            assertThat(run.out()).as("./sj %s --help", path).startsWith("Usage: sj " + path);
        }
    }

    private static void collect(CommandLine command, java.util.List<String> path, java.util.List<String> paths) {
        for (var sub : command.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help")) {
                continue;
            }
            java.util.List<String> next = new java.util.ArrayList<>(path);
            next.add(sub.getKey());
            paths.add(String.join(" ", next));
            collect(sub.getValue(), next, paths);
        }
    }

    @Test
    void aDeepProtocolIsAnErrorWithAPositionNotAStackTrace() {
        String deep = "![".repeat(100_000) + "!<int>" + "]*".repeat(100_000);
        Run run = sj("protocol", "check", deep);
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).startsWith("error in PROTOCOL: line 1, column ").doesNotContain("StackOverflowError")
                .doesNotContain("\tat ");
        assertThat(run.err().length()).as("the excerpt is cut around the column").isLessThan(2_000);
    }

    @Test
    void aHugeBadProtocolGetsAShortMessage() {
        String huge = "cbegin." + "!<int>.".repeat(150_000) + "?(";
        Run run = sj("protocol", "check", huge);
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).startsWith("error in PROTOCOL: line 1, column ");
        assertThat(run.err().length()).as("a 1 MB protocol's error is not echoed whole").isLessThan(2_000);
    }

    @Test
    void aMissingFileIsAClearError(@TempDir Path dir) {
        Run run = sj("protocol", "check", "@" + dir.resolve("nope.sj"));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("nope.sj (no such file)");
    }

    @Test
    void aBadDefinitionIsAUsageError() {
        Run run = sj("protocol", "check", "--define", "NoEquals", "cbegin");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("expected NAME=PROTOCOL after --define but found 'NoEquals'");
    }

    @Test
    void fsmPrintsADotGraph() {
        Run run = sj("protocol", "fsm", "rec X[!{MORE: !<int>.#X, DONE: }]");
        assertThat(run.status()).isZero();
        assertThat(run.out()).startsWith("digraph").contains("!<int>").contains("MORE").contains("DONE");
    }

    @Test
    void anUnknownSubcommandIsAUsageError() {
        Run run = sj("protocol", "frobnicate", "cbegin");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("frobnicate");
    }

    @Test
    void demoPiRunsAndVerifies() {
        Run run = sj("demo", "pi", "--workers", "2", "--size", "100000");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("2 workers, 200,000 points").contains("deploy threads").contains("verified");
    }

    @Test
    void demoPiRejectsZeroWorkers() {
        Run run = sj("demo", "pi", "--workers", "0");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("expected at least 1 worker but found 0");
    }
}
