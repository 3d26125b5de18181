package org.sessionj.types.internal;

import java.util.Map;
import java.util.Set;

/**
 * The JDK classes a message (or a part of one) may be, and the ones it may not, with why: one table read by
 * the processor's SJ018 (from the source) and by the runtime's load check and send-time monitor (sj-runtime's
 * Decodability and Decoding), so the two sides cannot disagree about a JDK class (adv19 A7). Collections,
 * maps, {@code Map.Entry}, arrays and enums are not listed: their own rules decide them.
 *
 * <p>Invariant: <em>every class in {@link #VALUES} is one the runtime's codec writes and reads back equal
 * to itself, and that is safe to read from a peer</em> (no class loading, no name lookup, no look-up among
 * service providers per value): sj-runtime's JdkMessageTypesTest round-trips a value of each through the real
 * codec and asks the load check, so the table cannot drift from the codec. A JDK class in neither table is
 * refused by both sides as one the codec has no decoder for. docs/wire-format.md, "JDK values", says how each
 * travels.
 */
public final class JdkMessageTypes {
    private JdkMessageTypes() {
    }

    /** The JDK classes the codec reads back as sent, each with how it travels (docs/wire-format.md). */
    public static final Map<String, String> VALUES = Map.ofEntries(
            Map.entry("java.lang.Object", "its JSON-like form (maps, lists, strings, numbers, booleans)"),
            Map.entry("java.lang.String", "its text"),
            Map.entry("java.lang.StringBuilder", "its text"),
            Map.entry("java.lang.StringBuffer", "its text"),
            Map.entry("java.lang.Character", "a one-character text"),
            Map.entry("java.lang.Boolean", "a boolean"),
            Map.entry("java.lang.Byte", "a number"),
            Map.entry("java.lang.Short", "a number"),
            Map.entry("java.lang.Integer", "a number"),
            Map.entry("java.lang.Long", "a number"),
            Map.entry("java.lang.Float", "a number"),
            Map.entry("java.lang.Double", "a number"),
            Map.entry("java.lang.Void", "null"),
            Map.entry("java.lang.StackTraceElement", "an object of its parts"),
            Map.entry("java.math.BigInteger", "a number (a peer's digits bounded: sessionj.codec.maxNumberLength)"),
            Map.entry("java.math.BigDecimal", "a number (its scale bounded: sessionj.codec.maxNumberScale)"),
            Map.entry("java.util.UUID", "its 16 bytes"),
            Map.entry("java.util.Locale", "its language tag"),
            Map.entry("java.util.Currency", "its ISO 4217 code"),
            Map.entry("java.util.Date", "its milliseconds from the epoch"),
            Map.entry("java.util.TimeZone", "its ID, read back as the JDK's zone of that ID (an ID the receiver's "
                    + "JDK does not know is refused, not read as GMT; a custom SimpleTimeZone's rules do not travel)"),
            Map.entry("java.util.Optional", "its value or null"),
            Map.entry("java.util.OptionalInt", "its value or null"),
            Map.entry("java.util.OptionalLong", "its value or null"),
            Map.entry("java.util.OptionalDouble", "its value or null"),
            Map.entry("java.util.regex.Pattern", "its text and flags (compiled, never matched, by the receiver)"),
            Map.entry("java.util.concurrent.atomic.AtomicBoolean", "its value"),
            Map.entry("java.util.concurrent.atomic.AtomicInteger", "its value"),
            Map.entry("java.util.concurrent.atomic.AtomicLong", "its value"),
            Map.entry("java.util.concurrent.atomic.AtomicReference", "its value"),
            Map.entry("java.net.URI", "its text"),
            Map.entry("java.net.InetAddress", "its address literal, never a host name (the receiver looks "
                    + "nothing up; the sender's host name does not travel)"),
            Map.entry("java.net.InetSocketAddress", "its address literal and port, or, unresolved, its host name "
                    + "and port (read back unresolved: the receiver looks nothing up)"),
            Map.entry("java.io.File", "its path as given (a relative path stays relative)"),
            Map.entry("java.nio.file.Path", "its path text, read back on the receiver's default file system "
                    + "(a path of another file system, a zip's, arrives as a default one)"),
            Map.entry("java.nio.charset.Charset", "its canonical name, read back among the charsets the receiver's "
                    + "JDK has (looked up once, never among the service providers per value)"),
            Map.entry("java.nio.ByteBuffer", "its remaining bytes"),
            Map.entry("java.sql.Date", "its milliseconds from the epoch"),
            Map.entry("java.sql.Time", "its local time text"),
            Map.entry("java.sql.Timestamp", "its instant in ISO-8601 text, nanoseconds included"),
            Map.entry("java.time.Instant", "seconds and nanoseconds"),
            Map.entry("java.time.Duration", "seconds and nanoseconds"),
            Map.entry("java.time.LocalDate", "its fields"),
            Map.entry("java.time.LocalTime", "its fields"),
            Map.entry("java.time.LocalDateTime", "its fields"),
            Map.entry("java.time.OffsetDateTime", "ISO-8601 text with its offset"),
            Map.entry("java.time.OffsetTime", "its fields and offset"),
            Map.entry("java.time.ZonedDateTime", "ISO-8601 text with its offset and zone ID"),
            Map.entry("java.time.ZoneId", "its ID"),
            Map.entry("java.time.ZoneOffset", "its ID"),
            Map.entry("java.time.Period", "ISO-8601 text"),
            Map.entry("java.time.Year", "a number"),
            Map.entry("java.time.YearMonth", "its fields"),
            Map.entry("java.time.MonthDay", "ISO-8601 text"));

    /**
     * The JDK classes refused with a reason of their own (completing "it …"): they have a decoder, but what it
     * reads back is not what was sent, or reading one from a peer is not safe.
     */
    public static final Map<String, String> REFUSED = Map.of(
            "java.lang.Class", "names a class, which a receiver would load and initialise from a peer's text "
                    + "(its static initialiser runs); send the name as a String and map it to a class the program knows",
            "java.net.URL", "is a URL, whose equals and hashCode look the host name up (a receiver's set or map of a "
                    + "peer's URLs would resolve every host the peer names), and whose protocol handler is looked "
                    + "up among the service providers for every protocol the JDK does not know; send a URI "
                    + "(URI.toURL() where a URL is needed)",
            "java.util.Calendar", "travels as its instant only: its time zone, locale and calendar rules do not "
                    + "(a receiver's Calendar is in UTC), so it would not arrive equal; send a ZonedDateTime",
            "java.util.GregorianCalendar", "travels as its instant only: its time zone, locale and calendar rules "
                    + "do not (a receiver's Calendar is in UTC), so it would not arrive equal; send a ZonedDateTime",
            "java.util.concurrent.atomic.LongAdder", "is written as its sum, from which no receiver can create one; "
                    + "send the sum (a long)",
            "java.util.concurrent.atomic.DoubleAdder", "is written as its sum, from which no receiver can create "
                    + "one; send the sum (a double)",
            "java.net.Inet4Address", "is a subclass the codec cannot create; declare InetAddress (the receiver "
                    + "creates the subclass the address literal needs)",
            "java.net.Inet6Address", "is a subclass the codec cannot create; declare InetAddress (the receiver "
                    + "creates the subclass the address literal needs)");

    /**
     * The JDK classes (beyond enums, {@code Object} and {@code String}) a map's keys may be: keys travel as
     * text, and these are read back from their text as they were (the boxes, the java.time values Jackson's
     * module has key readers for, and the value types with a key reader of their own).
     */
    public static final Set<String> KEYS = Set.of("java.lang.Object", "java.lang.String", "java.lang.Character",
            "java.lang.Boolean", "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long",
            "java.lang.Float", "java.lang.Double", "java.util.UUID", "java.util.Locale", "java.util.Currency",
            "java.net.URI", "java.util.Date", "java.math.BigInteger", "java.math.BigDecimal", "java.time.Instant",
            "java.time.Duration", "java.time.LocalDate", "java.time.LocalTime", "java.time.LocalDateTime",
            "java.time.OffsetDateTime", "java.time.OffsetTime", "java.time.ZonedDateTime", "java.time.ZoneId",
            "java.time.ZoneOffset", "java.time.Period", "java.time.Year", "java.time.YearMonth", "java.time.MonthDay");

    /**
     * The JDK's collection and map interfaces and abstract classes the codec creates a default implementation
     * for (Jackson's {@code BasicDeserializerFactory.ContainerDefaultMappings}, which is not public: ArrayList,
     * HashSet, LinkedHashSet, TreeSet, LinkedList, LinkedHashMap, TreeMap, ConcurrentHashMap,
     * ConcurrentSkipListMap) or has a decoder of its own for ({@code EnumSet}: adv19 A7); any other
     * ({@code BlockingQueue}, {@code TransferQueue}) it cannot create at all (adv18 A7).
     */
    public static final Set<String> CONTAINER_DEFAULTS = Set.of("java.util.Collection", "java.util.List",
            "java.util.Set", "java.util.SortedSet", "java.util.Queue", "java.util.AbstractList",
            "java.util.AbstractSet", "java.util.Deque", "java.util.NavigableSet", "java.util.SequencedCollection",
            "java.util.SequencedSet", "java.util.Map", "java.util.AbstractMap", "java.util.concurrent.ConcurrentMap",
            "java.util.SortedMap", "java.util.NavigableMap", "java.util.concurrent.ConcurrentNavigableMap",
            "java.util.SequencedMap", "java.util.EnumSet");

    /**
     * The kind of single value a type is written as, for the types whose one-argument constructor the codec
     * finds by itself and uses to create a value from that value alone (Jackson's single-argument creators):
     * a string, an int, a long, a double, a boolean, a BigInteger, a BigDecimal. A type written as another's
     * kind is in {@link #WRITTEN_AS}.
     */
    public static final Map<String, String> SINGLE_VALUE_KINDS = Map.ofEntries(
            Map.entry("java.lang.String", "string"), Map.entry("java.lang.CharSequence", "string"),
            Map.entry("int", "int"), Map.entry("java.lang.Integer", "int"),
            Map.entry("long", "long"), Map.entry("java.lang.Long", "long"),
            Map.entry("double", "double"), Map.entry("java.lang.Double", "double"),
            Map.entry("boolean", "boolean"), Map.entry("java.lang.Boolean", "boolean"),
            Map.entry("java.math.BigInteger", "BigInteger"),
            Map.entry("java.math.BigDecimal", "BigDecimal"));

    /** The kinds a {@code @JsonValue} of another type is written as (a short is written as an int). */
    public static final Map<String, String> WRITTEN_AS = Map.of("short", "int", "java.lang.Short", "int",
            "byte", "int", "java.lang.Byte", "int", "float", "double", "java.lang.Float", "double");

    /** The single-value kind a {@code @JsonValue} of the type named {@code name} is written as, or null. */
    public static String writtenKind(String name) {
        String kind = WRITTEN_AS.get(name);
        return kind != null ? kind : SINGLE_VALUE_KINDS.get(name);
    }

    /** Whether the class named {@code name} is the JDK's (its state and codec are the JDK's and Jackson's). */
    public static boolean jdk(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.");
    }
}
