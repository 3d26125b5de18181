package org.sessionj.runtime.internal.protocol;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;
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
 * ({@value #MARKER}); the class that calls {@code SJService.create} or {@code SJServerSocket.create} is
 * looked up once: when its code source (a directory or a jar) has no marker, the
 * {@code sessionj.missingDescriptor} policy applies to it as to a protocol without a descriptor — one
 * warning per class by default. A class whose code source cannot be read (none, an in-memory class, a
 * nested jar) is given the benefit of the doubt: nothing is said rather than a false alarm.
 */
final class UncheckedCallers {
    /** Written by sj-processor into each class output it checked (its {@code CheckedMarker.PATH}). */
    static final String MARKER = "META-INF/sessionj/checked";

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
     * Per code source location (its text: a {@link URL}'s own equality may ask a name server): whether it holds
     * the marker (one jar is opened once).
     */
    private static final ConcurrentMap<String, Boolean> MARKED = new ConcurrentHashMap<>();

    private UncheckedCallers() {
    }

    /**
     * Applies {@code policy} to the class that called into SJ to open sessions of {@code protocol}, which
     * has a descriptor, if that class was compiled without sj-processor.
     */
    static void check(Class<?> protocol, MissingDescriptor policy) {
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
        return location.isEmpty() || MARKED.computeIfAbsent(location.get().toString(), text -> marked(location.get()));
    }

    private static Optional<URL> location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null ? Optional.empty() : Optional.ofNullable(source.getLocation());
    }

    /** Whether the directory or jar at {@code location} holds the marker; true when that cannot be told. */
    private static boolean marked(URL location) {
        if (!"file".equals(location.getProtocol())) {
            return true; // a nested jar, a remote or in-memory source: not worth a false alarm
        }
        Path path;
        try {
            path = Path.of(new URI(location.toString()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return true;
        }
        if (Files.isDirectory(path)) {
            return Files.isRegularFile(path.resolve(MARKER));
        }
        try (JarFile jar = new JarFile(path.toFile(), false)) {
            return jar.getEntry(MARKER) != null;
        } catch (IOException | SecurityException e) {
            return true;
        }
    }
}
