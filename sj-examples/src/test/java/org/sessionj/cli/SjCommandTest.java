package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Which subcommands the command line is built with (picocli builds a model of each, in every JVM start). */
class SjCommandTest {
    private static final String[] ALL = {"example", "demo", "protocol", "tls", "chat", "portal", "relay", "help"};

    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        CommandLine cli = SjCommand.commandLine("demo", "pi", "--deploy", "processes");
        assertThat(cli.getSubcommands().keySet()).containsExactly("demo");
        assertThat(cli.getSubcommands().get("demo").getSubcommands().keySet()).containsExactly("pi", "jacobi", "nbody");
    }

    @Test
    void helpOptionsAndUnknownWordsGetEverySubcommand() {
        for (String[] args : new String[][] {{}, {"--help"}, {"help", "demo"}, {"dmeo"}, {"-V"}}) {
            assertThat(SjCommand.commandLine(args).getSubcommands().keySet()).as(String.join(" ", args))
                    .containsExactly(ALL);
        }
        assertThat(SjCommand.commandLine().getSubcommands().keySet()).containsExactly(ALL);
    }

    @Test
    void aMisspelledSubcommandIsStillAnsweredWithTheFullUsage() {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = SjCommand.commandLine("dmeo");
        cli.setErr(new java.io.PrintWriter(err));
        assertThat(SjCommand.execute(cli, "dmeo")).isEqualTo(2);
        assertThat(err.toString()).contains("Unmatched argument at index 0: 'dmeo'").contains("portal");
    }
}
