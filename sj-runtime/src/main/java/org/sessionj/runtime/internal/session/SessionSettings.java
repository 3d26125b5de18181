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

    /**
     * The settings of the last context asked for: every session of a runtime shares one instance
     * (the configuration does not change), instead of 40 bytes per socket.
     */
    private static volatile SessionSettings last;

    static SessionSettings of(SessionContext context) {
        SessionSettings cached = last;
        if (cached != null && cached.context == context) {
            return cached;
        }
        SJRuntimeConfig config = context.config();
        return last = new SessionSettings(config.monitor(), config.batchBytes(),
                config.defaultTimeout() == null ? -1 : config.defaultTimeout().toNanos(),
                config.sendTimeout() == null ? -1 : config.sendTimeout().toNanos(), context);
    }
}
