package org.sessionj.processor.internal.facts;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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

    /** The directory of the processor's facts in a class output or jar. */
    private static final String FACTS = "META-INF/sessionj/";

    private final Filer filer;
    private final Elements elements;
    /** Per jar read so far, its facts ({@link #jarFacts}). */
    private final Map<Path, Map<String, String>> jars = new HashMap<>();

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
        String beside = besideClassFile(owner, path);
        if (beside != null) {
            return beside;
        }
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

    /**
     * {@code path} from the class path entry or module javac read {@code owner}'s class file from (a jar, or a
     * directory), or null when it is not there or that origin is not a jar or directory of the default file system.
     * Why not the Filer alone: javac's file manager does not list a jar's directories that are not package names,
     * so {@code META-INF/...} of a <em>jar</em> on the class path is never found through it (a library module
     * built by {@code mvn package}, any jar of a repository): every fact of such a library was missed, and its
     * classes were taken as compiled without the processor. A jar's facts are read once, all of them
     * ({@value #FACTS}, a few small files), when a class of it is first asked about.
     */
    private String besideClassFile(Element owner, String path) {
        javax.lang.model.element.TypeElement top = topLevel(owner);
        if (top == null || jdk(top.getQualifiedName().toString())) {
            return null; // the JDK's (from ct.sym under --release, or jrt:): no facts, and no archive to scan
        }
        javax.tools.JavaFileObject file;
        try {
            file = top == null ? null : elements.getFileObjectOf(top);
        } catch (RuntimeException e) {
            return null; // not javac's elements, or no file: the Filer's way below
        }
        if (file == null || file.getKind() != javax.tools.JavaFileObject.Kind.CLASS) {
            return null;
        }
        String uri = file.toUri().toString();
        try {
            if (uri.startsWith("jar:") && uri.indexOf("!/") > 0) {
                Path jar = Path.of(java.net.URI.create(uri.substring("jar:".length(), uri.indexOf("!/"))));
                if (jar.getFileName() == null || jar.getFileName().toString().endsWith(".sym")) {
                    return null; // the JDK's ct.sym
                }
                Map<String, String> entries = jars.get(jar);
                if (entries == null) {
                    entries = jarFacts(jar);
                    jars.put(jar, entries);
                }
                return entries.get(path);
            }
            if (uri.startsWith("file:")) {
                // the directory the class's package tree starts in: up one level per name of the binary name
                Path root = Path.of(java.net.URI.create(uri));
                String binary = elements.getBinaryName(top).toString();
                for (int i = binary.indexOf('.'); i >= 0; i = binary.indexOf('.', i + 1)) {
                    root = root.getParent();
                }
                root = root == null ? null : root.getParent();
                Path fact = root == null ? null : root.resolve(path);
                return fact != null && Files.isRegularFile(fact) ? Files.readString(fact, StandardCharsets.UTF_8) : null;
            }
        } catch (IOException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException
                | UnsupportedOperationException e) {
            return null;
        }
        return null;
    }

    /** The text of every entry under {@value #FACTS} of {@code jar}, by name (none when it cannot be read). */
    private static Map<String, String> jarFacts(Path jar) {
        Map<String, String> found = new HashMap<>();
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            java.util.Enumeration<? extends java.util.zip.ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                java.util.zip.ZipEntry entry = entries.nextElement();
                if (!entry.isDirectory() && entry.getName().startsWith(FACTS)) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        found.put(entry.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    }
                }
            }
        } catch (IOException e) {
            return found;
        }
        return found;
    }

    /** Whether {@code name} is a class of the JDK's own packages. */
    private static boolean jdk(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }

    /** The top-level class {@code element} is in, or null. */
    private static javax.lang.model.element.TypeElement topLevel(Element element) {
        Element at = element;
        javax.lang.model.element.TypeElement top = null;
        while (at != null && !(at instanceof javax.lang.model.element.PackageElement)
                && !(at instanceof ModuleElement)) {
            if (at instanceof javax.lang.model.element.TypeElement type) {
                top = type;
            }
            at = at.getEnclosingElement();
        }
        return top;
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
