package org.sessionj.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.List;
import java.util.OptionalInt;
import org.sessionj.examples.deploy.Phases;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./sj} command line: one entry point, one subcommand per job. */
@Command(name = "sj",
        mixinStandardHelpOptions = true,
        versionProvider = SjCommand.Version.class,
        description = "SJ for Java: session-typed, transport-independent communication.")
public final class SjCommand implements Runnable {

    /** The subcommands, in the order {@code ./sj --help} lists them. */
    static final List<Class<?>> SUBCOMMANDS = List.of(ExampleCommand.class, DemoCommand.class, ProtocolCommand.class,
            TlsCommand.class, ChatCommand.class, PortalCommand.class, RelayCommand.class, CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        Phases.mark(0, "main");
        int status = run(args);
        Phases.mark(0, "exit");
        System.exit(status);
    }

    /**
     * Runs the command line and returns its exit status (0 ok, 1 failure, 2 usage error). A demo of the
     * plain shape {@link DemoArgs} reads runs without building picocli's model at all (rank 0 of a demo
     * job then starts the other ranks sooner, and every rank under srun starts cheaper).
     */
    public static int run(String... args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, System.out.charset()));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, System.err.charset()));
        OptionalInt demo = DemoArgs.run(args, out, err);
        return demo.isPresent() ? demo.getAsInt() : picocli(commandLine(args), args);
    }

    /**
     * Executes {@code cli} and flushes its output and error writers (picocli buffers them); a demo
     * {@link DemoArgs} reads runs as {@link #run} runs it, with {@code cli}'s writers.
     */
    static int execute(CommandLine cli, String... args) {
        OptionalInt demo = DemoArgs.run(args, cli.getOut(), cli.getErr());
        return demo.isPresent() ? demo.getAsInt() : picocli(cli, args);
    }

    /** Executes {@code cli} with picocli, whatever the arguments. */
    static int picocli(CommandLine cli, String... args) {
        int status = cli.execute(args);
        cli.getOut().flush();
        cli.getErr().flush();
        return status;
    }

    /**
     * The command line, with failures reported as one line ({@code SJ_DEBUG=1} adds the stack trace)
     * and output flushed before the exit status is returned.
     */
    static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * The command line for running {@code args}: when the first argument names a subcommand (other than
     * {@code help}), with that subcommand only. picocli builds the model of every command it is given,
     * by reflection over its classes, which are compiled for Java 5 and so in no AOT cache: for
     * {@code ./sj demo …}, rank 0 of a demo run, building all of them took about as much CPU as the
     * rest of the JVM's start-up, before it could start the other ranks (docs/benchmarks.md "The whole
     * job"). Anything else ({@code --help}, {@code help demo}, a typo) gets them all, so that help and
     * error messages list every command.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new SjCommand());
        String first = args.length > 0 ? args[0] : "";
        boolean one = SUBCOMMANDS.stream().anyMatch(c -> !first.equals("help") && first.equals(name(c)));
        for (Class<?> subcommand : SUBCOMMANDS) {
            if (!one || first.equals(name(subcommand))) {
                cli.addSubcommand(subcommand);
            }
        }
        // @FILE arguments are read whole by the commands that take them (./sj protocol print @p.sj);
        // picocli's expansion would split the file into arguments at every space.
        cli.setExpandAtFiles(false);
        cli.setExecutionExceptionHandler((failure, commandLine, parseResult) -> failed(commandLine.getErr(), failure));
        return cli;
    }

    /** Reports a command's failure on {@code err} as one line ({@code SJ_DEBUG=1} adds the stack trace); status 1. */
    static int failed(PrintWriter err, Throwable failure) {
        err.println("sj: " + describe(failure));
        if (System.getenv("SJ_DEBUG") != null) {
            failure.printStackTrace(err);
        }
        err.flush();
        return 1;
    }

    private static String name(Class<?> subcommand) {
        return subcommand.getAnnotation(Command.class).name();
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null ? failure.getClass().getSimpleName() : message;
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
