package org.sessionj.runtime.spi.support;

import java.util.Objects;
import java.util.ResourceBundle;
import java.util.function.BooleanSupplier;

/**
 * A {@link System.Logger} that asks for the real one ({@link System#getLogger}) only when a line may be
 * due, so that a program that logs nothing does not start its logging backend. Measured on JDK 25
 * (issue 15, cold start): {@code System.getLogger} starts {@code java.util.logging} (the
 * {@code LoggerFinder} look-up, the {@code LogManager}, its configuration), 20–30 ms of CPU in a fresh
 * JVM and 3–8 ms with an AOT cache; an in-JVM session, whose lines are all below INFO, needs none of it.
 *
 * <p>The rule, so that a line a user asked for is never lost: a level of INFO or above always goes to
 * the real logger (it decides). A level below INFO (DEBUG, TRACE) goes to it once any SJ logger has
 * been created in this JVM, or when the backend was configured at start ({@link #backendConfigured()}:
 * {@code java.util.logging.config.file} or {@code .class} set, {@code sessionj.logging.configured=true},
 * or a {@code System.LoggerFinder} such as SLF4J's or Log4j's bridge installed, as far as that can be told
 * without opening a jar); otherwise the backend is {@code java.util.logging} with its
 * default configuration, which drops such lines, and this logger drops them without asking. The one
 * case this cannot see is {@code java.util.logging} configured only in code: such a program sets
 * {@code java.util.logging.config.file} instead, or logs anything through an SJ logger first
 * (docs/getting-started.md, "Logging").
 *
 * <p>Every other {@code log} method of {@link System.Logger} funnels into the two below and
 * {@link #isLoggable}, so a message supplier is not called when the line is dropped.
 */
public final class LazyLogger implements System.Logger {
    /** Whether some SJ logger asked for its real logger already: the backend is up, asking costs nothing. */
    private static volatile boolean anyCreated;

    private final String name;
    /** Whether a line below INFO may be wanted before this logger has its real one. */
    private final BooleanSupplier belowInfoWanted;
    private volatile System.Logger delegate;

    LazyLogger(String name, BooleanSupplier belowInfoWanted) {
        this.name = name;
        this.belowInfoWanted = belowInfoWanted;
    }

    /**
     * The lazy logger named {@code name}.
     *
     * @param name the logger's name, as for {@link System#getLogger(String)}
     * @return a logger that starts the backend on the first line that may be due
     */
    public static LazyLogger of(String name) {
        return new LazyLogger(Objects.requireNonNull(name, "name"), Rule.INSTANCE);
    }

    /**
     * The lazy logger named after {@code type} (its binary name, as SJ's loggers are).
     *
     * @param type the class that logs
     * @return a logger that starts the backend on the first line that may be due
     */
    public static LazyLogger of(Class<?> type) {
        return of(type.getName());
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public boolean isLoggable(Level level) {
        System.Logger d = delegate;
        if (d != null) {
            return d.isLoggable(level);
        }
        if (level.getSeverity() < Level.INFO.getSeverity() && !belowInfoWanted.getAsBoolean()) {
            return false;
        }
        return real().isLoggable(level);
    }

    /**
     * Logs the line, or drops it when the backend fails: a line the runtime cannot write must not end
     * the thread that wrote it. Seen for real: a server whose descriptors a peer had used up logged its
     * first line then; {@code java.util.logging}'s formatter could not open the JDK's time-zone file, so
     * the time-zone classes stayed broken for the JVM's life, every later line threw
     * {@code NoClassDefFoundError}, and the handshake thread that logged a failed handshake died before
     * it gave its slot back (see {@link ListenerPreload}).
     */
    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
        try {
            if (isLoggable(level)) {
                real().log(level, bundle, message, thrown);
            }
        } catch (RuntimeException | LinkageError e) {
            // dropped: see above
        }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        try {
            if (isLoggable(level)) {
                real().log(level, bundle, format, params);
            }
        } catch (RuntimeException | LinkageError e) {
            // dropped: see log(Level, ResourceBundle, String, Throwable)
        }
    }

    /** Whether this logger has asked for its real one (for tests). */
    boolean created() {
        return delegate != null;
    }

    /**
     * Whether this JVM's logging backend was configured at start, read once: a
     * {@code java.util.logging} configuration file or class named by its system property,
     * {@code sessionj.logging.configured=true}, or a {@code System.LoggerFinder} provider in the boot
     * layer's modules, in a class directory or in a bridge's jar on the class path (told by its name: no
     * jar is opened).
     *
     * @return true when lines below INFO may be wanted even though no SJ logger was created yet
     */
    public static boolean backendConfigured() {
        return Backend.CONFIGURED;
    }

    /**
     * The rule for lines below INFO: some SJ logger is up already, or the backend was configured at
     * start. A class, not a method reference: no lambda to link on a fresh JVM's first session.
     */
    private static final class Rule implements BooleanSupplier {
        static final Rule INSTANCE = new Rule();

        @Override
        public boolean getAsBoolean() {
            return anyCreated || Backend.CONFIGURED;
        }
    }

    private System.Logger real() {
        System.Logger d = delegate;
        if (d == null) {
            // Two threads may both ask: System.getLogger answers both with equivalent loggers.
            d = System.getLogger(name);
            delegate = d;
            anyCreated = true;
        }
        return d;
    }

    /** Read on first need, in a holder: the look-up is not free and most in-JVM runs never need it. */
    static final class Backend {
        private static final String FINDER = "java.lang.System$LoggerFinder";
        /** The file names of the {@code System.LoggerFinder} bridges' jars (SLF4J's, Log4j 2's). */
        private static final String[] BRIDGE_JARS = {"slf4j-jdk-platform-logging", "log4j-jpl"};
        static final boolean CONFIGURED = configured(System.getProperty("java.util.logging.config.file"),
                System.getProperty("java.util.logging.config.class"))
                // read leniently: a bad value must not fail the first log check, in a class initialiser
                || "true".equalsIgnoreCase(SystemSettings.system().value("logging.configured").orElse(null))
                || bridgeOnClassPath(System.getProperty("java.class.path", ""))
                || bridgeInBootLayer();

        private Backend() {
        }

        /** Whether the backend is configured, given the two java.util.logging properties' values (or null). */
        static boolean configured(String configFile, String configClass) {
            return configFile != null || configClass != null;
        }

        /**
         * Whether {@code classPath} holds a {@code System.LoggerFinder} bridge, told without opening a jar:
         * a class directory with the service file, or a jar named as SLF4J's or Log4j's bridge is. Not a
         * resource look-up: a fresh JVM's first one opens and indexes every jar on the class path, which
         * was half of the first in-JVM session's CPU time with an AOT cache (issue 15, cold start). A
         * bridge merged into a shaded jar, or named only in a jar manifest's {@code Class-Path}, is not
         * seen: such a program sets {@code sessionj.logging.configured=true} (docs/getting-started.md).
         */
        static boolean bridgeOnClassPath(String classPath) {
            for (String entry : classPath.split(java.io.File.pathSeparator)) {
                if (entry.isEmpty()) {
                    continue;
                }
                String file = entry.substring(Math.max(entry.lastIndexOf('/'), entry.lastIndexOf(java.io.File.separatorChar)) + 1);
                if (file.endsWith(".jar")) {
                    for (String bridge : BRIDGE_JARS) {
                        if (file.startsWith(bridge)) {
                            return true;
                        }
                    }
                } else if (new java.io.File(entry, "META-INF/services/" + FINDER).isFile()) {
                    return true;
                }
            }
            return false;
        }

        /** Whether a module of the boot layer provides a {@code System.LoggerFinder} (the module path). */
        private static boolean bridgeInBootLayer() {
            for (Module module : ModuleLayer.boot().modules()) {
                if (module.getDescriptor() != null) {
                    for (java.lang.module.ModuleDescriptor.Provides p : module.getDescriptor().provides()) {
                        if (p.service().equals(FINDER)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }
}
