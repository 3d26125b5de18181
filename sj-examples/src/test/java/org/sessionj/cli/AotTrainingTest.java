package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * Every command of {@code ./sj}'s AOT training run still exists and succeeds: a renamed option or
 * subcommand would otherwise make the launcher's training fail (it then runs without a cache, saying
 * so once per build) without any test noticing.
 */
@Timeout(180)
class AotTrainingTest {

    @Test
    void everyTrainingCommandSucceeds() {
        assertThat(AotTraining.COMMANDS).isNotEmpty();
        for (String[] command : AotTraining.COMMANDS) {
            CommandLine cli = SjCommand.commandLine();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cli.setOut(new PrintWriter(out));
            cli.setErr(new PrintWriter(err));
            int status = SjCommand.execute(cli, command);
            assertThat(status).as("./sj %s: %s", String.join(" ", command), err).isZero();
        }
    }

    @Test
    void theTrainingCoversSessionsNotJustTheCommandLine() {
        assertThat(java.util.Arrays.asList(AotTraining.COMMANDS))
                .anySatisfy(command -> assertThat(command).startsWith("demo", "pi"))
                .anySatisfy(command -> assertThat(command).contains("--deploy", "processes"))
                .anySatisfy(command -> assertThat(command).startsWith("protocol"));
    }
}
