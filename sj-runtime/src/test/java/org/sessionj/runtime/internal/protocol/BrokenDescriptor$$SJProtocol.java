package org.sessionj.runtime.internal.protocol;

/** A descriptor class whose initialiser fails (as one compiled against a different sj-api might). */
final class BrokenDescriptor$$SJProtocol {
    static {
        if (Boolean.parseBoolean("true")) {
            throw new IllegalStateException("broken on purpose");
        }
    }

    private BrokenDescriptor$$SJProtocol() {
    }
}
