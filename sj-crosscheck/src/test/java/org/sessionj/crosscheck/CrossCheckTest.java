package org.sessionj.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.crosscheck.harness.CrossCheck;
import org.sessionj.crosscheck.harness.KnownFindings;
import org.sessionj.crosscheck.harness.MutantResult;
import org.sessionj.crosscheck.harness.Report;

/**
 * The property-based cross-check of the checker against the runtime monitor (docs/crosscheck.md):
 * every generated program compiles with no diagnostic and runs against its peer; every mutant the
 * monitor catches at run time is rejected at compile time, except mutation classes listed in
 * {@code known-escapes.txt}. The default build runs a small fixed configuration; {@code -Pcrosscheck}
 * a large one. System properties: {@code crosscheck.seed}, {@code crosscheck.programs},
 * {@code crosscheck.mutants}, {@code crosscheck.first} (index of the first case).
 */
class CrossCheckTest {
    static final String KNOWN = "/crosscheck/known-escapes.txt";

    @Test
    void everyMutantTheMonitorCatchesIsRejectedAtCompileTime() throws IOException {
        CrossCheck.Config config = new CrossCheck.Config(Long.getLong("crosscheck.seed", 20261122L),
                Integer.getInteger("crosscheck.first", 0), Integer.getInteger("crosscheck.programs", 14),
                Integer.getInteger("crosscheck.mutants", 12), 3, Duration.ofMillis(500), Duration.ofSeconds(10), 16);
        long start = System.nanoTime();
        List<CrossCheck.CaseResult> cases = new CrossCheck(config, System.out::println).run();
        Report report = new Report(config, cases, KnownFindings.load(KNOWN));
        String text = report.render() + String.format("%nTook %.1f s.%n", (System.nanoTime() - start) / 1e9);
        Path out = Path.of("target", "crosscheck");
        writeReport(out, text, report);
        System.out.println(text);

        String rerun = "seed " + config.seed() + " (rerun with -Dcrosscheck.seed=" + config.seed()
                + " -Dcrosscheck.programs=" + config.programs() + "; one case i: -Dcrosscheck.first=i -Dcrosscheck.programs=1);"
                + " report and escaping mutants in " + out.toAbsolutePath();
        assertThat(report.brokenCases()).as("generated cases that do not compile or do not run, " + rerun)
                .extracting(c -> c.generated().seed() + ": " + c.javaErrors() + " " + c.crash() + " " + c.baseOutcome())
                .isEmpty();
        assertThat(report.newFalseAlarms()).as("generated well-typed programs the checker rejects, " + rerun)
                .extracting(c -> c.generated().seed() + ": " + c.generated().requesterType() + " " + c.programCodes()
                        + c.peerCodes())
                .isEmpty();
        assertThat(report.invalidMutants()).as("mutants that are not valid Java, " + rerun)
                .extracting(MutantResult::description).isEmpty();
        assertThat(report.newEscapes()).as("mutants the monitor catches but the checker accepts, not in " + KNOWN + ", "
                + rerun).extracting(m -> m.signature() + " (case " + m.caseSeed() + " mutant " + m.index() + "): "
                        + m.description() + "; " + m.outcome()).isEmpty();
        // Not vacuous: the mutants exercised both verdicts.
        assertThat(report.count(m -> true)).isGreaterThanOrEqualTo(config.programs() * (long) config.mutantsPerProgram() / 2);
        assertThat(report.count(MutantResult::rejected)).isPositive();
        assertThat(report.count(MutantResult::caughtAtRunTime)).isPositive();
    }

    private static void writeReport(Path out, String text, Report report) throws IOException {
        Files.createDirectories(out.resolve("escapes"));
        Files.writeString(out.resolve("report.md"), text);
        for (MutantResult escape : report.mutants().stream().filter(MutantResult::escape).toList()) {
            String name = escape.signature().replaceAll("[^A-Za-z0-9]+", "_") + "-" + escape.caseSeed() + "-" + escape.index();
            Files.writeString(out.resolve("escapes").resolve(name + ".java"), "// " + escape.signature() + ": "
                    + escape.description() + "\n// at run time: " + escape.outcome() + "\n" + escape.source());
        }
    }
}
