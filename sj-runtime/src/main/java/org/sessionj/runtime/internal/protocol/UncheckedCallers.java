package org.sessionj.runtime.internal.protocol;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.JarFile;

/**
 * Tells the user when a class compiled without sj-processor opens sessions of a protocol that was
 * compiled with it (adv15 A25). The protocol's descriptor shows that the <em>protocol</em> was processed,
 * not that the code using it was: the usual cause is an application module whose pom misses
 * {@code annotationProcessorPaths}, built against protocols from a library that has them (or Kotlin,
 * Groovy or Scala code calling Java-declared protocols). sj-processor marks each class output it checked
 * ({@value #MARKER}) and records each class it checked for sessions ({@value #RECORDS}); the class that
 * calls {@code SJService.create} or {@code SJServerSocket.create}, or starts a session ({@code request()},
 * {@code accept()}: adv17 A6, a service a checked factory or field handed to unchecked code), is looked up
 * once: when its code source (a directory or a jar) has no marker, or a marker that says its classes have
 * records ({@value #PER_CLASS}) and no record of this class (another compiler wrote it into a checked
 * output; an unchecked module merged into a checked module's jar), the {@code sessionj.missingDescriptor}
 * policy applies to it as to a protocol without a descriptor — one warning per class by default. A marker
 * without that line (an earlier sj-processor's) covers its whole code source, as before. A class whose code source cannot be read (none, an in-memory class, a
 * nested jar) is given the benefit of the doubt: nothing is said rather than a false alarm.
 */
final class UncheckedCallers {
    /** Written by sj-processor into each class output it checked (its {@code CheckedMarker.PATH}). */
    static final String MARKER = "META-INF/sessionj/checked";
    /** Where sj-processor records each top-level class it checked for sessions (its {@code CheckedMarker.RECORDS}). */
    static final String RECORDS = "META-INF/sessionj/checked-classes/";
    /** In a marker whose output's checked classes have records (its {@code CheckedMarker.PER_CLASS}). */
    static final String PER_CLASS = "# per-class records: " + RECORDS;

    /** Packages of SJ itself, skipped when looking for the calling class. */
    private static final String[] OWN_PACKAGES = {
        "org.sessionj.api.", "org.sessionj.types.", "org.sessionj.runtime.", "org.sessionj.transport.",
    };
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /**
     * Per calling class (its nest host): null when it was compiled with the checker (or that cannot be told),
     * else whether it was warned about (one warning per class, as per protocol).
     */
    private static final ClassValue<AtomicBoolean> UNCHECKED = new ClassValue<>() {
        @Override
        protected AtomicBoolean computeValue(Class<?> type) {
            return checked(type) ? null : new AtomicBoolean();
        }
    };
    /**
     * Per code source location (its text: a {@link URL}'s own equality may ask a name server): what its marker
     * says (one jar is opened once).
     */
    private static final ConcurrentMap<String, Marker> MARKED = new ConcurrentHashMap<>();

    /**
     * What a code source's marker says about its classes: none was checked (no marker), all were (a marker of
     * an earlier sj-processor, or a source that cannot be read: no false alarm), or those with a record
     * ({@code records}, the names of a jar's records; null for a directory, whose records are looked up).
     */
    private record Marker(boolean marked, boolean perClass, Path directory, Set<String> records) {
        static final Marker NONE = new Marker(false, false, null, null);
        static final Marker ALL = new Marker(true, false, null, null);

        boolean covers(String className) {
            if (!marked || !perClass) {
                return marked;
            }
            return records != null ? records.contains(className)
                    : Files.isRegularFile(directory.resolve(RECORDS + className));
        }
    }

    private UncheckedCallers() {
    }

    /**
     * Applies {@code policy} to the class that called into SJ to open sessions of {@code protocol} (its binary
     * name), which has a descriptor, if that class was compiled without sj-processor.
     */
    static void check(String protocol, MissingDescriptor policy) {
        if (policy == MissingDescriptor.IGNORE) {
            return;
        }
        Optional<Class<?>> caller = WALKER.walk(frames -> frames.<Class<?>>map(StackWalker.StackFrame::getDeclaringClass)
                .filter(type -> !own(type.getName()))
                .findFirst());
        if (caller.isEmpty()) {
            return;
        }
        Class<?> host = caller.get().getNestHost();
        AtomicBoolean warned = UNCHECKED.get(host);
        if (warned == null || policy == MissingDescriptor.WARN && warned.getAndSet(true)) {
            return;
        }
        policy.applyToCaller(host, protocol, location(host).map(URL::toString).orElse("?"));
    }

    private static boolean own(String name) {
        for (String prefix : OWN_PACKAGES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean checked(Class<?> type) {
        Optional<URL> location = location(type);
        return location.isEmpty()
                || MARKED.computeIfAbsent(location.get().toString(), text -> marker(location.get())).covers(type.getName());
    }

    private static Optional<URL> location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null ? Optional.empty() : Optional.ofNullable(source.getLocation());
    }

    /**
     * What the marker of the directory or jar at {@code location} says (adv17 A6: with per-class records, a
     * class another compiler wrote into a checked output, or a jar merged from a checked and an unchecked
     * module, is told apart); {@link Marker#ALL} when that cannot be told.
     */
    private static Marker marker(URL location) {
        if (!"file".equals(location.getProtocol())) {
            return Marker.ALL; // a nested jar, a remote or in-memory source: not worth a false alarm
        }
        Path path;
        try {
            path = Path.of(new URI(location.toString()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Marker.ALL;
        }
        if (Files.isDirectory(path)) {
            Path marker = path.resolve(MARKER);
            if (!Files.isRegularFile(marker)) {
                return Marker.NONE;
            }
            try {
                return new Marker(true, Files.readString(marker).contains(PER_CLASS), path, null);
            } catch (IOException | RuntimeException e) {
                return Marker.ALL;
            }
        }
        try (JarFile jar = new JarFile(path.toFile(), false)) {
            java.util.jar.JarEntry marker = jar.getJarEntry(MARKER);
            if (marker == null) {
                return Marker.NONE;
            }
            String text;
            try (java.io.InputStream in = jar.getInputStream(marker)) {
                text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            if (!text.contains(PER_CLASS)) {
                return Marker.ALL;
            }
            Set<String> records = new HashSet<>();
            for (java.util.Enumeration<java.util.jar.JarEntry> entries = jar.entries(); entries.hasMoreElements();) {
                String name = entries.nextElement().getName();
                if (name.startsWith(RECORDS) && name.length() > RECORDS.length()) {
                    records.add(name.substring(RECORDS.length()));
                }
            }
            return new Marker(true, true, null, Set.copyOf(records));
        } catch (IOException | SecurityException e) {
            return Marker.ALL;
        }
    }
}
