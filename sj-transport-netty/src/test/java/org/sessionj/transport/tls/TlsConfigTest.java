package org.sessionj.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsConfigTest {
    @TempDir
    Path dir;

    @Test
    void noPropertiesMeansNoKeyDefaultTrustAndHostnameVerification() throws IOException {
        TlsConfig config = TlsConfig.fromProperties(Map.<String, String>of()::get);
        assertThat(config.keyMaterial()).isEmpty();
        assertThat(config.trustedCertificates()).isEmpty();
        assertThat(config.clientAuth()).isEqualTo(TlsConfig.ClientAuth.NONE);
        assertThat(config.verifyHostname()).isTrue();
    }

    @Test
    void propertiesNameTheFilesAndModes() throws IOException {
        KeyMaterial server = Certificates.selfSigned("server", List.of());
        KeyMaterial other = Certificates.selfSigned("other", List.of());
        List<Path> files = Certificates.write(server, dir.resolve("server"));
        List<Path> otherFiles = Certificates.write(other, dir.resolve("other"));
        TlsConfig config = TlsConfig.fromProperties(Map.of(
                "sessionj.tls.cert", files.get(0).toString(),
                "sessionj.tls.key", files.get(1).toString(),
                "sessionj.tls.trust", files.get(0) + File.pathSeparator + otherFiles.get(0),
                "sessionj.tls.clientAuth", "Require",
                "sessionj.tls.verifyHostname", "false")::get);
        assertThat(config.keyMaterial().orElseThrow().certificate()).isEqualTo(server.certificate());
        assertThat(config.trustedCertificates()).containsExactly(server.certificate(), other.certificate());
        assertThat(config.clientAuth()).isEqualTo(TlsConfig.ClientAuth.REQUIRE);
        assertThat(config.verifyHostname()).isFalse();
    }

    @Test
    void aCertificateWithoutAKeyIsAnError() {
        assertThatThrownBy(() -> TlsConfig.fromProperties(Map.of("sessionj.tls.cert", "/x/cert.pem")::get))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("sessionj.tls.cert and sessionj.tls.key go together")
                .hasMessageContaining("sessionj.tls.cert=/x/cert.pem");
    }

    @Test
    void badModesAreNamed() {
        assertThatThrownBy(() -> TlsConfig.fromProperties(Map.of("sessionj.tls.clientAuth", "sometimes")::get))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("none, optional or require, found sometimes");
        assertThatThrownBy(() -> TlsConfig.fromProperties(Map.of("sessionj.tls.verifyHostname", "maybe")::get))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("true or false, found 'maybe'");
    }

    @Test
    void theDeprecatedSjNamesAreStillRead() throws IOException {
        TlsConfig config = TlsConfig.fromProperties(Map.of("sj.tls.clientAuth", "optional")::get);
        assertThat(config.clientAuth()).isEqualTo(TlsConfig.ClientAuth.OPTIONAL);
        TlsConfig both = TlsConfig.fromProperties(Map.of("sj.tls.clientAuth", "optional",
                "sessionj.tls.clientAuth", "require")::get);
        assertThat(both.clientAuth()).isEqualTo(TlsConfig.ClientAuth.REQUIRE);
    }

    @Test
    void aMissingFileIsAnError() {
        assertThatThrownBy(() -> TlsConfig.fromProperties(Map.of(
                "sessionj.tls.cert", dir.resolve("nope.pem").toString(),
                "sessionj.tls.key", dir.resolve("nope.key").toString())::get))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("nope");
    }
}
