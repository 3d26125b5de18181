package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bouncy Castle is optional: with this module's classes loaded where Bouncy Castle (and everything
 * else) is missing, PEM certificates and PKCS#8 keys still read with the JDK, and what needs Bouncy
 * Castle fails with a message naming the artifact or the openssl conversion, never NoClassDefFoundError.
 */
class WithoutBouncyCastleTest {
    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void pemFilesReadWithTheJdkAndTheRestSaysWhatToAdd() throws Exception {
        KeyMaterial material = Certificates.selfSigned("localhost", Certificates.localhostNames());
        List<Path> files = Certificates.write(material, dir);
        Path traditional = Files.writeString(dir.resolve("ec.pem"), Certificates.toPem(material.privateKey(), true));

        URL classes = Certificates.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader isolated = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> certificates = isolated.loadClass(Certificates.class.getName());
            assertThat(certificates).isNotSameAs(Certificates.class);
            assertThat(certificates.getMethod("bouncyCastlePresent").invoke(null)).isEqualTo(false);

            Object read = certificates.getMethod("read", Path.class, Path.class).invoke(null, files.get(0), files.get(1));
            PrivateKey key = (PrivateKey) read.getClass().getMethod("privateKey").invoke(read);
            assertThat(key.getEncoded()).isEqualTo(material.privateKey().getEncoded());
            List<Object> chain = (List<Object>) read.getClass().getMethod("chain").invoke(read);
            assertThat(chain).containsExactlyElementsOf(List.copyOf(material.chain()));

            Throwable traditionalKey = failure(certificates.getMethod("readPrivateKey", Path.class), traditional);
            assertThat(traditionalKey).isInstanceOf(java.io.IOException.class);
            assertThat(traditionalKey.getMessage()).contains("EC PRIVATE KEY").contains("bcpkix-jdk18on")
                    .contains("openssl pkcs8 -topk8 -nocrypt -in " + traditional);

            Throwable selfSigned = failure(certificates.getMethod("selfSigned", String.class, Collection.class),
                    "host", List.of());
            assertThat(selfSigned).isInstanceOf(IllegalStateException.class);
            assertThat(selfSigned.getMessage()).startsWith("creating a self-signed certificate needs Bouncy Castle")
                    .contains("org.bouncycastle:bcpkix-jdk18on");
        }
    }

    private static Throwable failure(Method method, Object... arguments) throws IllegalAccessException {
        try {
            method.invoke(null, arguments);
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
        throw new AssertionError(method.getName() + " should have failed");
    }
}
