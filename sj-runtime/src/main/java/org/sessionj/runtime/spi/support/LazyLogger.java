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
 * {@code java.util.logging.config.file} or {@code .class} set, or a {@code System.LoggerFinder} such as
 * SLF4J's or Log4j's bridge installed); otherwise the backend is {@code java.util.logging} with its
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
     * {@code java.util.logging} configuration file or class named by its system property, or a
     * {@code System.LoggerFinder} provider on the class path or in the boot layer's modules.
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
        static final boolean CONFIGURED = configured(System.getProperty("java.util.logging.config.file"),
                System.getProperty("java.util.logging.config.class"));

        private Backend() {
        }

        /** Whether the backend is configured, given the two java.util.logging properties' values (or null). */
        static boolean configured(String configFile, String configClass) {
            if (configFile != null || configClass != null) {
                return true;
            }
            ClassLoader loader = ClassLoader.getSystemClassLoader();
            if (loader != null && loader.getResource("META-INF/services/" + FINDER) != null) {
                return true;
            }
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
