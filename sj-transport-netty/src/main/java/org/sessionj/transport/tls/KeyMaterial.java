package org.sessionj.transport.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A private key and its certificate chain (the end-entity certificate first).
 *
 * @param privateKey the key
 * @param chain the certificates, leaf first; never empty
 */
public record KeyMaterial(PrivateKey privateKey, List<X509Certificate> chain) {

    /** Checks that there is a key and at least one certificate. */
    public KeyMaterial {
        if (privateKey == null) {
            throw new IllegalArgumentException("key material needs a private key");
        }
        if (chain == null || chain.isEmpty()) {
            throw new IllegalArgumentException("key material needs at least one certificate");
        }
        chain = List.copyOf(chain);
    }

    /** The end-entity certificate. */
    public X509Certificate certificate() {
        return chain.get(0);
    }
}
