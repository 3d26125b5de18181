package org.sessionj.examples.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sessionj.transport.tls.Certificates;

/** One development key pair for every party of a test JVM (the tls transport reads it on first use). */
public final class TestTls {
    private static Path dir;

    private TestTls() {
    }

    /** Writes the key pair once and points the sessionj.tls.* properties at it. */
    public static synchronized Path configure() {
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("sj-examples-tls");
                dir.toFile().deleteOnExit();
                for (Path file : Certificates.write(Certificates.selfSigned("localhost", Certificates.localhostNames()), dir)) {
                    file.toFile().deleteOnExit();
                }
            }
            PartyRuntimes.useTls(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
