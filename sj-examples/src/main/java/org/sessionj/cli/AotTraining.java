package org.sessionj.cli;

/**
 * The training run of {@code ./sj}'s AOT cache (JDK 25+, JEP 483/514/515; docs/benchmarks.md "Cold
 * start"): runs what a user of the command line typically runs, small, so that the JVM records the
 * classes it loads and links and the methods' profiles. The launcher runs it once per build with
 * {@code -XX:AOTCacheOutput} and then starts every command with {@code -XX:AOTCache}; a class it does
 * not load here is simply loaded the ordinary way.
 *
 * <p>Covers the command line itself, protocol checking, sessions in one JVM and over loopback TCP (the
 * demos on threads: the in-JVM transport, set up over tcp), with their encoders, and the demos across
 * processes (the ipc transport). {@code scripts/compare.sh} uses the same training for its ranks: one
 * cache, recorded by {@code ./sj}, for the command line and the benchmark.
 */
public final class AotTraining {
    private AotTraining() {
    }

    /** The commands run, each as {@code ./sj ARGS}. */
    static final String[][] COMMANDS = {
        {"--version"},
        {"protocol", "check", "cbegin.!<int>.?(String)"},
        {"protocol", "dual", "cbegin.rec X[!{MORE: !<int>.#X, DONE: ?(double)}]"},
        {"demo", "pi", "--workers", "2", "--size", "20000"},
        {"demo", "jacobi", "--workers", "2", "--size", "16", "--steps", "20"},
        {"demo", "nbody", "--workers", "2", "--size", "16", "--steps", "2"},
        // Across processes: the ipc transport and the rank set-up (rendezvous, connecting) in this JVM, which
        // is rank 0; the child ranks start from this same cache (ProcessesDeployment passes -XX:AOTCache on).
        {"demo", "nbody", "--workers", "2", "--size", "16", "--steps", "2", "--deploy", "processes"},
    };

    /** Runs every training command; exits with the first failing command's status, 0 if none failed. */
    public static void main(String[] args) {
        for (String[] command : COMMANDS) {
            int status = SjCommand.run(command);
            if (status != 0) {
                System.err.println("sj: AOT training: ./sj " + String.join(" ", command) + " failed with status " + status);
                System.exit(status);
            }
        }
        System.exit(0);
    }
}
