package org.sessionj.runtime.internal.protocol;

/** The descriptor class of {@link ClassDescribed}, as sj-processor generates one (these tests run without it). */
final class ClassDescribed$$SJProtocol {
    static {
        org.sessionj.api.spi.ProtocolDescriptors.define(java.lang.invoke.MethodHandles.lookup(),
                "cbegin.!<java.lang.", "String>\n");
    }

    private ClassDescribed$$SJProtocol() {
    }
}
