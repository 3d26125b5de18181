package org.sessionj.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.sessionj.api.SJService;
import org.sessionj.examples.deploy.DeploymentException;
import org.sessionj.examples.deploy.HostPort;
import org.sessionj.examples.deploy.Phases;
import org.sessionj.examples.deploy.ProcessesDeployment;
import org.sessionj.examples.deploy.RankProgram;
import org.sessionj.examples.deploy.RankRunner;
import org.sessionj.examples.deploy.RankToRendezvous;
import org.sessionj.examples.jacobi.JacobiProgram;
import org.sessionj.examples.jacobi.Variant;
import org.sessionj.examples.nbody.NBodyProgram;
import org.sessionj.examples.pi.PiProgram;

/**
 * The entry point of a child rank of {@code ./sj demo … --deploy processes}: rank 0 starts every other
 * rank as {@code java … org.sessionj.cli.RankMain RANK RENDEZVOUS TIMEOUT HOST PROGRAM…} (see
 * {@link #args}). It has no command-line library on purpose: picocli's classes are compiled for Java 5,
 * which no AOT cache or CDS archive can hold, so each rank that parsed its arguments with it loaded,
 * verified and interpreted some 200 classes and built the model of every {@code ./sj} command, about a
 * third of a rank JVM's start-up (docs/benchmarks.md "The whole job"). The arguments are written by
 * {@link #args} and read back here, never typed by a person; a bad one still fails with a message
 * naming what was expected.
 */
public final class RankMain {

    private RankMain() {
    }

    /**
     * Runs one child rank; exits 0 when it played its part, 2 for bad arguments, 1 when the rank failed
     * (its message, prefixed {@code sj: }, on standard error: rank 0 quotes it).
     */
    public static void main(String[] args) {
        Child child;
        try {
            child = parse(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println("sj: rank arguments: " + e.getMessage());
            System.exit(2);
            return;
        }
        Phases.mark(child.rank(), "main");
        int status;
        try {
            child.run();
            status = 0;
        } catch (RuntimeException e) {
            System.err.println("sj: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            if (System.getenv("SJ_DEBUG") != null) {
                e.printStackTrace();
            }
            status = 1;
        }
        Phases.mark(child.rank(), "exit");
        System.exit(status);
    }

    /**
     * The arguments of child rank {@code rank}: {@code RANK RENDEZVOUS TIMEOUT HOST} and the program's
     * words ({@link #describe}). {@code rendezvous} is {@code HOST:PORT}, or
     * {@link ProcessesDeployment#ADDRESS_ON_STDIN} for the address on standard input.
     */
    public static List<String> args(int rank, String rendezvous, Duration timeout, String host, RankProgram<?> program) {
        List<String> args = new ArrayList<>(List.of(Integer.toString(rank), rendezvous,
                Long.toString(timeout.toSeconds()), host));
        args.addAll(describe(program));
        return args;
    }

    /**
     * A child rank, as its arguments describe it.
     *
     * @param rank the rank
     * @param address where the rendezvous is, once asked (standard input is read then)
     * @param host the address this rank advertises
     * @param timeout how long the ranks wait for each other
     * @param program the program
     */
    record Child(int rank, Supplier<HostPort> address, String host, Duration timeout, RankProgram<?> program) {
        /** Registers with the rendezvous, connects to the other ranks and plays this rank's part. */
        void run() {
            RankRunner.runRank(program, rank, () -> {
                HostPort at = address.get();
                return SJService.create(RankToRendezvous.class, at.host(), at.port());
            }, host, timeout);
        }
    }

    /** Parses {@code args} as {@link #args} writes them; IllegalArgumentException naming what is wrong. */
    static Child parse(List<String> args) {
        if (args.size() < 5) {
            throw new IllegalArgumentException("expected RANK RENDEZVOUS TIMEOUT HOST PROGRAM… but found " + args);
        }
        int rank = number(args.get(0), "RANK");
        String rendezvous = args.get(1);
        int timeout = number(args.get(2), "TIMEOUT (seconds)");
        String host = args.get(3);
        RankProgram<?> program = program(args.subList(4, args.size()));
        if (rank < 1 || rank >= program.ranks()) {
            throw new IllegalArgumentException("expected RANK between 1 and " + (program.ranks() - 1) + " but found " + rank);
        }
        if (timeout < 1) {
            throw new IllegalArgumentException("expected TIMEOUT of at least 1 second but found " + timeout);
        }
        Supplier<HostPort> address;
        if (ProcessesDeployment.ADDRESS_ON_STDIN.equals(rendezvous)) {
            // From rank 0's ProcessesDeployment: the address comes on standard input, once rank 0 listens.
            address = () -> ProcessesDeployment.readAddress(new BufferedReader(new InputStreamReader(System.in,
                    StandardCharsets.US_ASCII)));
        } else {
            HostPort given;
            try {
                given = HostPort.parse(rendezvous, "RENDEZVOUS");   // a malformed one fails before anything starts
            } catch (DeploymentException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            address = () -> given;
        }
        return new Child(rank, address, host, Duration.ofSeconds(timeout), program);
    }

    /** A demo program as words: {@code pi WORKERS POINTS}, {@code jacobi WORKERS SIZE STEPS VARIANT LAYOUT}, {@code nbody UNITS BODIES STEPS SEED VARIANT}. */
    static List<String> describe(RankProgram<?> program) {
        return switch (program) {
            case PiProgram pi -> List.of("pi", Integer.toString(pi.workers()), Integer.toString(pi.trialsPerWorker()));
            case JacobiProgram jacobi -> List.of("jacobi", Integer.toString(jacobi.workers()),
                    Integer.toString(jacobi.size()), Integer.toString(jacobi.maxIterations()), variant(jacobi.variant()),
                    jacobi.pipeline() ? "pipeline" : "multicast");
            case NBodyProgram nbody -> List.of("nbody", Integer.toString(nbody.units()), Integer.toString(nbody.bodies()),
                    Integer.toString(nbody.steps()), Long.toString(nbody.seed()), variant(nbody.variant()));
            default -> throw new IllegalArgumentException("cannot start a child rank of " + program.name()
                    + ": expected pi, jacobi or nbody");
        };
    }

    /** The program {@link #describe} described; IllegalArgumentException naming what is wrong. */
    static RankProgram<?> program(List<String> words) {
        String name = words.get(0);
        List<String> values = words.subList(1, words.size());
        return switch (name) {
            case "pi" -> {
                expect(values, name, "WORKERS POINTS");
                yield new PiProgram(number(values.get(0), "WORKERS"), number(values.get(1), "POINTS"));
            }
            case "jacobi" -> {
                expect(values, name, "WORKERS SIZE STEPS noalias|ordinary pipeline|multicast");
                String layout = values.get(4);
                if (!layout.equals("pipeline") && !layout.equals("multicast")) {
                    throw new IllegalArgumentException("expected pipeline or multicast but found '" + layout + "'");
                }
                yield new JacobiProgram(number(values.get(0), "WORKERS"), number(values.get(1), "SIZE"),
                        number(values.get(2), "STEPS"), variant(values.get(3)), layout.equals("pipeline"));
            }
            case "nbody" -> {
                expect(values, name, "UNITS BODIES STEPS SEED noalias|ordinary");
                long seed;
                try {
                    seed = Long.parseLong(values.get(3));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("expected a number for SEED but found '" + values.get(3) + "'");
                }
                yield new NBodyProgram(number(values.get(0), "UNITS"), number(values.get(1), "BODIES"),
                        number(values.get(2), "STEPS"), variant(values.get(4)), seed);
            }
            default -> throw new IllegalArgumentException("expected a program pi, jacobi or nbody but found '" + name + "'");
        };
    }

    private static void expect(List<String> values, String program, String shape) {
        if (values.size() != shape.split(" ").length) {
            throw new IllegalArgumentException("expected " + program + " " + shape + " but found " + program + " "
                    + String.join(" ", values));
        }
    }

    private static int number(String text, String what) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number for " + what + " but found '" + text + "'");
        }
    }

    private static String variant(Variant variant) {
        return variant == Variant.ORDINARY ? "ordinary" : "noalias";
    }

    private static Variant variant(String text) {
        return switch (text) {
            case "ordinary" -> Variant.ORDINARY;
            case "noalias" -> Variant.NOALIAS;
            default -> throw new IllegalArgumentException("expected noalias or ordinary but found '" + text + "'");
        };
    }
}
