package org.sessionj.processor.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Marks a class output directory as compiled with the session checker, so that the runtime can tell a
 * class that was checked from one compiled without sj-processor (adv15 A25). A protocol's descriptor
 * only says that the <em>protocol</em> was processed: an application module whose pom misses
 * {@code annotationProcessorPaths}, built against protocols from a library that had the processor,
 * would otherwise run unchecked without a word. sj-runtime looks for this file at the code source of
 * the class that creates a service or server socket ({@code UncheckedCallers}) and warns when it is
 * missing. Invariant: <em>the marker is in an output directory only if a javac run with the checker
 * analysed classes into it</em> — a {@code -proc:only} run, which analyses nothing, writes none.
 */
final class CheckedMarker {
    /** The marker's path in the class output (sj-runtime's {@code UncheckedCallers.MARKER} reads it). */
    static final String PATH = "META-INF/sessionj/checked";
    private static final String NAME = "checked";
    private static final String TEXT = "# sj-processor: the classes compiled into this output were checked"
            + " against their protocols\n";

    private CheckedMarker() {
    }

    /**
     * Writes the marker into {@code sessionj}, the output's {@code META-INF/sessionj} directory (null when
     * the output is not a directory: in-memory compilations, which leave nothing behind to mark).
     *
     * @return a warning to report, or null when the marker is there
     */
    static String write(Path sessionj) {
        if (sessionj == null) {
            return null;
        }
        Path marker = sessionj.resolve(NAME);
        try {
            if (!Files.isRegularFile(marker)) {
                Files.createDirectories(sessionj);
                Files.writeString(marker, TEXT, StandardCharsets.UTF_8);
            }
            return null;
        } catch (IOException e) {
            return "sj-processor: cannot write " + marker + " (" + e.getMessage() + "): the runtime will warn that"
                    + " the classes of this output were compiled without sj-processor";
        }
    }
}
