package org.sessionj.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sj tls keygen}: development certificates for the {@code tls} transport. */
@Command(name = "tls",
        mixinStandardHelpOptions = true,
        description = "Certificates for the tls transport.",
        subcommands = TlsCommand.Keygen.class)
final class TlsCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    /** Writes a self-signed certificate and its key. */
    @Command(name = "keygen",
            mixinStandardHelpOptions = true,
            description = {
                "Write a self-signed development certificate (cert.pem) and its private key (key.pem,"
                        + " PKCS#8, readable by the owner only): EC P-256, valid for a year, for servers and clients.",
                "Use them with -Dsessionj.tls.cert=DIR/cert.pem -Dsessionj.tls.key=DIR/key.pem, and trust the certificate"
                        + " on the other side with -Dsessionj.tls.trust=DIR/cert.pem."
            })
    static final class Keygen implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--cn", required = true, paramLabel = "NAME",
                description = "The certificate's common name (its subject, which the peer sees as the principal).")
        String commonName;

        @Option(names = "--out", required = true, paramLabel = "DIR",
                description = "The directory to write cert.pem and key.pem into (created if missing).")
        Path out;

        @Option(names = "--san", split = ",", paramLabel = "NAME",
                description = "A host name or IP address the certificate is valid for (hostname verification"
                        + " checks these). Repeatable or comma-separated. Default: the common name, localhost,"
                        + " 127.0.0.1 and ::1.")
        List<String> subjectAltNames = new ArrayList<>();

        @Option(names = "--force", description = "Overwrite existing cert.pem and key.pem.")
        boolean force;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            Path cert = out.resolve("cert.pem");
            Path key = out.resolve("key.pem");
            for (Path file : List.of(cert, key)) {
                if (Files.exists(file) && !force) {
                    err.println("error: " + file + " already exists (use --force to overwrite it)");
                    return 1;
                }
            }
            Set<String> names = new LinkedHashSet<>(subjectAltNames);
            if (names.isEmpty()) {
                names.add(commonName);
                names.addAll(Certificates.localhostNames());
            }
            try {
                KeyMaterial material = Certificates.selfSigned(commonName, names);
                Certificates.write(material, out);
            } catch (IllegalArgumentException | IOException e) {
                err.println("error: " + e.getMessage());
                return 1;
            }
            PrintWriter stdout = spec.commandLine().getOut();
            stdout.println("wrote " + cert + " (CN=" + commonName + ", for " + String.join(", ", names) + ")");
            stdout.println("wrote " + key);
            stdout.println("use: -Dsessionj.tls.cert=" + cert + " -Dsessionj.tls.key=" + key + " -Dsessionj.tls.trust=" + cert);
            stdout.flush();
            return 0;
        }
    }
}
