package org.sessionj.runtime.spi.support;

import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The one way SJ reads its system properties. Every setting is named {@code sessionj.<name>}
 * (docs/configuration.md lists them all); code passes only {@code <name>}, so the prefix is written
 * here and nowhere else. The names of earlier versions, {@code sj.<name>}, are still read when the
 * {@code sessionj.} name is not set, with one deprecation warning per name and JVM.
 *
 * <p>Values are checked: a setting that is present but not a number (or not {@code true}/{@code false})
 * is an {@link IllegalArgumentException} naming the property and the value found, never silently the
 * default.
 */
public final class SystemSettings {
    /** The prefix of every SJ system property. */
    public static final String PREFIX = "sessionj.";
    /** The prefix earlier versions used for some properties; read with a deprecation warning. */
    public static final String DEPRECATED_PREFIX = "sj.";

    private static final System.Logger LOG = LazyLogger.of(SystemSettings.class.getName());
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final SystemSettings SYSTEM = new SystemSettings(System::getProperty);

    private final UnaryOperator<String> properties;

    private SystemSettings(UnaryOperator<String> properties) {
        this.properties = properties;
    }

    /** The settings of this JVM: its system properties, read at each call. */
    public static SystemSettings system() {
        return SYSTEM;
    }

    /** Settings read from {@code properties} (full property names, e.g. {@code sessionj.timeout}). */
    public static SystemSettings of(Properties properties) {
        Objects.requireNonNull(properties, "properties");
        return new SystemSettings(properties::getProperty);
    }

    /** Settings read through {@code lookup}, which maps a full property name to its value or null. */
    public static SystemSettings of(UnaryOperator<String> lookup) {
        return new SystemSettings(Objects.requireNonNull(lookup, "lookup"));
    }

    /** The full property name of setting {@code name}: {@code sessionj.<name>}. */
    public static String property(String name) {
        return PREFIX + name;
    }

    /**
     * The value of setting {@code name} ({@code sessionj.<name>}, else the deprecated {@code sj.<name>}),
     * or empty when neither is set or the value is blank.
     */
    public Optional<String> value(String name) {
        String value = properties.apply(property(name));
        if (value == null) {
            String deprecated = DEPRECATED_PREFIX + name;
            value = properties.apply(deprecated);
            if (value != null && WARNED.add(deprecated)) {
                LOG.log(Level.WARNING, "system property {0} is deprecated; use {1} instead (same value)",
                        deprecated, property(name));
            }
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    /** The value of setting {@code name}, or {@code defaultValue}. */
    public String string(String name, String defaultValue) {
        return value(name).orElse(defaultValue);
    }

    /**
     * The integer value of setting {@code name}, or {@code defaultValue} when it is not set.
     *
     * @throws IllegalArgumentException if it is set but not an integer
     */
    public int integer(String name, int defaultValue) {
        Optional<String> value = value(name);
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.get());
        } catch (NumberFormatException e) {
            throw invalid(name, "an integer", value.get());
        }
    }

    /**
     * The boolean value of setting {@code name}, or {@code defaultValue} when it is not set.
     *
     * @throws IllegalArgumentException if it is set but neither {@code true} nor {@code false}
     */
    public boolean flag(String name, boolean defaultValue) {
        Optional<String> value = value(name);
        if (value.isEmpty()) {
            return defaultValue;
        }
        return switch (value.get().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(name, "true or false", value.get());
        };
    }

    /**
     * The duration of setting {@code name}: {@code PT5S}, {@code 500ms}, {@code 5s}, {@code 2m}, or
     * {@code none} (empty); {@code defaultValue} (null: empty) when it is not set.
     *
     * @throws IllegalArgumentException if it is set but none of those, or not positive
     */
    public Optional<java.time.Duration> duration(String name, java.time.Duration defaultValue) {
        Optional<String> value = value(name);
        if (value.isEmpty()) {
            return Optional.ofNullable(defaultValue);
        }
        return Optional.ofNullable(parseDuration(name, value.get()));
    }

    /** {@code PT5S}, {@code 500ms}, {@code 5s}, {@code 2m}, or {@code none} (null) as the value of setting {@code name}. */
    static java.time.Duration parseDuration(String name, String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (value.equals("none")) {
                return null;
            }
            java.time.Duration d;
            if (value.startsWith("p")) {
                d = java.time.Duration.parse(value.toUpperCase(Locale.ROOT));
            } else if (value.endsWith("ms")) {
                d = java.time.Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            } else if (value.endsWith("s")) {
                d = java.time.Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
            } else if (value.endsWith("m")) {
                d = java.time.Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
            } else {
                d = null;
            }
            if (d != null && !d.isNegative() && !d.isZero()) {
                return d;
            }
        } catch (NumberFormatException | java.time.format.DateTimeParseException e) {
            // reported below
        }
        throw invalid(name, "a positive duration like 500ms, 5s, PT5S, or none", text);
    }

    /** The error for setting {@code name} whose value {@code found} is not {@code expected}. */
    public static IllegalArgumentException invalid(String name, String expected, String found) {
        return new IllegalArgumentException("system property " + property(name) + " must be " + expected
                + ", found '" + found + "'");
    }
}
