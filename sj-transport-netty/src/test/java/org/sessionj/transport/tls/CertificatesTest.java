package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificatesTest {
    @TempDir
    Path dir;

    @Test
    void aSelfSignedCertificateNamesItsSubjectAndAlternativeNames() throws Exception {
        KeyMaterial key = Certificates.selfSigned("node-1", List.of("node-1.cluster", "10.0.0.7", "::1"));
        X509Certificate cert = key.certificate();
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=node-1");
        assertThat(cert.getIssuerX500Principal()).isEqualTo(cert.getSubjectX500Principal());
        cert.verify(cert.getPublicKey());
        cert.checkValidity();
        assertThat(cert.getSubjectAlternativeNames().stream().map(n -> (Object) n.get(1)).toList())
                .containsExactly("node-1.cluster", "10.0.0.7", "0:0:0:0:0:0:0:1");
        assertThat(cert.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(key.privateKey().getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void aBlankCommonNameIsRefused() {
        assertThatThrownBy(() -> Certificates.selfSigned(" ", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("common name");
    }

    @Test
    void writtenFilesReadBackToTheSameKeyAndCertificate() throws IOException {
        KeyMaterial key = Certificates.selfSigned("localhost", Certificates.localhostNames());
        List<Path> files = Certificates.write(key, dir);
        assertThat(files).containsExactly(dir.resolve("cert.pem"), dir.resolve("key.pem"));
        assertThat(Files.readString(files.get(1))).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(1)))).isEqualTo("rw-------");
        KeyMaterial read = Certificates.read(files.get(0), files.get(1));
        assertThat(read.certificate()).isEqualTo(key.certificate());
        assertThat(read.privateKey().getEncoded()).isEqualTo(key.privateKey().getEncoded());
    }

    @Test
    void traditionalEcAndRsaKeysAreRead() throws Exception {
        KeyMaterial ec = Certificates.selfSigned("ec", List.of());
        Path ecFile = Files.writeString(dir.resolve("ec.pem"), Certificates.toPem(ec.privateKey(), true));
        assertThat(Files.readString(ecFile)).startsWith("-----BEGIN EC PRIVATE KEY-----");
        PrivateKey readEc = Certificates.readPrivateKey(ecFile);
        assertThat(((ECPrivateKey) readEc).getS()).isEqualTo(((ECPrivateKey) ec.privateKey()).getS());
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(readEc);
        signer.update(new byte[] {1, 2, 3});
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(ec.certificate());
        verifier.update(new byte[] {1, 2, 3});
        assertThat(verifier.verify(signature)).as("the key read back signs for the certificate").isTrue();

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair rsa = generator.generateKeyPair();
        Path rsaFile = Files.writeString(dir.resolve("rsa.pem"), Certificates.toPem(rsa.getPrivate(), true));
        assertThat(Files.readString(rsaFile)).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(Certificates.readPrivateKey(rsaFile).getEncoded()).isEqualTo(rsa.getPrivate().getEncoded());
        Path rsaPkcs8 = Files.writeString(dir.resolve("rsa8.pem"), Certificates.toPem(rsa.getPrivate(), false));
        assertThat(Certificates.readPrivateKey(rsaPkcs8).getEncoded()).isEqualTo(rsa.getPrivate().getEncoded());
    }

    @Test
    void aCertificateChainKeepsItsOrder() throws IOException {
        X509Certificate first = Certificates.selfSigned("first", List.of()).certificate();
        X509Certificate second = Certificates.selfSigned("second", List.of()).certificate();
        Path file = Files.writeString(dir.resolve("chain.pem"), Certificates.toPem(List.of(first, second)));
        assertThat(Certificates.readCertificates(file)).containsExactly(first, second);
    }

    @Test
    void anEncryptedKeyIsRefusedWithAHint() throws Exception {
        KeyMaterial key = Certificates.selfSigned("secret", List.of());
        Path file = dir.resolve("encrypted.pem");
        try (JcaPEMWriter writer = new JcaPEMWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            writer.writeObject(new JcaPKCS8Generator(key.privateKey(),
                    new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                            .setProvider(new BouncyCastleProvider()).setPassword("pw".toCharArray()).build()));
        }
        assertThatThrownBy(() -> Certificates.readPrivateKey(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is encrypted")
                .hasMessageContaining(file.toString());
    }

    @Test
    void theWrongKindOfPemBlockIsNamed() throws IOException {
        KeyMaterial key = Certificates.selfSigned("mixed", List.of());
        Path cert = Files.writeString(dir.resolve("cert.pem"), Certificates.toPem(key.chain()));
        Path keyFile = Files.writeString(dir.resolve("key.pem"), Certificates.toPem(key.privateKey(), false));
        assertThatThrownBy(() -> Certificates.readPrivateKey(cert))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("expected a PEM PRIVATE KEY")
                .hasMessageContaining("found a CERTIFICATE");
        assertThatThrownBy(() -> Certificates.readCertificates(keyFile))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("expected only CERTIFICATE blocks")
                .hasMessageContaining("found a PRIVATE KEY");
        Path empty = Files.writeString(dir.resolve("empty.pem"), "not pem at all\n");
        assertThatThrownBy(() -> Certificates.readCertificates(empty))
                .isInstanceOf(IOException.class).hasMessageContaining("found none");
        assertThatThrownBy(() -> Certificates.readPrivateKey(empty))
                .isInstanceOf(IOException.class).hasMessageContaining("found none");
    }

    @Test
    void textAroundPemBlocksIsIgnoredAsOpensslDoes() throws IOException {
        KeyMaterial key = Certificates.selfSigned("bag", List.of());
        Path file = Files.writeString(dir.resolve("bag.pem"), "Bag Attributes\n    friendlyName: bag\n"
                + Certificates.toPem(key.chain()) + "trailing words\n");
        assertThat(Certificates.readCertificates(file)).containsExactlyElementsOf(key.chain());
        Path truncated = Files.writeString(dir.resolve("truncated.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n");
        assertThatThrownBy(() -> Certificates.readCertificates(truncated)).isInstanceOf(IOException.class)
                .hasMessageContaining("has no END line").hasMessageContaining(truncated.toString());
    }
}
