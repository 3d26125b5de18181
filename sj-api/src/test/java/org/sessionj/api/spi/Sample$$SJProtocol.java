package org.sessionj.api.spi;

import java.lang.invoke.MethodHandles;

/** A descriptor class as sj-processor generates one (tests), with its lookup kept to try a reduced one. */
final class Sample$$SJProtocol {
    static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    static {
        ProtocolDescriptors.define(MethodHandles.lookup(), "cbegin.", "!<java.lang.", "String>");
    }

    private Sample$$SJProtocol() {
    }
}
