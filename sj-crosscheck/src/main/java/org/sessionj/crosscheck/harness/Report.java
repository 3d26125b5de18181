package org.sessionj.crosscheck.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.sessionj.crosscheck.harness.CrossCheck.CaseResult;

/** The counts of a cross-check run and its findings, as Markdown. */
public final class Report {
    private final CrossCheck.Config config;
    private final List<CaseResult> cases;
    private final KnownFindings known;

    public Report(CrossCheck.Config config, List<CaseResult> cases, KnownFindings known) {
        this.config = config;
        this.cases = List.copyOf(cases);
        this.known = known;
    }

    /** Every mutant of the cases whose program the checker accepted (the others' verdicts say nothing). */
    public List<MutantResult> mutants() {
        List<MutantResult> out = new ArrayList<>();
        for (CaseResult c : cases) {
            if (!c.falseAlarm() && c.crash() == null) {
                out.addAll(c.mutants());
            }
        }
        return out;
    }

    public long count(Predicate<MutantResult> which) {
        return mutants().stream().filter(which).count();
    }

    /** Escapes whose signature the known-findings file does not list. */
    public List<MutantResult> newEscapes() {
        return mutants().stream().filter(m -> m.escape() && !known.escapeListed(m.signature())).toList();
    }

    /** Generated programs (or peers) the checker rejected, with no listed explanation. */
    public List<CaseResult> newFalseAlarms() {
        return cases.stream().filter(c -> c.falseAlarm() && known.falseAlarmClass(c.generated()) == null).toList();
    }

    /** Cases whose sources javac rejected, where the processor crashed, or whose unmutated run failed. */
    public List<CaseResult> brokenCases() {
        return cases.stream().filter(c -> !c.javaErrors().isEmpty() || c.crash() != null
                || c.baseOutcome() == null || !c.baseOutcome().ok()).toList();
    }

    /** Mutants that are not valid Java (a mutator bug: every mutant should compile without the processor). */
    public List<MutantResult> invalidMutants() {
        return mutants().stream().filter(MutantResult::javaError).toList();
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        List<MutantResult> mutants = mutants();
        long falseAlarms = cases.stream().filter(CaseResult::falseAlarm).count();
        out.append("## Cross-check: seed ").append(config.seed()).append(", ").append(cases.size()).append(" programs\n\n");
        out.append("| | count |\n|---|---:|\n");
        row(out, "programs generated (each with a peer)", cases.size());
        row(out, "programs or peers rejected by the checker (false alarms; their mutants are not counted)", falseAlarms);
        row(out, "mutants", mutants.size());
        row(out, "mutants that are not valid Java (dropped)", count(MutantResult::javaError));
        row(out, "mutants rejected statically", count(m -> m.rejected()));
        row(out, "mutants caught at run time", count(MutantResult::caughtAtRunTime));
        row(out, "caught at run time and rejected statically", count(m -> m.caughtAtRunTime() && m.rejected()));
        row(out, "rejected statically, ran fine (stricter than the monitor)", count(m -> m.rejected() && !m.caughtAtRunTime()));
        row(out, "accepted and ran fine (equivalent mutants)", count(m -> !m.rejected() && !m.javaError() && !m.caughtAtRunTime()));
        row(out, "**escapes: caught at run time, accepted by the checker**", count(MutantResult::escape));
        row(out, "escapes not listed in known-escapes.txt", newEscapes().size());
        out.append('\n');

        Map<Outcome.Kind, Long> verdicts = new TreeMap<>();
        mutants.stream().filter(MutantResult::caughtAtRunTime).forEach(m -> verdicts.merge(m.outcome().verdict(), 1L, Long::sum));
        out.append("Run-time verdicts of the caught mutants: ").append(verdicts).append("\n\n");

        out.append("| mutation class | mutants | rejected | caught at run time | escapes |\n|---|---:|---:|---:|---:|\n");
        Map<String, long[]> bySignature = new TreeMap<>();
        for (MutantResult m : mutants) {
            long[] c = bySignature.computeIfAbsent(m.signature(), k -> new long[4]);
            c[0]++;
            c[1] += m.rejected() ? 1 : 0;
            c[2] += m.caughtAtRunTime() ? 1 : 0;
            c[3] += m.escape() ? 1 : 0;
        }
        bySignature.forEach((signature, c) -> out.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %d | %s |%n",
                signature, c[0], c[1], c[2], c[3] == 0 ? "0" : "**" + c[3] + "**")));
        out.append('\n');

        Map<String, List<MutantResult>> escapes = new TreeMap<>();
        mutants.stream().filter(MutantResult::escape).forEach(m -> escapes.computeIfAbsent(m.signature(), k -> new ArrayList<>()).add(m));
        if (!escapes.isEmpty()) {
            out.append("### Escapes by class (first example of each)\n\n");
            escapes.forEach((signature, list) -> {
                MutantResult first = list.get(0);
                out.append("- `").append(signature).append("` × ").append(list.size())
                        .append(known.escapeListed(signature) ? " (known)" : " (**new**)").append(": ")
                        .append(first.description()).append(" — case seed ").append(first.caseSeed()).append(" mutant ")
                        .append(first.index()).append(", ").append(first.outcome()).append('\n');
            });
            out.append('\n');
        }
        List<CaseResult> alarms = cases.stream().filter(CaseResult::falseAlarm).toList();
        if (!alarms.isEmpty()) {
            out.append("### False alarms (well-typed generated programs the checker rejects)\n\n");
            for (CaseResult c : alarms) {
                String cls = known.falseAlarmClass(c.generated());
                out.append("- case seed ").append(c.generated().seed()).append(" (").append(cls == null ? "**new**" : cls)
                        .append("): `").append(c.generated().requesterType()).append("`: ")
                        .append(firstLine(c.programCodes().isEmpty() ? c.peerCodes() : c.programCodes())).append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String firstLine(List<InProcessCompiler.Diag> diags) {
        if (diags.isEmpty()) {
            return "";
        }
        String message = diags.get(0).message();
        return message.length() > 240 ? message.substring(0, 240) + "…" : message;
    }

    private static void row(StringBuilder out, String what, long count) {
        out.append("| ").append(what).append(" | ").append(count).append(" |\n");
    }
}
