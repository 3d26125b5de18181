package org.sessionj.examples.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * Runtimes for the parties of the distributed examples (chat, portal). Every party reaches session
 * ports over TCP; what differs is the transport its sessions may run on: {@code tcp}, or {@code tls}
 * when it demands encryption. TLS needs key material, which the tls transport reads from the
 * {@code sessionj.tls.*} system properties when it is first used ({@link #useTls(Path)} sets them).
 */
public final class PartyRuntimes {
    private PartyRuntimes() {
    }

    /**
     * Configures this JVM's tls transport from {@code dir}, as written by {@code ./sj tls keygen}: its
     * {@code cert.pem} and {@code key.pem} are this party's certificate and key, and {@code cert.pem}
     * is also the certificate it trusts (a development set-up where every party shares one key pair).
     *
     * @throws IllegalArgumentException naming the missing file
     */
    public static void useTls(Path dir) {
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        for (Path file : List.of(cert, key)) {
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException("no readable " + file + " (write one with ./sj tls keygen --cn NAME --out "
                        + dir + ")");
            }
        }
        System.setProperty("sessionj.tls.cert", cert.toString());
        System.setProperty("sessionj.tls.key", key.toString());
        System.setProperty("sessionj.tls.trust", cert.toString());
    }

    /**
     * A runtime whose sessions are set up over TCP and run on {@code transport} ({@code tcp} or
     * {@code tls}); with {@code tcp}, TLS is accepted too when {@code alsoTls} (for peers that demand it).
     * Every message is flushed as it is sent ({@code batchBytes(1)}): the examples' event streams send
     * while they wait for their user, not for a session input, and a batching runtime flushes only when
     * a session enters an input, ends, or fills a batch.
     */
    public static SJRuntime create(String transport, boolean alsoTls) {
        List<String> session = new ArrayList<>();
        switch (transport) {
            case "tcp" -> {
                session.add("tcp");
                if (alsoTls) {
                    session.add("tls");
                }
            }
            case "tls" -> session.add("tls");
            default -> throw new IllegalArgumentException("transport must be tcp or tls, got '" + transport + "'");
        }
        return SJRuntime.create(SJRuntimeConfig.builder().setupTransports("tcp")
                .sessionTransports(session.toArray(String[]::new)).batchBytes(1).build());
    }
}
