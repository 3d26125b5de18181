package org.sessionj.runtime.internal.monitor;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import org.sessionj.runtime.internal.wire.SmileCodec;
import org.sessionj.runtime.internal.wire.TypeClasses;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.types.Payload;

/**
 * A message type of a send or receive state, resolved once per protocol: its wire kind, its class
 * (for the monitor's instance checks) and, for other objects, the Jackson reader and writer.
 */
public final class MessageType {
    private final Payload payload;
    private final WireKind kind;
    /** The boxed erased class; null for sessions. */
    private final Class<?> type;
    private final ObjectReader reader;
    private final ObjectWriter writer;

    private MessageType(Payload payload, WireKind kind, Class<?> type, ObjectReader reader, ObjectWriter writer) {
        this.payload = payload;
        this.kind = kind;
        this.type = type;
        this.reader = reader;
        this.writer = writer;
    }

    /** Resolves {@code payload}'s classes with {@code loader}. */
    static MessageType of(Payload payload, ClassLoader loader) throws ClassNotFoundException {
        if (!(payload instanceof Payload.JavaType java)) {
            return new MessageType(payload, WireKind.SESSION, null, null, null);
        }
        WireKind kind;
        if (java.isPrimitive()) {
            kind = WireKind.primitive(java.name());
        } else if (java.arrayDimensions() == 1 && java.typeArguments().isEmpty()
                && WireKind.primitive(java.name()) != null) {
            kind = WireKind.arrayOf(java.name());
        } else if (java.arrayDimensions() == 0 && java.name().equals("java.lang.String")) {
            kind = WireKind.STRING;
        } else {
            kind = WireKind.OBJECT;
        }
        Class<?> type = TypeClasses.boxed(TypeClasses.load(java, loader));
        if (kind != WireKind.OBJECT) {
            return new MessageType(payload, kind, type, null, null);
        }
        var jackson = SmileCodec.jacksonType(java, loader);
        return new MessageType(payload, kind, type, SmileCodec.readerFor(jackson), SmileCodec.writerFor(jackson));
    }

    public WireKind kind() {
        return kind;
    }

    /** Whether {@code value} may be sent as this type (erasure check; null only for reference types). */
    public boolean accepts(Object value) {
        if (value == null) {
            return !kind.isPrimitive();
        }
        return type != null && type.isInstance(value);
    }

    /** The boxed erased class of the message type. */
    public Class<?> type() {
        return type;
    }

    public ObjectReader reader() {
        return reader;
    }

    public ObjectWriter writer() {
        return writer;
    }

    /** The declared type as written in SJ notation. */
    @Override
    public String toString() {
        return payload instanceof Payload.SessionPayload session
                ? org.sessionj.types.SessionTypes.print(session.type())
                : payload.toString();
    }
}
