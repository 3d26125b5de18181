package org.sessionj.runtime.internal.protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sessionj.api.SJException;
import org.sessionj.types.Action;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * Resolves the Java type names of a protocol declared on {@code context} to binary names, for code
 * compiled without sj-processor (which writes resolved descriptors). Imports are not visible at run
 * time, so a simple name is looked up as a member of the interface or of its enclosing classes, in
 * the interface's package, then in {@code java.lang}; qualified names are taken as written (with
 * nested classes found by trying {@code $} for the last dots). Protocol names in {@code @(P)} and
 * {@code ^(P)} become binary names the same way.
 */
final class TypeNameResolver {
    private static final java.util.Set<String> PRIMITIVES =
            java.util.Set.of("boolean", "byte", "short", "char", "int", "long", "float", "double", "void");

    private final Class<?> context;
    private final ClassLoader loader;

    TypeNameResolver(Class<?> context, ClassLoader loader) {
        this.context = context;
        this.loader = loader;
    }

    /** {@code type} with every Java type name resolved ({@code @(P)} names are left to the expander). */
    SessionType resolve(SessionType type) {
        List<Action> actions = new ArrayList<>(type.actions().size());
        for (Action action : type.actions()) {
            actions.add(resolve(action));
        }
        return new SessionType(actions);
    }

    private Action resolve(Action action) {
        // instanceof, not a pattern switch: linked through SwitchBootstraps on first use, milliseconds cold (issue 15).
        if (action instanceof Action.Send send) {
            return new Action.Send(resolve(send.payload()));
        } else if (action instanceof Action.Receive receive) {
            return new Action.Receive(resolve(receive.payload()));
        } else if (action instanceof Action.Select select) {
            return new Action.Select(resolveAll(select.branches()));
        } else if (action instanceof Action.Branch branch) {
            return new Action.Branch(resolveAll(branch.branches()));
        } else if (action instanceof Action.OutWhile loop) {
            return new Action.OutWhile(resolve(loop.body()));
        } else if (action instanceof Action.InWhile loop) {
            return new Action.InWhile(resolve(loop.body()));
        } else if (action instanceof Action.Rec rec) {
            return new Action.Rec(rec.variable(), resolve(rec.body()));
        } else if (action instanceof Action.ProtocolRef ref) {
            return new Action.ProtocolRef(resolveClass(ref.name()).getName());
        } else if (action instanceof Action.DualRef ref) {
            return new Action.DualRef(resolveClass(ref.name()).getName());
        }
        return action;
    }

    private Map<String, SessionType> resolveAll(Map<String, SessionType> branches) {
        Map<String, SessionType> resolved = new LinkedHashMap<>();
        branches.forEach((label, body) -> resolved.put(label, resolve(body)));
        return resolved;
    }

    private Payload resolve(Payload payload) {
        return payload instanceof Payload.SessionPayload session ? new Payload.SessionPayload(resolve(session.type()))
                : resolve((Payload.JavaType) payload);
    }

    Payload.JavaType resolve(Payload.JavaType type) {
        List<Payload.JavaType> arguments = new ArrayList<>();
        for (Payload.JavaType argument : type.typeArguments()) {
            arguments.add(resolve(argument));
        }
        String name = PRIMITIVES.contains(type.name()) ? type.name() : resolveClass(type.name()).getName();
        return new Payload.JavaType(name, arguments, type.arrayDimensions());
    }

    /** The class {@code name} denotes in the context of the protocol interface. */
    Class<?> resolveClass(String name) {
        List<String> candidates = candidates(name);
        for (String candidate : candidates) {
            try {
                return Class.forName(candidate, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // try the next reading of the name
            }
        }
        throw new SJException("protocol " + context.getName() + ": cannot resolve the type name '" + name
                + "' at run time (tried " + String.join(", ", candidates) + "). Compile with sj-processor, or"
                + " write the name fully qualified: imports are not visible at run time");
    }

    private List<String> candidates(String name) {
        List<String> candidates = new ArrayList<>();
        if (name.contains(".")) {
            candidates.addAll(nestedReadings(name));
        }
        for (Class<?> enclosing = context; enclosing != null; enclosing = enclosing.getEnclosingClass()) {
            for (String reading : nestedReadings(name)) {
                candidates.add(enclosing.getName() + "$" + reading.replace('.', '$'));
            }
        }
        String pkg = context.getPackageName();
        for (String reading : nestedReadings(name)) {
            candidates.add(pkg.isEmpty() ? reading : pkg + "." + reading);
        }
        candidates.add("java.lang." + name);
        return candidates.stream().distinct().toList();
    }

    /** {@code a.b.C.D} read as written, then with the last dots as nested-class separators. */
    private static List<String> nestedReadings(String name) {
        List<String> readings = new ArrayList<>();
        String current = name;
        readings.add(current);
        int dot;
        while ((dot = current.lastIndexOf('.')) > 0) {
            current = current.substring(0, dot) + "$" + current.substring(dot + 1);
            readings.add(current);
        }
        return readings;
    }
}
