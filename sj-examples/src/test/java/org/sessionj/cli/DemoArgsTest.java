package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@link DemoArgs}: the demos read without picocli. Invariant: for every command line it reads, every
 * option (given or defaulted) holds what picocli would have set; every other command line is left to
 * picocli whole.
 */
@Timeout(60)
class DemoArgsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "demo pi",
            "demo pi --workers 3 --size 1000 --deploy processes --timeout 300",
            "demo pi --workers=3 --size=1000 --deploy=processes",
            "demo jacobi --workers 2 --size 100 --steps 2000 --noalias --deploy processes --timeout 300",
            "demo jacobi --pipeline --ordinary --host 10.0.0.2 --rendezvous 10.0.0.1:4000",
            "demo nbody --workers 2 --size 300 --steps 20 --seed 2009 --ordinary --deploy processes",
            "demo nbody --seed 123456789012 --deploy slurm",
            "demo pi --deploy threads --workers 0"})    // a usage error: read alike, then found by prepare
    void everyOptionHoldsWhatPicocliSets(String line) throws Exception {
        String[] args = line.split(" ");
        DemoArgs.Parsed parsed = DemoArgs.parse(args).orElseThrow();
        CommandLine cli = SjCommand.commandLine(args);
        CommandLine.ParseResult result = cli.parseArgs(args);
        CommandLine.ParseResult demo = result.subcommand().subcommand();
        Object picocli = demo.commandSpec().userObject();
        assertThat(parsed.demo()).isExactlyInstanceOf(picocli.getClass());
        assertThat(options(parsed.demo())).isEqualTo(options(picocli)).isNotEmpty();
        assertThat(parsed.workersGiven()).isEqualTo(demo.hasMatchedOption("--workers"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "demo", "demo frobnicate", "protocol check x", "demo pi --help", "demo pi -h", "demo pi -V",
            "demo pi --workers", "demo pi --workers --size 3", "demo pi --workers 2 --workers 3",
            "demo pi --size 1e6", "demo pi --size +5", "demo pi --size 0x10", "demo pi --size -5",
            "demo pi --size 99999999999", "demo jacobi --ordinary=true", "demo pi --bogus 1", "demo pi extra",
            "demo pi --deploy Processes", "demo pi --deploy cloud", "demo pi --host -x", "demo pi -- --size 3",
            "demo pi --steps 3", "demo nbody --seed 1234567890123456789012"})
    void anythingElseIsLeftToPicocli(String line) {
        assertThat(DemoArgs.parse(line.split(" "))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"demo pi --timeout 0", "demo jacobi --ordinary --noalias", "demo nbody --workers 1"})
    void aUsageErrorFoundWhenTheProgramIsBuiltIsLeftToPicocliBeforeAnythingStarts(String line) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(DemoArgs.parse(line.split(" "))).isPresent();
        assertThat(DemoArgs.run(line.split(" "), new PrintWriter(out), new PrintWriter(err))).isEmpty();
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aPlainDemoRunsWithoutPicocliAndVerifies() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        OptionalInt status = DemoArgs.run(new String[] {"demo", "pi", "--workers", "1", "--size", "1000"},
                new PrintWriter(out), new PrintWriter(err));
        assertThat(status).as(err.toString()).hasValue(0);
        assertThat(out.toString()).contains("deploy threads: 2 ranks").contains("verified");
    }

    @Test
    void aFailureWhileRunningIsReportedAsPicocliReportsIt() {
        StringWriter err = new StringWriter();
        OptionalInt status = DemoArgs.run(new String[] {"demo", "pi", "--deploy", "slurm"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err));
        assertThat(status).hasValue(1);
        assertThat(err.toString()).startsWith("sj: expected SLURM_PROCID and SLURM_NTASKS");
    }

    /**
     * The point of it: rank 0's JVM never loads picocli's command line, so it builds no model. Reading
     * the annotations loads their types and a few interfaces they name (24 classes); picocli's parse of
     * the same command line loads about 200.
     */
    @Test
    void aDemoJvmLoadsNoPicocliCommandLine() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"),
                SjCommand.class.getName(), "demo", "pi", "--workers", "1", "--size", "1000").redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(50, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("verified").contains("org.sessionj.cli.DemoArgs ").doesNotContain("picocli.CommandLine ");
        assertThat(output.lines().filter(line -> line.contains("[class,load] picocli.")).count()).isLessThan(40);
    }

    /** Every @Option field's value, by declaring class and name, through the @Mixin fields. */
    private static Map<String, Object> options(Object command) throws IllegalAccessException {
        Map<String, Object> values = new LinkedHashMap<>();
        List<Object> objects = new ArrayList<>(List.of(command));
        for (int i = 0; i < objects.size(); i++) {
            Object object = objects.get(i);
            for (Class<?> type = object.getClass(); type != Object.class; type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    field.setAccessible(true);
                    if (field.isAnnotationPresent(CommandLine.Option.class)) {
                        values.put(type.getSimpleName() + "." + field.getName(), field.get(object));
                    } else if (field.isAnnotationPresent(CommandLine.Mixin.class)) {
                        objects.add(field.get(object));
                    }
                }
            }
        }
        return values;
    }
}
