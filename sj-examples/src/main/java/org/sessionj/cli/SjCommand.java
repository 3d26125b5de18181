package org.sessionj.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./sj} command line: one entry point, one subcommand per job. */
@Command(name = "sj",
        mixinStandardHelpOptions = true,
        versionProvider = SjCommand.Version.class,
        description = "SJ for Java: session-typed, transport-independent communication.",
        subcommands = {DemoCommand.class, ProtocolCommand.class, CommandLine.HelpCommand.class})
public final class SjCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit status (0 ok, 1 failure, 2 usage error). */
    public static int run(String... args) {
        return new CommandLine(new SjCommand()).execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    /** The project version, from the jar manifest when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = SjCommand.class.getPackage().getImplementationVersion();
            return new String[] {"sj " + (version == null ? "(development build)" : version)};
        }
    }
}
