package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.jsontype.PolymorphicTypeValidator;

/**
 * The codec's polymorphic type validator: it refuses every type id that is a class name. A message class's
 * own {@code @JsonTypeInfo(use = Id.CLASS)} (or {@code MINIMAL_CLASS}) would otherwise let the peer name any
 * class on this side's class path for the receiver to create and fill through its setters — the classic
 * Jackson deserialisation hole (adv15 A14; Jackson's default for annotation-based typing allows all but a
 * small deny-list). Invariant: <em>no class is ever looked up by a name from the wire</em>; sealed types
 * travel by name among their permitted subclasses ({@link SealedTypes}), and {@code Id.NAME} with
 * {@code @JsonSubTypes} names a closed list, neither of which consults this validator. A protocol whose
 * message type uses class-name ids is refused when it loads ({@link Decodability}, SJ018 in the processor).
 */
final class ClassNamesRefused extends PolymorphicTypeValidator.Base {
    private static final long serialVersionUID = 1L;

    /** Why a type that names classes on the wire is refused, for the load-time check's message. */
    static final String REASON = "it uses @JsonTypeInfo with class names as type ids (Id.CLASS or Id.MINIMAL_CLASS), "
            + "which would let a peer choose which class this side creates; use a sealed type (its permitted "
            + "classes travel by name), or Id.NAME with @JsonSubTypes";

    @Override
    public Validity validateBaseType(MapperConfig<?> config, JavaType baseType) {
        return Validity.DENIED;
    }

    @Override
    public Validity validateSubClassName(MapperConfig<?> config, JavaType baseType, String subClassName) {
        return Validity.DENIED;
    }

    @Override
    public Validity validateSubType(MapperConfig<?> config, JavaType baseType, JavaType subType) {
        return Validity.DENIED;
    }
}
