package org.sessionj.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sessionj.examples.deploy.ClusterDeployment;
import org.sessionj.examples.deploy.ClusterEnvironment;
import org.sessionj.examples.deploy.Phases;
import org.sessionj.examples.deploy.ProcessesDeployment;
import org.sessionj.examples.deploy.RankProgram;
import org.sessionj.examples.deploy.RankRunner;
import org.sessionj.examples.deploy.ThreadsDeployment;
import org.sessionj.examples.jacobi.JacobiProgram;
import org.sessionj.examples.jacobi.Variant;
import org.sessionj.examples.nbody.NBodyProgram;
import org.sessionj.examples.pi.PiProgram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./sj demo …}: the papers' parallel algorithms, run on threads, processes or a cluster, and verified. */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        subcommands = {DemoCommand.Pi.class, DemoCommand.Jacobi.class, DemoCommand.NBody.class},
        description = "Run one of the papers' parallel algorithms and verify its result.")
final class DemoCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: expected pi, jacobi or nbody");
    }

    /** Where the ranks run. */
    enum Deploy { threads, processes, slurm }

    /** The options every demo shares: the deployment. */
    static final class DeployOptions {
        @Option(names = "--deploy", defaultValue = "threads",
                description = "Where the ranks run: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}). slurm: one rank"
                        + " per process started by srun (or mpirun), rank and size from the environment.")
        Deploy deploy;

        @Option(names = "--rendezvous", paramLabel = "HOST:PORT",
                description = "Rank 0's rendezvous address (slurm: default SLURM_LAUNCH_NODE_IPADDR and a port"
                        + " reserved for or derived from the job step; required under mpirun).")
        String rendezvous;

        @Option(names = "--host", paramLabel = "ADDRESS",
                description = "The address this rank advertises (default: loopback; slurm: this node's address"
                        + " towards rank 0).")
        String host;

        @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
                description = "How long the ranks wait for each other at the rendezvous (default ${DEFAULT-VALUE}).")
        int timeoutSeconds;
    }

    /** What the three demos share: option checks, deployment, summary, verification. */
    abstract static class Demo implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        DeployOptions deploy;

        /** The program for {@code workers} workers; IllegalArgumentException for a bad configuration. */
        abstract RankProgram<?> program(int workers);

        /** How many workers a run of {@code ranks} ranks has. */
        abstract int workersFor(int ranks);

        /** The configured number of workers. */
        abstract int workers();

        /**
         * A usage error: picocli's, which it reports with the usage and status 2; an
         * IllegalArgumentException for a demo parsed without picocli ({@link DemoArgs}), which then
         * leaves the arguments to picocli so that the user gets the same report.
         */
        RuntimeException usage(String message) {
            return spec == null ? new IllegalArgumentException(message)
                    : new CommandLine.ParameterException(spec.commandLine(), message);
        }

        @Override
        public Integer call() throws Exception {
            CommandLine cli = spec.commandLine();
            return prepare(cli.getParseResult().hasMatchedOption("--workers")).run(cli.getOut(), cli.getErr());
        }

        /**
         * Checks the options and builds the program, before anything starts.
         *
         * @param workersGiven whether {@code --workers} was on the command line (under slurm the number
         *     of tasks decides otherwise)
         * @throws RuntimeException a {@link #usage} error for a bad option
         */
        Ready prepare(boolean workersGiven) {
            if (deploy.timeoutSeconds < 1) {
                throw usage("expected --timeout of at least 1 second but found " + deploy.timeoutSeconds);
            }
            int workers = workers();
            ClusterEnvironment cluster = null;
            if (deploy.deploy == Deploy.slurm) {
                cluster = ClusterEnvironment.from(System.getenv(), deploy.rendezvous);
                if (!workersGiven) {
                    workers = workersFor(cluster.size());
                }
            }
            RankProgram<?> program;
            try {
                program = program(workers);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
            return new Ready(this, program, cluster);
        }

        /** A checked demo: the program and, under slurm, the rank's environment. */
        record Ready(Demo demo, RankProgram<?> program, ClusterEnvironment cluster) {
            /** Runs the program, prints its summary and verification; 0 when verified, 1 when not. */
            int run(PrintWriter out, PrintWriter err) throws InterruptedException {
                return demo.run(program, cluster, out, err);
            }
        }

        private <R extends RankProgram.Outcome> int run(RankProgram<R> program, ClusterEnvironment cluster,
                PrintWriter out, PrintWriter err) throws InterruptedException {
            Duration timeout = Duration.ofSeconds(deploy.timeoutSeconds);
            ProgressBar bar = new ProgressBar(err, ProgressBar.stderrIsTerminal(), program.name());
            long start = System.nanoTime();
            Phases.mark(0, "parsed");
            // Across processes the result is printed and verified while the child ranks' JVMs exit.
            return switch (deploy.deploy) {
                case threads -> report(ThreadsDeployment.run(program, timeout, bar), program, cluster, start, bar, out);
                case processes -> ProcessesDeployment.run(program, RankMain.class.getName(),
                        (rank, address) -> RankMain.args(rank, address, timeout,
                                deploy.host != null ? deploy.host : ProcessesDeployment.HOST, program), timeout, bar,
                        timed -> report(timed, program, cluster, start, bar, out));
                case slurm -> report(ClusterDeployment.run(program, cluster, deploy.host, timeout, bar), program, cluster,
                        start, bar, out);
            };
        }

        /** Prints rank 0's result, its times and its verification; 0 when verified, 1 when not. */
        private <R extends RankProgram.Outcome> int report(RankRunner.Timed<R> timed, RankProgram<R> program,
                ClusterEnvironment cluster, long start, ProgressBar bar, PrintWriter out) {
            long total = System.nanoTime() - start;
            bar.finish();
            if (timed == null) {
                return 0;                       // a cluster rank other than 0: rank 0 reports
            }
            R outcome = timed.outcome();
            outcome.summary().forEach(out::println);
            out.printf(Locale.ROOT, "  deploy %s: %d ranks%s; set-up %.1f ms (server sockets, rendezvous), connecting"
                            + " the ranks %.1f ms, opening the program's sessions %.1f ms, run %.1f ms, total %.1f ms with"
                            + " runtime start-up%n", deploy.deploy,
                    program.ranks(), cluster == null ? "" : " (" + cluster.engine() + ")", timed.setupNanos() / 1e6,
                    timed.connectNanos() / 1e6, timed.openNanos() / 1e6, timed.runNanos() / 1e6, total / 1e6);
            out.flush();
            long checkStart = System.nanoTime();
            RankProgram.Verification verdict = outcome.verify();
            Phases.mark(0, "verified");
            out.printf(Locale.ROOT, "  %s: %s (check %.1f ms)%n", verdict.passed() ? "verified" : "VERIFICATION FAILED",
                    verdict.description(), (System.nanoTime() - checkStart) / 1e6);
            out.flush();
            return verdict.passed() ? 0 : 1;
        }
    }

    /** The ghost-point / particle forwarding variant options. */
    static final class VariantOptions {
        @Option(names = "--ordinary", description = "Send arrays with send (copied, even between threads).")
        boolean ordinary;

        @Option(names = "--noalias", description = "Pass @NoAlias arrays with pass (by reference between threads; the default).")
        boolean noalias;

        Variant variant(Demo demo) {
            if (ordinary && noalias) {
                throw demo.usage("expected at most one of --ordinary and --noalias but found both");
            }
            return ordinary ? Variant.ORDINARY : Variant.NOALIAS;
        }
    }

    @Command(name = "pi", mixinStandardHelpOptions = true,
            description = "Monte Carlo pi (paper 001 section 2): a master and N workers; verifies pi within 5 sigma.")
    static final class Pi extends Demo {
        @Option(names = "--workers", defaultValue = "2", description = "Number of workers (default ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--size", defaultValue = "20000000", description = "Points per worker (default ${DEFAULT-VALUE}).")
        int size;

        @Override
        RankProgram<?> program(int workers) {
            return new PiProgram(workers, size);
        }

        @Override
        int workersFor(int ranks) {
            return ranks - 1;
        }

        @Override
        int workers() {
            return workers;
        }
    }

    @Command(name = "jacobi", mixinStandardHelpOptions = true,
            description = {"Jacobi solution of the discrete Poisson equation (papers 001 section 3, 000 section 3.1).",
                    "With 2 workers: the papers' master and two workers (multicast outwhile); with any other number,"
                            + " or --pipeline: the pipeline version (iteration chaining).",
                    "Verifies the grid bitwise against a sequential solve with the same iteration count."})
    static final class Jacobi extends Demo {
        @Option(names = "--workers", defaultValue = "2", description = "Number of workers (default ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--size", defaultValue = "300", description = "Grid side, interior points (default ${DEFAULT-VALUE}).")
        int size;

        @Option(names = "--steps", defaultValue = "3000", description = "Most iterations (default ${DEFAULT-VALUE}).")
        int steps;

        @Option(names = "--pipeline", description = "Use the pipeline version even with 2 workers.")
        boolean pipeline;

        @Mixin
        VariantOptions variant;

        @Override
        RankProgram<?> program(int workers) {
            return new JacobiProgram(workers, size, steps, variant.variant(this), pipeline || workers != 2);
        }

        @Override
        int workersFor(int ranks) {
            return ranks - 1;
        }

        @Override
        int workers() {
            return workers;
        }
    }

    @Command(name = "nbody", mixinStandardHelpOptions = true,
            description = {"n-Body simulation on a ring of workers (papers 000 section 3.2, 001 section 4).",
                    "Verifies the final positions against a sequential simulation within 1e-9."})
    static final class NBody extends Demo {
        @Option(names = "--workers", defaultValue = "3", description = "Ring size, at least 2 (default ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--size", defaultValue = "2000", description = "Number of bodies in all (default ${DEFAULT-VALUE}).")
        int size;

        @Option(names = "--steps", defaultValue = "40", description = "Simulation steps (default ${DEFAULT-VALUE}).")
        int steps;

        @Option(names = "--seed", defaultValue = "2009", description = "Seed of the initial conditions (default ${DEFAULT-VALUE}).")
        long seed;

        @Mixin
        VariantOptions variant;

        @Override
        RankProgram<?> program(int workers) {
            return new NBodyProgram(workers, size, steps, variant.variant(this), seed);
        }

        @Override
        int workersFor(int ranks) {
            return ranks;
        }

        @Override
        int workers() {
            return workers;
        }
    }
}
