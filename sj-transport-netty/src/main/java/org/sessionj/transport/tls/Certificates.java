package org.sessionj.transport.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Certificates and keys for the TLS transport: PEM files (certificate chains; private keys in PKCS#8
 * {@code PRIVATE KEY} or traditional {@code RSA/EC PRIVATE KEY} form, unencrypted) and self-signed
 * development certificates (EC P-256).
 *
 * <p>The JDK reads and writes certificates and PKCS#8 keys (and does TLS itself). Bouncy Castle
 * ({@code org.bouncycastle:bcpkix-jdk18on}) is an optional dependency, needed only to create
 * self-signed certificates and for keys in the traditional form; without it those calls fail with an
 * {@link IllegalStateException} or {@link IOException} that says what to add or how to convert the key.
 */
public final class Certificates {
    /** The algorithms a PKCS#8 key is tried with (the JDK's KeyFactory needs to be told). */
    private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "Ed25519", "Ed448", "RSASSA-PSS", "DSA");
    private static final String BOUNCY_CASTLE = "Bouncy Castle (org.bouncycastle:bcpkix-jdk18on, an optional"
            + " dependency of sj-transport-netty)";

    private Certificates() {
    }

    /** The subject alternative names of a development certificate for this machine. */
    public static List<String> localhostNames() {
        return List.of("localhost", "127.0.0.1", "::1");
    }

    /**
     * A new EC P-256 key and a self-signed certificate for it, valid for a year, usable by servers
     * and clients, with subject {@code CN=commonName} and the given subject alternative names (DNS
     * names or IP literals; hostname verification checks these).
     *
     * @throws IllegalStateException if Bouncy Castle is not on the class path
     */
    public static KeyMaterial selfSigned(String commonName, Collection<String> subjectAltNames) {
        requireBouncyCastle("creating a self-signed certificate");
        return BouncyCastleCertificates.selfSigned(commonName, subjectAltNames);
    }

    /** Whether Bouncy Castle (provider and PKIX) can be loaded. */
    public static boolean bouncyCastlePresent() {
        return Holder.PRESENT;
    }

    /** Reads every certificate in the PEM file {@code file}; fails if there is none. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        List<X509Certificate> certificates = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Pem.Block block : pem(file, "certificates")) {
                if (!block.label().equals("CERTIFICATE")) {
                    throw new IOException("expected only CERTIFICATE blocks in " + file + ", found "
                            + Pem.describe(block));
                }
                certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("bad certificate in " + file + ": " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IOException("expected a PEM CERTIFICATE block in " + file + ", found none");
        }
        return certificates;
    }

    /**
     * Reads the private key in the PEM file {@code file}: PKCS#8 ({@code PRIVATE KEY}) with the JDK,
     * or traditional ({@code RSA PRIVATE KEY}, {@code EC PRIVATE KEY}) with Bouncy Castle; encrypted
     * keys are refused.
     */
    public static PrivateKey readPrivateKey(Path file) throws IOException {
        Pem.Block key = null;
        for (Pem.Block block : pem(file, "a private key")) {
            if (!block.label().equals("EC PARAMETERS")) { // openssl ecparam -genkey writes the curve first
                key = block;
                break;
            }
        }
        if (key == null) {
            throw new IOException("expected a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block in " + file
                    + ", found none");
        }
        return switch (key.label()) {
            case "PRIVATE KEY" -> pkcs8(key.der(), file);
            case "ENCRYPTED PRIVATE KEY" -> throw encrypted(file);
            case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> {
                if (key.encryptedHeader()) {
                    throw encrypted(file);
                }
                if (!bouncyCastlePresent()) {
                    throw new IOException("the private key in " + file + " is in the traditional " + key.label()
                            + " form, which needs " + BOUNCY_CASTLE + "; convert it to PKCS#8 instead:"
                            + " openssl pkcs8 -topk8 -nocrypt -in " + file + " -out key-pkcs8.pem");
                }
                yield BouncyCastleCertificates.readPrivateKey(file);
            }
            default -> throw new IOException("expected a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block in "
                    + file + ", found " + Pem.describe(key));
        };
    }

    private static PrivateKey pkcs8(byte[] der, Path file) throws IOException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException | ClassCastException e) {
                // not this algorithm: try the next
            }
        }
        throw new IOException("the PRIVATE KEY in " + file + " is not an " + String.join(", ", KEY_ALGORITHMS)
                + " key the JDK can read");
    }

    private static IOException encrypted(Path file) {
        return new IOException("the private key in " + file
                + " is encrypted, which is not supported: decrypt it first (openssl pkcs8 -topk8 -nocrypt)");
    }

    private static List<Pem.Block> pem(Path file, String what) throws IOException {
        try {
            return Pem.read(file);
        } catch (IOException e) {
            throw e.getMessage() != null && e.getMessage().contains(file.toString())
                    ? e : new IOException("cannot read " + what + " from " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a key and its certificate chain from two PEM files. */
    public static KeyMaterial read(Path certificateChain, Path privateKey) throws IOException {
        return new KeyMaterial(readPrivateKey(privateKey), readCertificates(certificateChain));
    }

    /** The PEM text of {@code certificates}. */
    public static String toPem(List<X509Certificate> certificates) {
        StringBuilder text = new StringBuilder();
        for (X509Certificate certificate : certificates) {
            try {
                text.append(Pem.encode("CERTIFICATE", certificate.getEncoded()));
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("cannot encode the certificate of "
                        + certificate.getSubjectX500Principal() + ": " + e.getMessage(), e);
            }
        }
        return text.toString();
    }

    /**
     * The PEM text of {@code key}: PKCS#8 ({@code PRIVATE KEY}), or traditional if {@code traditional}
     * (which needs Bouncy Castle).
     *
     * @throws IllegalStateException if {@code traditional} and Bouncy Castle is not on the class path
     */
    public static String toPem(PrivateKey key, boolean traditional) {
        if (traditional) {
            requireBouncyCastle("writing a private key in the traditional form");
            return BouncyCastleCertificates.toPem(key, true);
        }
        return Pem.encode("PRIVATE KEY", key.getEncoded());
    }

    /**
     * Writes {@code material} as {@code cert.pem} (the chain) and {@code key.pem} (PKCS#8; readable
     * by the owner only where the file system has POSIX permissions) into {@code directory}.
     *
     * @return the two files, certificate first
     */
    public static List<Path> write(KeyMaterial material, Path directory) throws IOException {
        Files.createDirectories(directory);
        Path cert = directory.resolve("cert.pem");
        Path key = directory.resolve("key.pem");
        Files.writeString(cert, toPem(material.chain()), StandardCharsets.US_ASCII);
        Files.deleteIfExists(key);
        Files.createFile(key);
        try {
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the directory's permissions apply.
        }
        Files.writeString(key, toPem(material.privateKey(), false), StandardCharsets.US_ASCII);
        return List.of(cert, key);
    }

    private static void requireBouncyCastle(String what) {
        if (!bouncyCastlePresent()) {
            throw new IllegalStateException(what + " needs " + BOUNCY_CASTLE + ": add it to the class path, or"
                    + " make the certificate with openssl or keytool and configure it as PEM files");
        }
    }

    /** Looks Bouncy Castle up once, without loading any of its classes otherwise. */
    private static final class Holder {
        static final boolean PRESENT = loadable("org.bouncycastle.jce.provider.BouncyCastleProvider")
                && loadable("org.bouncycastle.openssl.PEMParser");

        private static boolean loadable(String name) {
            try {
                Class.forName(name, false, Certificates.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
    }
}
