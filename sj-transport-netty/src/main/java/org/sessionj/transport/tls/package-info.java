/**
 * The {@code tls} transport: the {@code tcp} transport's frames inside TLS, with
 * {@link org.sessionj.transport.tls.TlsConfig} for keys, trust, client authentication and hostname
 * verification, and {@link org.sessionj.transport.tls.Certificates} (Bouncy Castle) for development
 * certificates and PEM files.
 */
package org.sessionj.transport.tls;
