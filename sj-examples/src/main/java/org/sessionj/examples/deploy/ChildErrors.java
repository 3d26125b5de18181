package org.sessionj.examples.deploy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A child rank's standard error, copied line by line to ours with the rank in front, and its last
 * line kept for the failure message. The copy ends when the child closes the stream.
 */
final class ChildErrors {
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile String lastLine;

    private ChildErrors() {
    }

    /** Starts copying {@code child}'s standard error. */
    static ChildErrors forward(Process child, int rank) {
        ChildErrors errors = new ChildErrors();
        Thread.ofVirtual().name("rank-" + rank + "-stderr").start(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    System.err.println("[rank " + rank + "] " + line);
                    if (line.startsWith("sj: ") || errors.lastLine == null && !line.isBlank()) {
                        errors.lastLine = line;     // the command line's own message wins over stack traces
                    }
                }
            } catch (IOException e) {
                // the child is gone; what it wrote so far has been copied
            } finally {
                errors.drained.complete(null);
            }
        });
        return errors;
    }

    /** The child's last {@code sj:} message (else its first line), once the stream has ended. */
    Optional<String> lastLine() {
        drained.join();
        return Optional.ofNullable(lastLine);
    }
}
