package org.sessionj.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sessionj.crosscheck.mutation.Mutation;
import org.sessionj.crosscheck.mutation.Mutator;
import org.sessionj.crosscheck.program.Ctl;
import org.sessionj.crosscheck.program.GeneratedCase;
import org.sessionj.crosscheck.program.JavaWriter;
import org.sessionj.types.SessionTypes;

/** The generator and the mutator without compiling: determinism, coverage of the notation, guards. */
class GeneratorTest {

    @Test
    void aSeedDeterminesTheCaseAndItsMutants() {
        for (long seed = 0; seed < 50; seed++) {
            GeneratedCase a = GeneratedCase.generate(seed, 3);
            GeneratedCase b = GeneratedCase.generate(seed, 3);
            assertThat(a.protocolSource()).isEqualTo(b.protocolSource());
            assertThat(a.programSource()).isEqualTo(b.programSource());
            assertThat(a.peerSource()).isEqualTo(b.peerSource());
            List<String> first = sources(a, seed);
            assertThat(sources(b, seed)).isEqualTo(first);
        }
    }

    private static List<String> sources(GeneratedCase generated, long seed) {
        return new Mutator(new SplittableRandom(seed)).mutants(generated.program(), 12).stream()
                .map(m -> m.signature() + "\n" + JavaWriter.sideFile(generated.pkg(), "Mut", m.mutant())).toList();
    }

    @Test
    void protocolsAreWellFormedAndUseEveryConstruct() {
        StringBuilder all = new StringBuilder();
        for (long seed = 0; seed < 300; seed++) {
            GeneratedCase generated = GeneratedCase.generate(seed, 3);
            assertThat(SessionTypes.wellFormednessProblems(generated.requesterType())).isEmpty();
            all.append(generated.requesterType()).append('\n');
        }
        assertThat(all.toString()).contains("!<", "?(", "!{", "?{", "![", "?[", "rec X", "#X", "int[]", "Pt",
                "Tagged", "java.util.List<String>", "double[][]");
    }

    @Test
    void mutantsDifferFromTheProgramAndCoverEveryOperator() {
        StringBuilder signatures = new StringBuilder();
        for (long seed = 0; seed < 100; seed++) {
            GeneratedCase generated = GeneratedCase.generate(seed, 3);
            String program = JavaWriter.sideFile(generated.pkg(), "Mut", generated.program());
            for (Mutation mutation : new Mutator(new SplittableRandom(seed)).mutants(generated.program(), 12)) {
                assertThat(JavaWriter.sideFile(generated.pkg(), "Mut", mutation.mutant())).as(mutation.description())
                        .isNotEqualTo(program);
                signatures.append(mutation.signature()).append('\n');
            }
        }
        assertThat(signatures.toString()).contains("drop/", "duplicate/", "swap/", "retype/", "move/", "wrap/LAMBDA",
                "wrap/CATCH", "wrap/FINALLY", "wrap/ASSERT", "wrap/INSTANCEOF_ALIAS", "wrap-range/TRY_SWALLOW",
                "insert/close", "move/into-outwhile-operand", "move/to-other-method");
    }

    @Test
    void decisionsEndLoopsOnceTheBudgetIsSpentAndStopARunawayProgram() {
        Ctl c = new Ctl(7, 3);
        int iterations = 0;
        while (c.more()) {
            iterations++;
        }
        assertThat(iterations).isLessThanOrEqualTo(3);
        Ctl spent = new Ctl(7, 0);
        for (int i = 0; i < 100; i++) {
            assertThat(spent.choose(3, 0b100)).isEqualTo(2);
        }
        Ctl looping = new Ctl(1, 0);
        assertThatThrownBy(() -> {
            while (true) {
                looping.flag(true);
            }
        }).isInstanceOf(Ctl.Runaway.class);
    }
}
