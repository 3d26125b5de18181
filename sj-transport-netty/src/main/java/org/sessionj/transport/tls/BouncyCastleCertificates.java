package org.sessionj.transport.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * What {@link Certificates} needs Bouncy Castle for, which the JDK cannot do: creating self-signed
 * certificates, and reading and writing private keys in the traditional {@code RSA/EC PRIVATE KEY}
 * form. Bouncy Castle is an optional dependency of sj-transport-netty; this class is loaded only when
 * {@link Certificates} has checked that it is on the class path.
 */
final class BouncyCastleCertificates {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Duration VALIDITY = Duration.ofDays(365);
    /** Used only where the JDK's providers fall short; never installed JVM-wide. */
    private static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();

    private BouncyCastleCertificates() {
    }

    /**
     * A new EC P-256 key and a self-signed certificate for it, valid for a year, usable by servers
     * and clients, with subject {@code CN=commonName} and the given subject alternative names (DNS
     * names or IP literals; hostname verification checks these).
     */
    static KeyMaterial selfSigned(String commonName, Collection<String> subjectAltNames) {
        if (commonName == null || commonName.isBlank()) {
            throw new IllegalArgumentException("a certificate needs a common name (CN), found none");
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    subject,
                    new BigInteger(64, new SecureRandom()).abs().add(BigInteger.ONE),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(VALIDITY)),
                    subject,
                    keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                    new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            if (!subjectAltNames.isEmpty()) {
                List<GeneralName> names = new ArrayList<>();
                for (String name : subjectAltNames) {
                    names.add(generalName(name));
                }
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(GeneralName[]::new)));
            }
            X509CertificateHolder holder =
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()));
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(holder);
            return new KeyMaterial(keys.getPrivate(), List.of(certificate));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot create a self-signed certificate for " + commonName, e);
        }
    }

    private static GeneralName generalName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a subject alternative name must not be blank");
        }
        if (IPV4.matcher(name).matches()) {
            for (String octet : name.split("\\.")) {
                if (Integer.parseInt(octet) > 255) {
                    throw new IllegalArgumentException("subject alternative name " + name
                            + " looks like an IPv4 address but " + octet + " is not an octet (0..255)");
                }
            }
            return new GeneralName(GeneralName.iPAddress, name);
        }
        if (name.contains(":")) {
            try {
                // With a colon it can only be an IPv6 literal, which getByName parses without a lookup.
                InetAddress.getByName(name);
            } catch (IOException e) {
                throw new IllegalArgumentException("subject alternative name " + name
                        + " looks like an IPv6 address but is not one", e);
            }
            return new GeneralName(GeneralName.iPAddress, name);
        }
        return new GeneralName(GeneralName.dNSName, name);
    }

    /**
     * Reads the private key in the PEM file {@code file}: PKCS#8 ({@code PRIVATE KEY}) or
     * traditional ({@code RSA PRIVATE KEY}, {@code EC PRIVATE KEY}); encrypted keys are refused.
     */
    static PrivateKey readPrivateKey(Path file) throws IOException {
        Object object;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            object = parser.readObject();
            // openssl ecparam -genkey writes the curve (EC PARAMETERS) before the key.
            while (object instanceof ASN1ObjectIdentifier) {
                object = parser.readObject();
            }
        } catch (IOException e) {
            throw new IOException("cannot read a private key from " + file + ": " + e.getMessage(), e);
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        return switch (object) {
            case PrivateKeyInfo info -> converter.getPrivateKey(info);
            case PEMKeyPair pair -> converter.getPrivateKey(pair.getPrivateKeyInfo());
            case PEMEncryptedKeyPair e -> throw encrypted(file);
            case PKCS8EncryptedPrivateKeyInfo e -> throw encrypted(file);
            case null -> throw new IOException("expected a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block in "
                    + file + ", found none");
            default -> throw new IOException("expected a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block in "
                    + file + ", found " + describe(object));
        };
    }

    static IOException encrypted(Path file) {
        return new IOException("the private key in " + file
                + " is encrypted, which is not supported: decrypt it first (openssl pkcs8 -topk8 -nocrypt)");
    }

    private static String describe(Object pemObject) {
        return switch (pemObject) {
            case X509CertificateHolder h -> "a CERTIFICATE";
            case PrivateKeyInfo i -> "a PRIVATE KEY";
            case PEMKeyPair p -> "a traditional private key";
            default -> pemObject.getClass().getSimpleName();
        };
    }

    /** The PEM text of {@code key}: PKCS#8 ({@code PRIVATE KEY}), or traditional if {@code traditional}. */
    static String toPem(PrivateKey key, boolean traditional) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            if (traditional) {
                // The JDK encodes EC curve parameters only outside the EC key structure, which the
                // traditional form drops; Bouncy Castle's encoding keeps them inside, as openssl does.
                writer.writeObject(KeyFactory.getInstance(key.getAlgorithm(), BOUNCY_CASTLE)
                        .generatePrivate(new PKCS8EncodedKeySpec(key.getEncoded())));
            } else {
                writer.writeObject(new JcaPKCS8Generator(key, null));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot encode a " + key.getAlgorithm() + " key in traditional form", e);
        }
        return text.toString();
    }

}
