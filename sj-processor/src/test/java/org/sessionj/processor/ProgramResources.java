package org.sessionj.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Programs kept as test resources (one directory per collection), and mutants made from them. */
final class ProgramResources {
    private final String directory;

    /** The programs under {@code /directory/} on the test class path. */
    ProgramResources(String directory) {
        this.directory = directory;
    }

    /** The text of {@code name}.java. */
    String program(String name) {
        try (InputStream in = ProgramResources.class.getResourceAsStream("/" + directory + "/" + name + ".java")) {
            if (in == null) {
                throw new AssertionError("no program " + name + " in /" + directory);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The program with {@code from} (which must occur exactly once) replaced by {@code to}. */
    String mutant(String name, String from, String to) {
        String text = program(name);
        assertThat(text.indexOf(from)).as("'" + from + "' in " + name).isNotNegative();
        assertThat(text.indexOf(from)).as("'" + from + "' once in " + name).isEqualTo(text.lastIndexOf(from));
        return text.replace(from, to);
    }
}
