package org.sessionj.processor.check;

import javax.lang.model.element.TypeElement;

/**
 * Validates the {@code @Protocol} interfaces of a class and writes their descriptors, as annotation
 * processing does for the files of a processing round. {@link SessionChecker} asks it for the classes
 * javac compiles without processing them: files found only on the source path ({@code javac -sourcepath},
 * implicit compilation), whose protocols would otherwise go unreported and undescribed (the runtime would
 * find no descriptor).
 */
public interface ProtocolDeclarations {
    /** Validates {@code type} and its member types, at any depth, and writes the descriptors of the valid protocols. */
    void validateTypes(TypeElement type);
}
