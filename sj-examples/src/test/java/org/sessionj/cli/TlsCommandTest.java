package org.sessionj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sessionj.transport.tls.Certificates;
import org.sessionj.transport.tls.KeyMaterial;
import picocli.CommandLine;

class TlsCommandTest {
    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    static Run tls(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TlsCommand());
        cli.setOut(new PrintWriter(new BufferedWriter(out)));
        cli.setErr(new PrintWriter(new BufferedWriter(err)));
        int status = cli.execute(args);
        cli.getOut().flush();
        cli.getErr().flush();
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void keygenWritesAPairThatReadsBack() throws Exception {
        Path out = dir.resolve("keys");
        Run run = tls("keygen", "--cn", "node-1", "--out", out.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("wrote " + out.resolve("cert.pem") + " (CN=node-1, for node-1, localhost, 127.0.0.1, ::1)")
                .contains("-Dsessionj.tls.key=" + out.resolve("key.pem"));
        KeyMaterial read = Certificates.read(out.resolve("cert.pem"), out.resolve("key.pem"));
        X509Certificate cert = read.certificate();
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=node-1");
        assertThat(cert.getSubjectAlternativeNames().stream().map(n -> (Object) n.get(1)).toList())
                .containsExactly("node-1", "localhost", "127.0.0.1", "0:0:0:0:0:0:0:1");
    }

    @Test
    void explicitAlternativeNamesReplaceTheDefaults() throws Exception {
        Run run = tls("keygen", "--cn", "db", "--out", dir.toString(), "--san", "db.cluster,10.1.2.3", "--san", "db");
        assertThat(run.status()).as(run.err()).isZero();
        X509Certificate cert = Certificates.readCertificates(dir.resolve("cert.pem")).get(0);
        assertThat(cert.getSubjectAlternativeNames().stream().map(n -> (Object) n.get(1)).toList())
                .containsExactly("db.cluster", "10.1.2.3", "db");
    }

    @Test
    void existingFilesAreKeptUnlessForced() throws Exception {
        Files.writeString(dir.resolve("key.pem"), "precious");
        Run refused = tls("keygen", "--cn", "x", "--out", dir.toString());
        assertThat(refused.status()).isEqualTo(1);
        assertThat(refused.err()).contains("key.pem already exists (use --force");
        assertThat(Files.readString(dir.resolve("key.pem"))).isEqualTo("precious");
        Run forced = tls("keygen", "--cn", "x", "--out", dir.toString(), "--force");
        assertThat(forced.status()).as(forced.err()).isZero();
        assertThat(Certificates.readPrivateKey(dir.resolve("key.pem"))).isNotNull();
    }

    @Test
    void aBadAlternativeNameIsReported() {
        Run run = tls("keygen", "--cn", "x", "--out", dir.toString(), "--san", "10.0.0.300");
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("10.0.0.300 looks like an IPv4 address but 300 is not an octet");
        assertThat(dir.resolve("cert.pem")).doesNotExist();
    }

    @Test
    void missingOptionsAreUsageErrors() {
        Run run = tls("keygen", "--out", dir.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required option: '--cn=NAME'");
        assertThat(tls().status()).isEqualTo(2);
        assertThat(List.of(dir.toFile().list())).isEmpty();
    }
}
