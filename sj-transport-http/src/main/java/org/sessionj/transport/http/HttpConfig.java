package org.sessionj.transport.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.transport.http.internal.HttpSettings;
import org.sessionj.transport.http.internal.ListenProof;

/**
 * How the http/https transports reach peers: directly (frames in HTTP messages to the peer's HTTP
 * port: session port + {@code sessionj.http.portOffset}) or through a relay (both peers make
 * outbound requests to it), per service and per server socket.
 *
 * <ul>
 *   <li>{@code sessionj.http.relay=host:port}: the relay for every service and server socket;</li>
 *   <li>{@code sessionj.http.relay.HOST:PORT=host:port} (or {@code none}): the relay for requests to the
 *       service at {@code HOST:PORT} (overrides the first);</li>
 *   <li>{@code sessionj.http.relay.PORT=host:port} (or {@code none}): the relay for the server socket on
 *       session port {@code PORT};</li>
 *   <li>{@code sessionj.http.portOffset} (default 0): direct mode's HTTP port is the session port plus this;</li>
 *   <li>{@code sessionj.http.relayKeyFile}: a file holding the relay's listen key, which servers prove
 *       when they register at a relay that asks for it ({@code ./sj relay --listen-key});</li>
 *   <li>{@code sessionj.http.names}: extra names (comma-separated) under which a server registers at the
 *       relay, besides this host's names and addresses and {@code sessionj.advertisedHost};</li>
 *   <li>the tunables of {@link HttpSettings} ({@code sessionj.http.pollMillis}, {@code .websocket}, ...).</li>
 * </ul>
 *
 * @param properties where the keys are read (the system properties, or a map in tests)
 */
public record HttpConfig(UnaryOperator<String> properties) {
    /** The setting naming the relay; per service {@code http.relay.HOST:PORT}, per server {@code http.relay.PORT}. */
    private static final String RELAY = "http.relay";

    /** The configuration given by the system properties (read at each use, so later changes apply). */
    public static HttpConfig fromSystemProperties() {
        return new HttpConfig(System::getProperty);
    }

    private SystemSettings settingsOf() {
        return SystemSettings.of(properties);
    }

    /** The tunables. */
    public HttpSettings settings() {
        return HttpSettings.fromProperties(properties);
    }

    /** Direct mode's offset from session port to HTTP port. */
    public int portOffset() {
        return settingsOf().integer("http.portOffset", 0);
    }

    /**
     * The key this process's servers prove when a relay asks for one ({@code sessionj.http.relayKeyFile}:
     * a file whose first key line is the relay's listen key; a file, so that the secret is not on the
     * command line), if any.
     *
     * @throws IOException if the file is set and cannot be read or holds no valid key
     */
    public Optional<byte[]> relayKey() throws IOException {
        Optional<String> file = settingsOf().value("http.relayKeyFile");
        if (file.isEmpty() || file.get().isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ListenProof.readKeys(Path.of(file.get().strip())).get(0));
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new IOException("cannot read the relay key of " + SystemSettings.property("http.relayKeyFile") + ": "
                    + e.getMessage(), e);
        }
    }

    /** The relay every service and server use unless told otherwise, if any. */
    public Optional<HostPort> relay() {
        return settingsOf().value("http.relay").flatMap(value -> parse(RELAY, value));
    }

    /** The relay for requests to the service at {@code host:port}, if any. */
    public Optional<HostPort> relayForService(String host, int port) {
        String name = RELAY + "." + target(host, port);
        Optional<String> value = settingsOf().value(name);
        return value.isEmpty() ? relay() : parse(name, value.get());
    }

    /** The relay for the server socket on session port {@code port}, if any. */
    public Optional<HostPort> relayForServer(int port) {
        String name = RELAY + "." + port;
        Optional<String> value = port == 0 ? Optional.empty() : settingsOf().value(name);
        return value.isEmpty() ? relay() : parse(name, value.get());
    }

    /** How a relay names the service at {@code host:port} (IPv6 literals in brackets). */
    public static String target(String host, int port) {
        return bracket(host) + ":" + port;
    }

    private static String bracket(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /**
     * The names under which a server registers at a relay: {@code sessionj.http.names},
     * {@code sessionj.advertisedHost}, this host's name and its addresses; loopback names only when
     * the relay itself is on this host (elsewhere they would name another machine).
     */
    public List<String> serverNames(HostPort relay) {
        Set<String> names = new LinkedHashSet<>();
        SystemSettings settings = settingsOf();
        settings.value("http.names").ifPresent(extra -> {
            for (String name : extra.split(",")) {
                if (!name.isBlank()) {
                    names.add(name.strip().toLowerCase(Locale.ROOT));
                }
            }
        });
        settings.value("advertisedHost").ifPresent(advertised -> names.add(advertised.toLowerCase(Locale.ROOT)));
        boolean relayLocal = isLoopback(relay.host());
        try {
            InetAddress local = InetAddress.getLocalHost();
            names.add(local.getHostName().toLowerCase(Locale.ROOT));
            if (!local.isLoopbackAddress() || relayLocal) {
                names.add(bracket(local.getHostAddress()));
            }
        } catch (UnknownHostException e) {
            // no host name: the addresses below still serve
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address.isLinkLocalAddress() || address.isLoopbackAddress() && !relayLocal) {
                        continue;
                    }
                    String text = address.getHostAddress();
                    int zone = text.indexOf('%');
                    names.add(bracket(zone < 0 ? text : text.substring(0, zone)).toLowerCase(Locale.ROOT));
                }
            }
        } catch (SocketException e) {
            // no interfaces listed: the names above serve
        }
        if (relayLocal) {
            names.add("localhost");
        }
        List<String> list = new ArrayList<>(names);
        return list.size() > 64 ? list.subList(0, 64) : list;
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static Optional<HostPort> parse(String name, String value) {
        if (value.isBlank() || value.strip().equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        return Optional.of(HostPort.parse(SystemSettings.property(name), value.strip()));
    }

    /**
     * A host and a TCP port.
     *
     * @param host name or address (IPv6 without brackets)
     * @param port 1..65535
     */
    public record HostPort(String host, int port) {

        /** Parses {@code host:port} or {@code [v6]:port}; {@code key} names the setting in errors. */
        public static HostPort parse(String key, String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new IllegalArgumentException(key + " must be host:port, found '" + text + "'");
            }
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be host:port, found '" + text + "'", e);
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(key + ": port " + port + " is not a TCP port (1..65535)");
            }
            return new HostPort(host, port);
        }

        @Override
        public String toString() {
            return target(host, port);
        }
    }
}
