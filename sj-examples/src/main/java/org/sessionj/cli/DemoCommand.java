package org.sessionj.cli;

import java.util.concurrent.Callable;
import org.sessionj.examples.pi.PiDemo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sj demo …}: the papers' parallel algorithms, run and verified. */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        subcommands = DemoCommand.Pi.class,
        description = "Run one of the papers' parallel algorithms and verify its result.")
final class DemoCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    @Command(name = "pi", mixinStandardHelpOptions = true,
            description = "Monte Carlo pi (paper 001 section 2): a master and N workers; verifies pi within 5 sigma.")
    static final class Pi implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--workers", defaultValue = "2", description = "Number of workers (default ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--size", defaultValue = "20000000",
                description = "Points per worker (default ${DEFAULT-VALUE}).")
        int size;

        @Option(names = "--deploy", defaultValue = "threads",
                description = "Where the workers run: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
        Deploy deploy;

        @Override
        public Integer call() throws Exception {
            if (workers < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "expected --workers of at least 1 but found " + workers);
            }
            if (size < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "expected --size of at least 1 but found " + size);
            }
            PiDemo.Result result = PiDemo.runOnThreads(workers, size);
            return PiDemo.report(result, workers, spec.commandLine().getOut()) ? 0 : 1;
        }
    }

    /** Deployments available in this build. */
    enum Deploy { threads }
}
