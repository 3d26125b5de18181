package org.sessionj.crosscheck.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile-time benchmark measures clean compilations: its generated program and its worst-case
 * inputs (at small sizes) compile with sj-processor without a diagnostic, so a figure never times an
 * error path. (The benchmark itself runs only with -Pcompile-time.)
 */
class BenchmarkInputsTest {
    private final Javac javac = new Javac(System.getProperty("java.class.path"), false);

    @Test
    void theGeneratedProgramCompilesCleanlyInEveryConfiguration(@TempDir Path dir) throws IOException {
        BenchmarkProgram.Written program = BenchmarkProgram.write(dir.resolve("src"), 3, 1);
        assertThat(program.files()).hasSize(10); // three units of three files, one ordinary class
        for (Javac.Setup setup : Javac.Setup.standard()) {
            Javac.Sample sample = javac.compile(program.files(), Files.createDirectories(dir.resolve(setup.name())), setup);
            assertThat(sample.errors()).as(setup.label).isEmpty();
            assertThat(sample.threadCpu()).isPositive();
        }
    }

    @Test
    void worstCaseInputsAreWellTypedAtSmallSizes(@TempDir Path dir) throws IOException {
        for (String source : List.of(WorstCases.deepProtocol(5), WorstCases.nestedLoops(3))) {
            String name = source.contains("class Deep") ? "Deep" : "Loops";
            Path file = Files.createDirectories(dir.resolve(name)).resolve(name + ".java");
            Files.writeString(file, source);
            Javac.Sample sample = javac.compile(List.of(file), Files.createDirectories(dir.resolve(name + "-out")),
                    Javac.Setup.SJ);
            assertThat(sample.errors()).as(name).isEmpty();
        }
    }
}
