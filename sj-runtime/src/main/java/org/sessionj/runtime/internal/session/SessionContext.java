package org.sessionj.runtime.internal.session;

import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.transport.TransportManager;

/**
 * What a session needs from the runtime that made it beyond its own knobs: the transports (to request
 * a received service, to reconnect to a delegated session's peer), the configuration and the
 * runtime's resumption endpoint (where a delegated session's peer waits for its new owner), and where
 * its sessions report what their callers do not see ({@link SessionEvents}).
 */
public record SessionContext(TransportManager transports, SJRuntimeConfig config, Resumptions resumptions,
        SessionEvents events) {

    /** A context with no listeners yet. */
    public SessionContext(TransportManager transports, SJRuntimeConfig config, Resumptions resumptions) {
        this(transports, config, resumptions, new SessionEvents());
    }

    /** The context of a runtime with {@code transports} and {@code config}. */
    public static SessionContext of(TransportManager transports, SJRuntimeConfig config) {
        return new SessionContext(transports, config, new Resumptions(transports, config));
    }
}
