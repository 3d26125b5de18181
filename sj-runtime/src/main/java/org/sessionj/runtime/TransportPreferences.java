package org.sessionj.runtime;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which transports a session may use, most preferred first (paper 000 §5.3): {@code setup} are tried
 * in order to reach the peer's session port; {@code session} are the transports this side accepts
 * for the session itself, negotiated with the peer's (docs/negotiation.md). An empty list means
 * "as the runtime is configured" ({@link SJRuntimeConfig}), and for the runtime "every installed
 * transport that is enabled by default, in-JVM first".
 *
 * <p>Used runtime-wide in {@link SJRuntimeConfig} and per service or server socket with
 * {@link SJRuntime#service(Class, String, int, TransportPreferences)} and
 * {@link SJRuntime#serverSocket(Class, int, TransportPreferences)}.
 *
 * @param setup transports to reach the peer with, in order
 * @param session transports acceptable for the session, in order of preference
 */
public record TransportPreferences(List<String> setup, List<String> session) {
    private static final Pattern TRANSPORT_NAME = Pattern.compile("[a-z][a-z0-9-]*");
    private static final TransportPreferences UNSET = new TransportPreferences(List.of(), List.of());

    /** Validates the names (lower-case words, none twice in one list) and copies the lists. */
    public TransportPreferences {
        setup = checked("setup", setup);
        session = checked("session", session);
    }

    /** No preferences of its own: the runtime's apply. */
    public static TransportPreferences unset() {
        return UNSET;
    }

    /** Only the session transports, e.g. {@code session("tls")} for "TLS or nothing". */
    public static TransportPreferences session(String... names) {
        return new TransportPreferences(List.of(), Arrays.asList(names));
    }

    /** Explicit setup and session transports. */
    public static TransportPreferences of(List<String> setup, List<String> session) {
        return new TransportPreferences(setup, session);
    }

    /** These preferences, with each empty list taken from {@code fallback}. */
    public TransportPreferences orElse(TransportPreferences fallback) {
        return new TransportPreferences(setup.isEmpty() ? fallback.setup : setup,
                session.isEmpty() ? fallback.session : session);
    }

    static List<String> checked(String which, List<String> names) {
        Objects.requireNonNull(names, which + " transports");
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        for (String name : names) {
            if (name == null || !TRANSPORT_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("transport names are lower-case words like shm or tcp, got '"
                        + name + "'");
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException("transport '" + name + "' is listed twice"
                        + (which.isEmpty() ? "" : " in the " + which + " transports"));
            }
        }
        return List.copyOf(seen);
    }
}
