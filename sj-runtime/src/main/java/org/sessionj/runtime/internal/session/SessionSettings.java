package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.SJRuntimeConfig;

/** The per-session knobs, read from the configuration once per session. */
record SessionSettings(boolean monitor, int batchBytes, long defaultTimeoutNanos) {

    static SessionSettings of(SJRuntimeConfig config) {
        return new SessionSettings(config.monitor(), config.batchBytes(),
                config.defaultTimeout() == null ? -1 : config.defaultTimeout().toNanos());
    }
}
