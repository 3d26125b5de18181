package org.sessionj.cli;

import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./sj demo ALGORITHM --option value …} read without picocli, for rank 0 of a demo job.
 *
 * <p>Why: picocli's classes are compiled for Java 5, so no AOT cache holds them; building its model of
 * the {@code demo} command and parsing cost rank 0 about 0.3 s of CPU (a third of its JVM's
 * start-up, docs/benchmarks.md "The demos' whole job, tenth session"), and across processes rank 0
 * starts the other ranks' JVMs only once it has parsed: every job waited that long before its child
 * ranks even began to start. Under srun every rank is a {@code ./sj demo}, and every one paid it.
 *
 * <p>What it reads is picocli's own model, from the same annotations: the options' names and default
 * values come from the {@code @Option} fields of the demo's class and its {@code @Mixin}s, so nothing
 * is declared twice. It takes only the plain shape the launchers and users write: long options, each
 * once, as {@code --name value} or {@code --name=value}, flags bare, numbers as digits, enums by name.
 * Anything else — {@code --help}, a short option, an unknown or repeated option, a value picocli might
 * read differently, a usage error found when the program is built — is declined, and picocli handles
 * the whole command line as before: its messages, usage and status are unchanged.
 */
final class DemoArgs {
    /** picocli's marker for an option without a default value. */
    static final String NO_DEFAULT = "__no_default_value__";

    private static final Pattern INT = Pattern.compile("[0-9]{1,9}");
    private static final Pattern LONG = Pattern.compile("[0-9]{1,18}");

    private DemoArgs() {
    }

    /**
     * Runs {@code args} when they are a demo this class reads ({@link #parse}) and picocli would not
     * report a usage error for them; else empty, and nothing has started. A failure while running is
     * reported as picocli's execution handler does ({@code sj: message}, status 1).
     */
    static OptionalInt run(String[] args, PrintWriter out, PrintWriter err) {
        Optional<Parsed> parsed = parse(args);
        if (parsed.isEmpty()) {
            return OptionalInt.empty();
        }
        DemoCommand.Demo.Ready ready;
        try {
            ready = parsed.get().demo().prepare(parsed.get().workersGiven());
        } catch (IllegalArgumentException usage) {
            return OptionalInt.empty();            // picocli reports it, with the usage and status 2
        } catch (RuntimeException failure) {
            return OptionalInt.of(SjCommand.failed(err, failure));
        }
        try {
            return OptionalInt.of(ready.run(out, err));
        } catch (Exception failure) {
            return OptionalInt.of(SjCommand.failed(err, failure));
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * A demo as parsed: the command object with every option set (given or default) and whether
     * {@code --workers} was given.
     */
    record Parsed(DemoCommand.Demo demo, boolean workersGiven) {
    }

    /** {@code args} as the demo they describe, or empty when they are not of the plain shape read here. */
    static Optional<Parsed> parse(String... args) {
        if (args.length < 2 || !args[0].equals("demo")) {
            return Optional.empty();
        }
        try {
            Class<?> type = subcommand(args[1]);
            if (type == null) {
                return Optional.empty();
            }
            DemoCommand.Demo demo = (DemoCommand.Demo) instance(type);
            Map<String, Target> byName = new LinkedHashMap<>();
            List<Target> targets = new ArrayList<>();
            collect(demo, byName, targets);
            Set<Target> given = new HashSet<>();
            for (int i = 2; i < args.length; i++) {
                String token = args[i];
                int equals = token.indexOf('=');
                Target target = token.startsWith("--") ? byName.get(equals < 0 ? token : token.substring(0, equals)) : null;
                if (target == null || !given.add(target)) {
                    return Optional.empty();
                }
                String value;
                if (target.field().getType() == boolean.class) {
                    if (equals >= 0) {
                        return Optional.empty();
                    }
                    value = "true";
                } else if (equals >= 0) {
                    value = token.substring(equals + 1);
                } else if (i + 1 < args.length && !args[i + 1].startsWith("-")) {
                    value = args[++i];
                } else {
                    return Optional.empty();
                }
                if (!target.set(value)) {
                    return Optional.empty();
                }
            }
            for (Target target : targets) {
                if (!given.contains(target) && !target.setDefault()) {
                    return Optional.empty();
                }
            }
            boolean workersGiven = given.stream().anyMatch(t -> List.of(t.option().names()).contains("--workers"));
            return Optional.of(new Parsed(demo, workersGiven));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();                // picocli's model is the authority: let it say
        }
    }

    /** The demo subcommand named {@code name}, or null. */
    private static Class<?> subcommand(String name) {
        for (Class<?> type : DemoCommand.class.getAnnotation(Command.class).subcommands()) {
            if (DemoCommand.Demo.class.isAssignableFrom(type) && type.getAnnotation(Command.class).name().equals(name)) {
                return type;
            }
        }
        return null;
    }

    private static Object instance(Class<?> type) throws ReflectiveOperationException {
        Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }

    /** The {@code @Option} fields of {@code object}'s class and superclasses, and of its {@code @Mixin}s (created here). */
    private static void collect(Object object, Map<String, Target> byName, List<Target> targets)
            throws ReflectiveOperationException {
        for (Class<?> type = object.getClass(); type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                Option option = field.getAnnotation(Option.class);
                if (option != null) {
                    field.setAccessible(true);
                    Target target = new Target(object, field, option);
                    targets.add(target);
                    for (String name : option.names()) {
                        byName.put(name, target);
                    }
                } else if (field.isAnnotationPresent(Mixin.class)) {
                    field.setAccessible(true);
                    Object mixin = instance(field.getType());
                    field.set(object, mixin);
                    collect(mixin, byName, targets);
                }
            }
        }
    }

    /** One option: the field it sets on its object. */
    record Target(Object owner, Field field, Option option) {
        /** Sets the field from {@code text}; false when the text is not of the plain shape read here. */
        boolean set(String text) throws IllegalAccessException {
            Class<?> type = field.getType();
            if (type == boolean.class) {
                field.setBoolean(owner, Boolean.parseBoolean(text));
            } else if (type == int.class && INT.matcher(text).matches()) {
                field.setInt(owner, Integer.parseInt(text));
            } else if (type == long.class && LONG.matcher(text).matches()) {
                field.setLong(owner, Long.parseLong(text));
            } else if (type == String.class) {
                field.set(owner, text);
            } else if (type.isEnum()) {
                for (Object constant : type.getEnumConstants()) {
                    if (((Enum<?>) constant).name().equals(text)) {
                        field.set(owner, constant);
                        return true;
                    }
                }
                return false;
            } else {
                return false;
            }
            return true;
        }

        /** Sets the option's default value, as picocli does; false for a default picocli would interpolate. */
        boolean setDefault() throws IllegalAccessException {
            String value = option.defaultValue();
            if (value.equals(NO_DEFAULT)) {
                return true;                         // the field keeps its initial value, as with picocli
            }
            return !value.contains("${") && set(value);
        }

        @Override
        public boolean equals(Object other) {
            return this == other;                    // one per option: identity, not the annotation's equality
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }
}
