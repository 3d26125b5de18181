package org.sessionj.runtime.internal.protocol;

/** Named as a descriptor class, defines no descriptor. */
final class UndefinedDescriptor$$SJProtocol {
    private UndefinedDescriptor$$SJProtocol() {
    }
}
