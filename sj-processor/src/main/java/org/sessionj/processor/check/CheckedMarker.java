package org.sessionj.processor.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Marks a class output directory as compiled with the session checker, so that the runtime can tell a
 * class that was checked from one compiled without sj-processor (adv15 A25). A protocol's descriptor
 * only says that the <em>protocol</em> was processed: an application module whose pom misses
 * {@code annotationProcessorPaths}, built against protocols from a library that had the processor,
 * would otherwise run unchecked without a word. sj-runtime looks for this file at the code source of
 * the class that creates a service or server socket or starts a session ({@code UncheckedCallers}) and
 * warns when it is missing. Invariant: <em>the marker is in an output directory only if a javac run with
 * the checker analysed classes into it</em> — a {@code -proc:only} run, which analyses nothing, writes none.
 *
 * <p>One marker per output said nothing about the classes in it that another compiler wrote there (adv17
 * A6: several modules, or Kotlin and Java, writing one class output; a jar merging a checked and an
 * unchecked module): so each top-level class whose code was checked for sessions also gets a record,
 * {@value #RECORDS}{@code <binary name>}, and a marker this version writes says so ({@value #PER_CLASS}):
 * the runtime then asks for the class's own record. A marker an earlier version wrote is left as it is
 * (the runtime trusts the whole output then, as before: its classes have no records) until a clean build.
 */
final class CheckedMarker {
    /** The marker's path in the class output (sj-runtime's {@code UncheckedCallers.MARKER} reads it). */
    static final String PATH = "META-INF/sessionj/checked";
    /** Where each checked class's record is, in the class output (sj-runtime's {@code UncheckedCallers.RECORDS}). */
    static final String RECORDS = "META-INF/sessionj/checked-classes/";
    /** The line of a marker whose classes have records (sj-runtime's {@code UncheckedCallers.PER_CLASS}). */
    static final String PER_CLASS = "# per-class records: " + RECORDS;
    private static final String NAME = "checked";
    private static final String TEXT = "# sj-processor: the classes compiled into this output were checked"
            + " against their protocols\n" + PER_CLASS + "\n";

    private CheckedMarker() {
    }

    /**
     * Writes the marker into {@code sessionj}, the output's {@code META-INF/sessionj} directory (null when
     * the output is not a directory: in-memory compilations, which leave nothing behind to mark), and a
     * record for each of {@code classes} (binary names of top-level classes checked for sessions).
     *
     * @return a warning to report, or null when the marker is there
     */
    static String write(Path sessionj, Set<String> classes) {
        if (sessionj == null) {
            return null;
        }
        Path marker = sessionj.resolve(NAME);
        try {
            if (!Files.isRegularFile(marker)) {
                Files.createDirectories(sessionj);
                Files.writeString(marker, TEXT, StandardCharsets.UTF_8);
            }
            if (!classes.isEmpty()) {
                Path records = sessionj.resolve(RECORDS.substring(RECORDS.indexOf("sessionj/") + "sessionj/".length()));
                Files.createDirectories(records);
                for (String name : classes) {
                    Path record = records.resolve(name);
                    if (!Files.isRegularFile(record)) {
                        Files.writeString(record, "", StandardCharsets.UTF_8);
                    }
                }
            }
            return null;
        } catch (IOException e) {
            return "sj-processor: cannot write " + marker + " (" + e.getMessage() + "): the runtime will warn that"
                    + " the classes of this output were compiled without sj-processor";
        }
    }
}
