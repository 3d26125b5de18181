package org.sessionj.processor.internal.protocol;

import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;
import org.sessionj.types.internal.FlatRecords;

/**
 * The processor's view of a type for sj-api's {@link FlatRecords}, the one rule both sides read for which message
 * types travel as a flat record (field by field, not through Jackson): a record's component types, a type's
 * erased name, a component field's {@code @JsonProperty} access, read from the source as the runtime reads them
 * from the class file.
 */
final class FlatRecordMirrors implements FlatRecords.Model<TypeMirror> {
    private final Types types;

    FlatRecordMirrors(Types types) {
        this.types = types;
    }

    /**
     * Whether a payload {@code type} (as the protocol writes it: a class with its type arguments, an array of
     * one) travels as a flat record, so that no Jackson rule applies to it (the runtime never asks its codec).
     */
    static boolean travelsFlat(TypeMirror type, Types types) {
        int dimensions = 0;
        while (type instanceof ArrayType array) {
            type = array.getComponentType();
            dimensions++;
        }
        return type instanceof DeclaredType declared
                && FlatRecords.flatShape(declared.getTypeArguments().size(), dimensions)
                && FlatRecords.flat(type, new FlatRecordMirrors(types));
    }

    @Override
    public List<TypeMirror> components(TypeMirror type) {
        if (!(type instanceof DeclaredType declared) || !(declared.asElement() instanceof TypeElement element)
                || element.getKind() != ElementKind.RECORD) {
            return null;
        }
        List<TypeMirror> components = new ArrayList<>();
        for (RecordComponentElement component : element.getRecordComponents()) {
            components.add(component.asType());
        }
        return components;
    }

    @Override
    public String name(TypeMirror type) {
        if (type.getKind().isPrimitive()) {
            return type.getKind().name().toLowerCase(java.util.Locale.ROOT);
        }
        if (type instanceof ArrayType array) {
            return name(array.getComponentType()) + "[]";
        }
        if (type instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element) {
            return element.getQualifiedName().toString();
        }
        TypeMirror erased = types.erasure(type);
        return erased instanceof DeclaredType || erased instanceof ArrayType ? name(erased) : erased.toString();
    }

    @Override
    public String access(TypeMirror record, int index) {
        TypeElement element = (TypeElement) ((DeclaredType) record).asElement();
        String component = element.getRecordComponents().get(index).getSimpleName().toString();
        for (Element member : element.getEnclosedElements()) {
            if (member.getKind() == ElementKind.FIELD && member.getSimpleName().contentEquals(component)) {
                return MessageCreators.enumAttribute(member, "com.fasterxml.jackson.annotation.JsonProperty", "access");
            }
        }
        return null;
    }
}
