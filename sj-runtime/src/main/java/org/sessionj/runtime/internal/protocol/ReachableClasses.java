package org.sessionj.runtime.internal.protocol;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import org.sessionj.types.Action;
import org.sessionj.types.JavaSubtyping;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionType;

/**
 * The classes a peer may make this runtime load: those named by a declared protocol, their
 * superclasses and interfaces, and the platform's {@code java.*} classes. Type names that arrive on
 * the wire (a requester's session type, a passed service's protocol) are related to the declared
 * ones through {@link #subtyping()}, which loads only these, never initialises a class, and treats
 * any other name as one that cannot be loaded (related only to an identical name). A peer thus
 * cannot choose which of the application's classes are loaded, let alone whose static initialiser
 * runs.
 *
 * <p>As a {@link ClassLoader} it only filters: every class it answers comes from the protocol's own
 * loader, loaded without initialisation.
 */
public final class ReachableClasses extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final ClassLoader loader;
    private final Set<String> names;
    private final JavaSubtyping subtyping;

    private ReachableClasses(ClassLoader loader, Set<String> names) {
        super(null);
        this.loader = loader;
        this.names = Set.copyOf(names);
        this.subtyping = JavaSubtyping.reflective(this);
    }

    /** The classes reachable from {@code type}, whose names are binary names of {@code loader}'s classes. */
    public static ReachableClasses of(SessionType type, ClassLoader loader) {
        Set<String> names = new HashSet<>();
        ArrayDeque<SessionType> todo = new ArrayDeque<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            for (Action action : todo.poll().actions()) {
                // instanceof, not a pattern switch: a pattern switch is linked through SwitchBootstraps
                // on first use, milliseconds in a fresh JVM's first session (issue 15). Begins,
                // recursion variables and protocol references name no classes.
                if (action instanceof Action.Send send) {
                    collect(send.payload(), names, todo);
                } else if (action instanceof Action.Receive receive) {
                    collect(receive.payload(), names, todo);
                } else if (action instanceof Action.Select select) {
                    todo.addAll(select.branches().values());
                } else if (action instanceof Action.Branch branch) {
                    todo.addAll(branch.branches().values());
                } else if (action instanceof Action.OutWhile loop) {
                    todo.add(loop.body());
                } else if (action instanceof Action.InWhile loop) {
                    todo.add(loop.body());
                } else if (action instanceof Action.Rec rec) {
                    todo.add(rec.body());
                }
            }
        }
        Set<String> closed = new HashSet<>();
        for (String name : names) {
            addWithSupertypes(name, loader, closed);
        }
        return new ReachableClasses(loader, closed);
    }

    private static void collect(Payload payload, Set<String> names, ArrayDeque<SessionType> todo) {
        if (payload instanceof Payload.SessionPayload session) {
            todo.add(session.type());
        } else {
            collect((Payload.JavaType) payload, names);
        }
    }

    private static void collect(Payload.JavaType type, Set<String> names) {
        ArrayDeque<Payload.JavaType> todo = new ArrayDeque<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            Payload.JavaType next = todo.poll();
            if (!next.isPrimitive()) {
                names.add(next.name());
            }
            todo.addAll(next.typeArguments());
        }
    }

    private static void addWithSupertypes(String name, ClassLoader loader, Set<String> names) {
        names.add(name);
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return; // a name the program itself cannot load: related only to itself
        }
        ArrayDeque<Class<?>> todo = new ArrayDeque<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            Class<?> next = todo.poll();
            if (names.add(next.getName()) || next == type) {
                if (next.getSuperclass() != null) {
                    todo.add(next.getSuperclass());
                }
                todo.addAll(java.util.List.of(next.getInterfaces()));
            }
        }
    }

    /** Whether a class of this name may be loaded for a peer. */
    public boolean allows(String name) {
        return names.contains(name) || name.startsWith("java.");
    }

    /** Java subtyping over the reachable classes only (see the class comment). */
    public JavaSubtyping subtyping() {
        return subtyping;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!allows(name)) {
            throw new ClassNotFoundException(name + " is not reachable from the declared protocol");
        }
        return Class.forName(name, false, loader);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        return loadClass(name, false);
    }
}
