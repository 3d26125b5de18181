package org.sessionj.processor.internal.facts;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.StandardLocation;

/**
 * Reads what the processor recorded about a class in that class's own compilation (its protocol
 * descriptor, which socket parameters its methods end, its fields), from wherever the class itself
 * comes from: the class path, or the module path when the class is in a named module there (a library
 * with {@code module-info.java}, adv13 A1). Invariant: <em>a fact is found exactly where javac found the
 * class</em> — a library moved from the class path to the module path keeps every fact, so no
 * check quietly weakens, and a stale copy of a module's package on the class path does not hide the
 * module's own (adv15 A13).
 */
public final class CompiledFacts {
    private static final JavaFileManager.Location[] MODULE_LOCATIONS = {
        StandardLocation.MODULE_PATH, StandardLocation.UPGRADE_MODULE_PATH, StandardLocation.PATCH_MODULE_PATH,
    };

    private final Filer filer;
    private final Elements elements;

    /** Facts read through {@code filer}, with {@code elements} finding each class's module. */
    public CompiledFacts(Filer filer, Elements elements) {
        this.filer = filer;
        this.elements = elements;
    }

    /**
     * The text of {@code path} (relative to a class path entry or a module's root, e.g.
     * {@code META-INF/sessionj/ends/com.lib.Helpers.txt}) recorded with {@code owner}'s class, or null if
     * there is none: the class was compiled without the processor, or recorded nothing.
     */
    public String read(Element owner, String path) {
        ModuleElement module = owner == null ? null : elements.getModuleOf(owner);
        if (module == null || module.isUnnamed()) {
            return read(StandardLocation.CLASS_PATH, "", path);
        }
        // A class of a named module: its module's own location first. A copy of the same package on the class
        // path (an older jar of the library) is not where javac found the class (adv15 A13); it is read only
        // when the module has none (a layout where the module's earlier output is on the class path).
        for (JavaFileManager.Location location : MODULE_LOCATIONS) {
            String text = read(location, module.getQualifiedName() + "/", path);
            if (text != null) {
                return text;
            }
        }
        return read(StandardLocation.CLASS_PATH, "", path);
    }

    /** Where {@link #read} looks for {@code owner}'s facts, for messages: the class path, or its module. */
    public String where(Element owner) {
        ModuleElement module = owner == null ? null : elements.getModuleOf(owner);
        return module == null || module.isUnnamed() ? "the class path"
                : "module " + module.getQualifiedName() + " on the module path or the class path";
    }

    private String read(JavaFileManager.Location location, String moduleAndPackage, String path) {
        try {
            FileObject resource = filer.getResource(location, moduleAndPackage, path);
            try (InputStream in = resource.openInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException | IllegalArgumentException | IllegalStateException | UnsupportedOperationException
                | NullPointerException e) {
            // Not there (javac says so with an exception), or a location this compilation lacks; javac's Filer
            // throws NullPointerException for a module the location does not hold (one compiled from source now).
            return null;
        }
    }
}
