package org.sessionj.runtime.internal.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeMap;

/**
 * The JDK values that travel as text, each read back as it was sent and without a look-up a peer could
 * make dear (adv19 A7; sj-api's JdkMessageTypes lists them, docs/wire-format.md, "JDK values"):
 * <ul>
 * <li>{@code Path}: its text, read back on the default file system ({@code Path.of}). Jackson wrote
 *     {@code toUri()} — a relative path arrived absolute, made so against the sender's working directory —
 *     and read a URI of another scheme by a service-loader look-up of file system providers per value;</li>
 * <li>{@code File}: its path as given (Jackson wrote the absolute path: the same loss);</li>
 * <li>{@code TimeZone}: its ID, refused where the receiver's JDK has no zone of that ID (the JDK answers GMT
 *     for an ID it does not know: a peer's typo, or another JDK's zone, arrived as GMT, silently);</li>
 * <li>{@code Charset}: its name, looked up among the charsets the JDK has, listed once: {@code Charset.forName}
 *     asks the service providers again for every name it does not know (some 2 ms each on the machine
 *     measured, so a list of a peer's made-up names cost seconds);</li>
 * <li>{@code InetAddress}: its address literal ({@code getHostAddress()}); Jackson wrote the host name where
 *     the address had one, which its reader (literals only: it looks nothing up) then refused;</li>
 * <li>{@code InetSocketAddress}: its address literal and port where it is resolved (Jackson wrote the host
 *     name, read back unresolved: not equal), its host name and port where it is not; a literal is read back
 *     resolved, a name unresolved, so the receiver looks nothing up.</li>
 * </ul>
 */
final class JdkTexts {
    private JdkTexts() {
    }

    /** Registers the serializers and deserializers with {@code module}, and the address format with {@code mapper}. */
    static void register(SimpleModule module, ObjectMapper mapper) {
        mapper.configOverride(InetAddress.class).setFormat(JsonFormat.Value.forShape(JsonFormat.Shape.NUMBER));
        module.addSerializer(Path.class, new Text<>(Path.class));
        module.addDeserializer(Path.class, new FromText<>(Path.class));
        module.addSerializer(File.class, new Text<>(File.class));
        module.addDeserializer(TimeZone.class, new FromText<>(TimeZone.class));
        module.addDeserializer(Charset.class, new FromText<>(Charset.class));
        module.addSerializer(InetSocketAddress.class, new Text<>(InetSocketAddress.class));
        module.addDeserializer(InetSocketAddress.class, new FromText<>(InetSocketAddress.class));
    }

    /** Writes a value as {@link #text}. */
    private static final class Text<T> extends StdSerializer<T> {
        private static final long serialVersionUID = 1L;

        Text(Class<T> type) {
            super(type);
        }

        @Override
        public void serialize(T value, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeString(text(value));
        }
    }

    static String text(Object value) {
        if (value instanceof File file) {
            return file.getPath();
        }
        if (value instanceof InetSocketAddress address) {
            InetAddress resolved = address.getAddress();
            String host = resolved == null ? address.getHostString() : resolved.getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
        }
        return value.toString(); // a Path's text
    }

    /** Reads a value from its text, or refuses the text with the reason. */
    private static final class FromText<T> extends StdDeserializer<T> {
        private static final long serialVersionUID = 1L;

        private final Class<T> type;

        FromText(Class<T> type) {
            super(type);
            this.type = type;
        }

        @Override
        public T deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() != JsonToken.VALUE_STRING) {
                return type.cast(context.handleUnexpectedToken(type, in));
            }
            String text = in.getText();
            String problem;
            try {
                Object value = type == Path.class ? Path.of(text)
                        : type == TimeZone.class ? zone(text)
                        : type == Charset.class ? charset(text)
                        : socketAddress(text);
                if (value != null) {
                    return type.cast(value);
                }
                problem = type == TimeZone.class ? "no zone of that ID on this JDK"
                        : type == Charset.class ? "no charset of that name on this JDK"
                        : "not an address literal or host name and a port";
            } catch (InvalidPathException | NumberFormatException | UnknownHostException e) {
                problem = e.getMessage();
            }
            return type.cast(context.handleWeirdStringValue(type, text, problem));
        }
    }

    /** The zone whose ID is {@code id}, or null (TimeZone.getTimeZone answers GMT for an ID it does not know). */
    private static TimeZone zone(String id) {
        TimeZone zone = TimeZone.getTimeZone(id);
        return zone.getID().equals(id) ? zone : null;
    }

    /** The JDK's charsets by name and alias, case ignored: listed once, never looked up per value. */
    private static final class Charsets {
        static final Map<String, Charset> BY_NAME = byName();

        private static Map<String, Charset> byName() {
            Map<String, Charset> names = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (Charset charset : Charset.availableCharsets().values()) {
                names.put(charset.name(), charset);
                for (String alias : charset.aliases()) {
                    names.putIfAbsent(alias, charset);
                }
            }
            return java.util.Collections.unmodifiableMap(names);
        }
    }

    private static Charset charset(String name) {
        return Charsets.BY_NAME.get(name);
    }

    /**
     * {@code host:port} or {@code [v6]:port}: a resolved address where the host is an address literal (no look-up
     * is made for one), an unresolved one otherwise; null if the text has no port.
     */
    private static InetSocketAddress socketAddress(String text) throws UnknownHostException {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        int port = Integer.parseInt(text.substring(colon + 1));
        if (port < 0 || port > 0xFFFF) {
            return null;
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            String literal = host.substring(1, host.length() - 1);
            // with a colon, InetAddress reads an IPv6 literal or fails: it never looks a name up
            return literal.indexOf(':') >= 0 ? new InetSocketAddress(InetAddress.getByName(literal), port) : null;
        }
        return ipv4(host) ? new InetSocketAddress(InetAddress.getByName(host), port)
                : InetSocketAddress.createUnresolved(host, port);
    }

    /** Whether {@code host} is a dotted-quad IPv4 literal (four numbers 0-255), which InetAddress reads without a look-up. */
    private static boolean ipv4(String host) {
        int parts = 0;
        int value = -1;
        for (int i = 0; i <= host.length(); i++) {
            char c = i == host.length() ? '.' : host.charAt(i);
            if (c == '.') {
                if (value < 0 || ++parts > 4) {
                    return false;
                }
                value = -1;
            } else if (c >= '0' && c <= '9' && value < 1000) {
                value = (value < 0 ? 0 : value * 10) + (c - '0');
                if (value > 255) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return parts == 4;
    }
}
