package org.sessionj.processor.internal.facts;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes the processor's own files to the class output (protocol descriptors, their classes, the endings
 * of socket parameters). When the class output is a directory of the default file system (javac
 * {@code -d}, Maven, Gradle), straight with {@code java.nio.file}; otherwise (an in-memory file manager,
 * as in tests) through the {@link Filer}. Why not always the Filer: javac's Filer compares every file it
 * creates with every input of the compilation and every file created before it (to refuse reopening
 * one), a cost that grows with the square of the files written; with ~480 per compilation of the
 * 300-file compile-time benchmark it was a measured share of the processor's time (issue 12).
 * Invariant: <em>the same bytes at the same path either way</em>; like the Filer, a file written twice in
 * one compilation is the processor's mistake (the callers write each once).
 */
public final class OutputResources {
    /** A nested path of the class output, never written: where the Filer would put it says where the output is. */
    private static final String PROBE = "META-INF/sessionj/probe";

    private final Filer filer;
    /** The class output directory; null: written through the Filer. */
    private final Path root;
    /** The directories made so far (each is made once per compilation). */
    private final Set<Path> made = new HashSet<>();

    /** Files of the class output {@code filer} writes to. */
    public OutputResources(Filer filer) {
        this.filer = filer;
        this.root = outputDirectory(filer);
    }

    private static Path outputDirectory(Filer filer) {
        try {
            URI uri = filer.getResource(StandardLocation.CLASS_OUTPUT, "", PROBE).toUri();
            if (!"file".equals(uri.getScheme())) {
                return null;
            }
            // Only where the Filer puts a nested path under one root (javac without -d puts a resource beside
            // the current directory under its last name alone: the Filer, not a guess, decides there).
            Path probe = Path.of(uri);
            return probe.endsWith(Path.of(PROBE)) ? probe.getParent().getParent().getParent() : null;
        } catch (IOException | IllegalArgumentException | UnsupportedOperationException | IllegalStateException
                | java.nio.file.FileSystemNotFoundException e) {
            return null; // no class output directory, or javac's multi-module mode: the Filer says what it cannot do
        }
    }

    /**
     * Writes {@code bytes} to the file {@code relativeName} of package {@code packageName} ("" for a path
     * from the output's root) of the class output; {@code origin} is the element it is made from (for the Filer).
     *
     * @throws IOException when the file cannot be written
     */
    public void write(String packageName, String relativeName, byte[] bytes, Element origin) throws IOException {
        if (root == null) {
            FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, packageName, relativeName, origin);
            try (OutputStream out = file.openOutputStream()) {
                out.write(bytes);
            }
            return;
        }
        Path file = (packageName.isEmpty() ? root : root.resolve(packageName.replace('.', '/'))).resolve(relativeName);
        Path directory = file.getParent();
        if (made.add(directory)) {
            Files.createDirectories(directory);
        }
        Files.write(file, bytes);
    }

    /**
     * Removes the file {@code relativeName} (from the output's root) an earlier build left, when the class output
     * is a directory; through the Filer (which cannot remove a file) nothing is done: such an output is a fresh one.
     *
     * @throws IOException when the file is there and cannot be removed
     */
    public void delete(String relativeName) throws IOException {
        if (root != null) {
            Files.deleteIfExists(root.resolve(relativeName));
        }
    }
}
