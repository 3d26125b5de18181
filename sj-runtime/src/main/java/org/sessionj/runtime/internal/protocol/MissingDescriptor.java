package org.sessionj.runtime.internal.protocol;

import java.lang.System.Logger.Level;
import java.util.Locale;
import org.sessionj.api.SJException;
import org.sessionj.runtime.spi.support.LazyLogger;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * What the runtime does with a {@code @Protocol} interface that has no descriptor from sj-processor.
 * A missing descriptor means the interface (and, almost always, the code using it) was compiled
 * without the annotation processor: nothing was checked at compile time, and a protocol mistake will
 * only show at run time. That happens silently with a stock Maven setup (an old compiler plugin
 * ignores {@code annotationProcessorPaths}), so the default is one warning per interface; setting
 * {@code sessionj.missingDescriptor} makes it an error or silences it.
 */
enum MissingDescriptor {
    /** Log one warning per interface (the default) and parse the annotation at run time. */
    WARN,
    /** Refuse the interface with an {@link SJException}. */
    ERROR,
    /** Parse the annotation at run time without a word (code compiled without the processor on purpose). */
    IGNORE;

    /** The setting's name, without the {@code sessionj.} prefix. */
    static final String SETTING = "missingDescriptor";

    private static final System.Logger LOG = LazyLogger.of(ProtocolRegistry.class.getName());

    /** The policy {@code settings} name; {@link #WARN} when unset. */
    static MissingDescriptor from(SystemSettings settings) {
        String value = settings.string("missingDescriptor", "warn"); // SETTING, literal for ConfigurationDocTest
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "warn" -> WARN;
            case "error" -> ERROR;
            case "ignore" -> IGNORE;
            default -> throw SystemSettings.invalid(SETTING, "warn, error or ignore", value);
        };
    }

    /**
     * Applies this policy to {@code protocol}, which has no descriptor. Called once per interface
     * (the registry compiles each interface once), so a warning is logged once.
     *
     * @throws SJException under {@link #ERROR}
     */
    void apply(Class<?> protocol) {
        act(message(protocol));
    }

    /** Logs {@code message} once (this is called once per interface or class), throws it, or says nothing. */
    private void act(String message) {
        switch (this) {
            case WARN -> LOG.log(Level.WARNING, message + " (-D" + SystemSettings.property(SETTING)
                    + "=error makes this an error, =ignore silences it)");
            case ERROR -> throw new SJException(message + " (refused because " + SystemSettings.property(SETTING)
                    + "=error)");
            case IGNORE -> {
                // compiled without the processor on purpose
            }
        }
    }

    /**
     * Applies this policy to {@code caller}, a class compiled without sj-processor (its code source at
     * {@code location} has no marker) that opens sessions of {@code protocol} (its binary name), which was compiled with it
     * ({@link UncheckedCallers}).
     *
     * @throws SJException under {@link #ERROR}
     */
    void applyToCaller(Class<?> caller, String protocol, String location) {
        act("class " + caller.getName() + " (" + location + ") opens sessions of " + protocol
                + " but was compiled without sj-processor (its class output has no " + UncheckedCallers.MARKER
                + "): its session code was not checked at compile time, although the protocol was. " + ADVICE);
    }

    /** How to run the processor in a build. */
    private static final String ADVICE = "Add org.sessionj:sj-processor to <annotationProcessorPaths> of"
            + " maven-compiler-plugin 3.5 or newer (Gradle: annotationProcessor), as in the README";

    /** Why a missing descriptor matters and how to get one. */
    static String message(Class<?> protocol) {
        return "protocol " + protocol.getName() + " has no descriptor from the SJ annotation processor (neither "
                + protocol.getName() + org.sessionj.api.spi.ProtocolDescriptors.CLASS_SUFFIX + " nor "
                + ProtocolRegistry.DESCRIPTOR_PREFIX + protocol.getName() + ".sj is on the class path): it was"
                + " compiled without sj-processor, so no session code using it was checked at compile time. "
                + (fromSourceLauncher(protocol)
                ? "The source launcher (java File.java) runs no annotation processor: compile the file first"
                        + " (javac -processorpath <sj-processor.jar and its dependencies> -cp <SJ's jars> -d out"
                        + " File.java), then run the classes (java -cp out:<SJ's jars> Main)"
                : ADVICE);
    }

    /**
     * Whether {@code protocol} was compiled in memory by the JDK's source launcher ({@code java Hello.java}),
     * which runs no annotation processor whatever the class path holds (adv15 A8: the advice was about a pom
     * the user did not have). Its classes are defined by a loader of the launcher's package in every JDK
     * from 11 to 25.
     */
    static boolean fromSourceLauncher(Class<?> protocol) {
        ClassLoader loader = protocol.getClassLoader();
        return loader != null && loader.getClass().getName().startsWith("com.sun.tools.javac.launcher.");
    }
}
