package org.sessionj.runtime.internal.monitor;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import org.sessionj.runtime.internal.wire.RecordLayout;
import org.sessionj.runtime.internal.wire.SmileCodec;
import org.sessionj.runtime.internal.wire.TypeClasses;
import org.sessionj.runtime.internal.wire.WireKind;
import org.sessionj.types.Payload;

/**
 * A message type of a send or receive state, resolved once per protocol: its wire kind, its class
 * (for the monitor's instance checks) and how values travel: a flat record's layout, or the Jackson
 * reader and writer for other objects.
 */
public final class MessageType {
    private final Payload payload;
    private final WireKind kind;
    /** The boxed erased class; null for sessions. */
    private final Class<?> type;
    private final ObjectReader reader;
    private final ObjectWriter writer;
    /** For {@link WireKind#RECORD} and {@link WireKind#RECORD_ARRAY}: the record's layout. */
    private final RecordLayout layout;
    /** What a receiver decodes values of {@link #type} as (null for sessions). */
    private final Decoding decoding;
    /** How the parts of a value arrive ({@link ValueShape}): closed for every type but some objects'. */
    private final ValueShape shape;
    /** For sessions and services: the payload type compiled, and the loader its classes come from. */
    private final State sessionStart;
    private final ClassLoader loader;

    private MessageType(Payload payload, WireKind kind, Class<?> type, ObjectReader reader, ObjectWriter writer,
            ValueShape shape) {
        this(payload, kind, type, reader, writer, null, null, null, shape);
    }

    private MessageType(Payload payload, WireKind kind, Class<?> type, RecordLayout layout) {
        this(payload, kind, type, null, null, layout, null, null, null);
    }

    private MessageType(Payload payload, WireKind kind, Class<?> type, ObjectReader reader, ObjectWriter writer,
            RecordLayout layout, State sessionStart, ClassLoader loader, ValueShape shape) {
        this.shape = shape;
        this.layout = layout;
        this.sessionStart = sessionStart;
        this.loader = loader;
        this.payload = payload;
        this.kind = kind;
        this.type = type;
        this.reader = reader;
        this.writer = writer;
        this.decoding = type == null ? null : Decoding.of(type);
    }

    /** Resolves {@code payload}'s classes with {@code loader}. */
    static MessageType of(Payload payload, ClassLoader loader) throws ClassNotFoundException {
        if (!(payload instanceof Payload.JavaType java)) {
            org.sessionj.types.SessionType session = ((Payload.SessionPayload) payload).type();
            return new MessageType(payload, WireKind.SESSION, null, null, null, null,
                    StateMachine.compile(session, loader), loader, null);
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
            return new MessageType(payload, kind, type, null, null, null);
        }
        if (org.sessionj.types.internal.FlatRecords.flatShape(java.typeArguments().size(), java.arrayDimensions())) {
            RecordLayout layout = RecordLayout.of(java.arrayDimensions() == 0 ? type : type.componentType());
            if (layout != null) {
                return new MessageType(payload, java.arrayDimensions() == 0 ? WireKind.RECORD : WireKind.RECORD_ARRAY,
                        type, layout);
            }
        }
        var jackson = SmileCodec.jacksonType(java, loader);
        String problem = SmileCodec.decodingProblem(jackson);
        if (problem != null) {
            String opens = ModuleOpens.advice(type); // a named module's message class: name the line to add
            throw new org.sessionj.api.SJException("message type " + payload + " of the session type cannot be "
                    + "decoded by a receiver: " + (opens == null ? problem : opens + " (" + problem + ")"));
        }
        return new MessageType(payload, kind, type, SmileCodec.readerFor(jackson), SmileCodec.writerFor(jackson),
                ValueShape.of(jackson));
    }

    /** The declared payload. */
    public Payload payload() {
        return payload;
    }

    /** For a session or service payload: the first state of its type (after a {@code cbegin}). */
    public State sessionStart() {
        return sessionStart;
    }

    /** For a session or service payload: the loader of its message classes. */
    public ClassLoader loader() {
        return loader;
    }

    /** For a session or service payload: its session type. */
    public org.sessionj.types.SessionType sessionType() {
        return ((Payload.SessionPayload) payload).type();
    }

    /** Whether this payload is a service ({@code cbegin.…}) rather than a delegated session. */
    public boolean isService() {
        return payload instanceof Payload.SessionPayload session && session.isService();
    }

    public WireKind kind() {
        return kind;
    }

    /** Whether {@code value} may be sent as this type (erasure check; null only for reference types). */
    public boolean accepts(Object value) {
        if (value == null) {
            return !kind.isPrimitive() && kind != WireKind.SESSION;
        }
        if (kind == WireKind.SESSION) {
            return isService() ? value instanceof org.sessionj.api.SJService : value instanceof org.sessionj.api.SJSocket;
        }
        if (kind == WireKind.OBJECT && (value instanceof org.sessionj.api.SJSocket || value instanceof org.sessionj.api.SJService
                || value instanceof org.sessionj.api.SJServerSocket || value instanceof org.sessionj.api.SJSelector
                || value instanceof org.sessionj.api.SJScope)) {
            return false; // never a plain message (as a bean the peer would get an empty map)
        }
        return type != null && type.isInstance(value) && decoding.refusal(value) == null
                && (shape == null || shape.refusal(value) == null);
    }

    /**
     * Why {@code value}, an instance of the declared class, cannot be sent as this type (its receiver
     * would not decode it, or a part of it, as itself: {@link Decoding}, {@link ValueShape}), or null.
     */
    public String refusal(Object value) {
        if (value == null || decoding == null || !type.isInstance(value)) {
            return null;
        }
        String refusal = decoding.refusal(value);
        return refusal != null || shape == null ? refusal : shape.refusal(value);
    }

    /**
     * Whether {@code value} may be handed over by reference on a connection within one JVM ({@code pass}):
     * only where a receiver in another JVM would decode an object of its very class, so that the
     * program sees the same class on every transport; otherwise it is encoded, as {@code send} does.
     */
    public boolean keepsClass(Object value) {
        return value == null || decoding == null || decoding.keepsClass(value);
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

    /** The layout of a {@link WireKind#RECORD} or {@link WireKind#RECORD_ARRAY} type. */
    public RecordLayout layout() {
        return layout;
    }

    /** The declared type as written in SJ notation. */
    @Override
    public String toString() {
        return payload instanceof Payload.SessionPayload session
                ? org.sessionj.types.SessionTypes.print(session.type())
                : payload.toString();
    }
}
