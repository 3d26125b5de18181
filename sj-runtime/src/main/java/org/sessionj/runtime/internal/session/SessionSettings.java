package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.SJRuntimeConfig;

/**
 * The per-session knobs, read from the configuration once per session, and the runtime the session
 * belongs to ({@code context}; null only for sockets made outside a runtime, which can then neither
 * delegate nor receive sessions or services).
 */
record SessionSettings(boolean monitor, int batchBytes, long defaultTimeoutNanos, long sendTimeoutNanos,
        SessionContext context) {

    SessionSettings(boolean monitor, int batchBytes, long defaultTimeoutNanos) {
        this(monitor, batchBytes, defaultTimeoutNanos, -1, null);
    }

    static SessionSettings of(SessionContext context) {
        SJRuntimeConfig config = context.config();
        return new SessionSettings(config.monitor(), config.batchBytes(),
                config.defaultTimeout() == null ? -1 : config.defaultTimeout().toNanos(),
                config.sendTimeout() == null ? -1 : config.sendTimeout().toNanos(), context);
    }
}
