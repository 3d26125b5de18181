{@(org.sessionj.runtime.internal.protocol.ProtocolRegistryTest$Body)}
