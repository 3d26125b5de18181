package org.sessionj.api.spi;

import java.util.ServiceLoader;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSelector;
import org.sessionj.api.SJSocket;

/**
 * The bridge from the public API's static factories to a session runtime (sj-runtime provides one,
 * found with {@link ServiceLoader}). Applications never call it.
 */
public interface SessionRuntimeProvider {

    /** The runtime on the class path; fails with a clear message when there is none. */
    static SessionRuntimeProvider get() {
        SessionRuntimeProvider runtime = Holder.INSTANCE;
        if (runtime == null) {
            throw new IllegalStateException(
                    "no SJ session runtime on the class path: add the org.sessionj:sj-runtime dependency");
        }
        return runtime;
    }

    /** See {@link SJService#create}. */
    SJService createService(Class<?> protocol, String host, int port);

    /** See {@link SJServerSocket#create}. */
    SJServerSocket createServerSocket(Class<?> protocol, int port);

    /** See {@link SJSelector#open}. */
    SJSelector openSelector();

    /** See {@link SJSelector#of}. */
    SJSelector openSelector(Class<?>[] protocols);

    /** See {@link org.sessionj.api.SJ#scope}. */
    org.sessionj.api.SJScope openScope();

    /** See {@link org.sessionj.api.SJ#outwhile}. */
    boolean multicastOutwhile(boolean condition, SJSocket... sockets);

    /** See {@link org.sessionj.api.SJ#inwhile}. */
    boolean multicastInwhile(SJSocket... sockets);

    /** See {@link org.sessionj.api.SJ#join}: one message from each socket, in the sockets' order. */
    java.util.List<Object> join(SJSocket[] sockets);

    /**
     * See {@link org.sessionj.api.SJ#spawn(SJSocket, org.sessionj.api.SJThread.Body)}: hands
     * {@code sockets} (each non-null, none twice) to a new virtual thread that runs {@code body} and
     * then closes them.
     */
    org.sessionj.api.SJThread spawn(SJSocket[] sockets, org.sessionj.api.SJThread.Task body);

    /**
     * Loads the provider once, on first use: sj-runtime's by its class name, else the first the
     * {@link ServiceLoader} finds. The class name first because a fresh JVM's first service look-up
     * opens and indexes every jar on the class path, a large share of its first session's CPU time
     * with an AOT cache (issue 15, cold start).
     */
    final class Holder {
        /** sj-runtime's provider. */
        static final String BUILT_IN = "org.sessionj.runtime.SJRuntimeProvider";
        /** Null when no runtime is on the class path; {@link #get()} reports that on every call. */
        static final SessionRuntimeProvider INSTANCE = load();

        private Holder() {
        }

        private static SessionRuntimeProvider load() {
            ClassLoader loader = SessionRuntimeProvider.class.getClassLoader();
            SessionRuntimeProvider builtIn = builtIn(BUILT_IN, loader);
            if (builtIn != null) {
                return builtIn;
            }
            return ServiceLoader.load(SessionRuntimeProvider.class, loader).findFirst().orElse(null);
        }

        /**
         * A new {@code className} made with its public constructor, or null when it is not there, is no
         * provider, or cannot be made (the service loader then has its say, and reports what fails).
         */
        static SessionRuntimeProvider builtIn(String className, ClassLoader loader) {
            try {
                Class<?> type = Class.forName(className, true, loader);
                if (!SessionRuntimeProvider.class.isAssignableFrom(type)) {
                    return null;
                }
                return SessionRuntimeProvider.class.cast(type.getConstructor().newInstance());
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return null;
            }
        }
    }
}
