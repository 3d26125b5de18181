package org.sessionj.runtime.internal.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJException;
import org.sessionj.api.SJService;
import org.sessionj.runtime.internal.wire.SmileCodec;
import org.sessionj.runtime.internal.wire.ValueCodec;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import org.sessionj.types.Payload;
import org.sessionj.types.SessionTypes;

/**
 * adv11 A4/A7, runtime half: a protocol whose message type the codec cannot read back does not start
 * (the processor reports the same types as SJ018); it used to fail at the receiver, mid-session, with
 * "Cannot construct instance of …".
 */
class UndecodableMessageTypesTest {
    /** adv11 A7: an ordinary value class without a creator. */
    public static final class Pt {
        final int x;
        final int y;

        Pt(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    /** adv11 A4: a service inside a record. */
    public record Conf(SJService svc, int n) {
    }

    public record Holder(List<Conf> confs) {
    }

    /** A getter without a setter or field: the writer writes "odd", the reader rejects it. */
    public static final class Computed {
        public int a;

        public boolean isOdd() {
            return a % 2 == 1;
        }
    }

    /** The same, with the getter kept off the wire: decodable. */
    public static final class Quiet {
        public int a;

        @JsonIgnore
        public boolean isOdd() {
            return a % 2 == 1;
        }
    }

    public static final class Bean {
        private int a;
        private Quiet quiet;

        public int getA() {
            return a;
        }

        public void setA(int a) {
            this.a = a;
        }

        public Quiet getQuiet() {
            return quiet;
        }

        public void setQuiet(Quiet quiet) {
            this.quiet = quiet;
        }
    }

    public sealed interface Shape permits Circle, Broken {
    }

    public record Circle(double r) implements Shape {
    }

    public record Broken(Pt at) implements Shape {
    }

    private static String name(Class<?> type) {
        return type.getName();
    }

    private static State compile(String type) {
        return StateMachine.compile(SessionTypes.parse(type), UndecodableMessageTypesTest.class.getClassLoader());
    }

    @Test
    void aClassWithoutACreatorFailsWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Pt.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("message type " + name(Pt.class) + " of the session type cannot be decoded by a "
                        + "receiver: " + name(Pt.class) + " has no way to be created by a receiver");
    }

    @Test
    void aServiceInsideARecordOrAListOfRecordsFailsWhenTheProtocolLoads() {
        for (Class<?> type : new Class<?>[] {Conf.class, Holder.class}) {
            assertThatThrownBy(() -> compile("cbegin.?(" + name(type) + ")")).isInstanceOf(SJException.class)
                    .hasMessageContaining("org.sessionj.api.SJService is a session endpoint, which travels only as a "
                            + "session payload");
        }
        assertThatThrownBy(() -> compile("cbegin.!<java.util.Map<java.lang.String, " + name(Conf.class) + "[]>>"))
                .isInstanceOf(SJException.class).hasMessageContaining("session endpoint");
    }

    @Test
    void jdkClassesTheCodecCannotReadBackFailWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<java.util.BitSet>")).isInstanceOf(SJException.class)
                .hasMessageContaining("java.util.BitSet writes the property 'empty', which its reader does not know");
        assertThatThrownBy(() -> compile("cbegin.!<java.lang.Thread>")).isInstanceOf(SJException.class)
                .hasMessageContaining("java.lang.Thread cannot be described by the codec");
    }

    @Test
    void aGetterWithoutASetterAndABadPermittedSubclassFailWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Computed.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("writes the property 'odd'");
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Shape.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining(name(Pt.class) + " has no way to be created");
    }

    /** adv13 A2: inside a message an open interface is decoded as itself, which no receiver can create. */
    public record Job(int n) implements Runnable {
        @Override
        public void run() {
        }
    }

    /** A raw use decodes {@code v} as {@code Runnable}. */
    public record Box<T extends Runnable>(T v) {
    }

    @Test
    void anOpenInterfaceInsideAMessageFailsWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Box.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("java.lang.Runnable (inside the message) is an interface or abstract class");
        assertThatThrownBy(() -> compile("cbegin.!<java.util.List<java.lang.Runnable>>")).isInstanceOf(SJException.class)
                .hasMessageContaining("java.lang.Runnable (inside the message)");
        assertThatCode(() -> compile("cbegin.!<" + name(Box.class) + "<" + name(Job.class) + ">>"))
                .as("a decodable argument").doesNotThrowAnyException();
    }

    /** An open message class of the program, at the top. */
    public interface Command {
    }

    /**
     * adv13 A10: at the top too, an open interface or abstract class fails when the protocol loads, as
     * SJ018 rejects it: the monitor refused every value of it at the send (a Long sent as a Number would
     * arrive as an Integer), and a side that only receives one had nothing to refuse it before its receive
     * failed.
     */
    @Test
    void anOpenInterfaceOrAbstractClassAtTheTopFailsWhenTheProtocolLoadsOnEitherSide() {
        for (String type : new String[] {"cbegin.!<java.lang.Number>", "sbegin.?(java.lang.Number)",
                "sbegin.?(java.lang.Runnable)", "cbegin.!<java.lang.CharSequence>", "cbegin.!<java.io.Serializable>",
                "cbegin.?(" + name(Command.class) + ")", "cbegin.![!<java.lang.Number>]*"}) {
            String named = type.replaceAll(".*[<(]([^>)]*)[>)].*", "$1");
            assertThatThrownBy(() -> compile(type)).as(type).isInstanceOf(SJException.class)
                    .hasMessageContaining("message type " + named + " of the session type cannot be decoded by a "
                            + "receiver: " + named + " is an interface or abstract class that is not sealed")
                    .hasMessageContaining("no peer can decode one");
        }
        assertThatThrownBy(() -> compile("cbegin.!<java.lang.Number[]>")).isInstanceOf(SJException.class)
                .hasMessageContaining("java.lang.Number (inside the message) is an interface or abstract class");
    }

    @Test
    void objectCollectionsMapsSealedAndConcreteTypesAtTheTopStillLoad() {
        assertThatCode(() -> compile("cbegin.!<java.lang.Object>.!<java.util.Collection<java.lang.Integer>>"
                + ".!<java.util.Map<java.lang.String, java.lang.Long>>.!<java.util.List<java.lang.String>>"
                + ".?(" + name(Circle.class) + ").!<java.lang.Integer>.!<java.util.Date>.!<java.time.ZoneId>"
                + ".!<java.util.AbstractList<java.lang.String>>")).doesNotThrowAnyException();
    }

    /**
     * adv19 A7 (the rest): the abstract JDK classes of sj-api's JdkMessageTypes (TimeZone, Path, Charset) load, as
     * SJ018 compiles them, and the monitor lets their values through, at the top and inside a record; they were
     * refused as open types though the codec reads them back. Class, URL and Calendar are refused with their
     * reasons (a Class loaded, and a GregorianCalendar loaded and arrived in UTC).
     */
    @Test
    void theAbstractJdkValueClassesLoadAndPassTheMonitor() {
        assertThatCode(() -> compile("cbegin.!<java.util.TimeZone>.!<java.nio.file.Path>.!<java.nio.charset.Charset>"
                + ".!<" + name(Where.class) + ">")).doesNotThrowAnyException();
        assertThat(Decoding.of(java.util.TimeZone.class).refusal(java.util.TimeZone.getTimeZone("Europe/Paris"))).isNull();
        assertThat(Decoding.of(java.nio.file.Path.class).refusal(java.nio.file.Path.of("a", "b"))).isNull();
        assertThat(Decoding.of(java.nio.charset.Charset.class).refusal(java.nio.charset.StandardCharsets.UTF_8)).isNull();
        assertThat(ValueShape.of(SmileCodec.jacksonType(Where.class)).refusal(new Where(java.nio.file.Path.of("x"),
                java.util.TimeZone.getTimeZone("UTC"), java.nio.charset.StandardCharsets.US_ASCII))).isNull();
        for (String type : new String[] {"java.lang.Class", "java.net.URL", "java.util.GregorianCalendar",
                "java.util.concurrent.atomic.LongAdder"}) {
            assertThatThrownBy(() -> compile("cbegin.!<" + type + ">")).as(type).isInstanceOf(SJException.class)
                    .hasMessageContaining(type + " " + org.sessionj.types.internal.JdkMessageTypes.REFUSED.get(type));
        }
        assertThatThrownBy(() -> compile("cbegin.!<java.lang.StringBuilder>.!<java.nio.file.attribute.FileTime>"))
                .isInstanceOf(SJException.class).hasMessageContaining("java.nio.file.attribute.FileTime");
    }

    /** A record of the abstract JDK value classes. */
    public record Where(java.nio.file.Path path, java.util.TimeZone zone, java.nio.charset.Charset charset) {
    }

    /** A class of the program made from a string: its keys would come back made from its toString(). */
    public static final class Tag {
        public String text;

        public Tag(String text) {
            this.text = text;
        }
    }

    /**
     * adv15 A4: a map's keys travel as strings and are read back as the declared key type, so a key type of
     * the program does not round trip (a record key cannot be read back at all: "Cannot find a (Map) Key
     * deserializer"; a class with a String constructor comes back made from its toString()). Refused when the
     * protocol loads, also inside a record or a list; strings, boxes, enums, Object and the JDK's value types
     * with a key decoder still load.
     */
    @Test
    void mapKeysThatWouldNotArriveAsThemselvesFailWhenTheProtocolLoads() {
        for (String key : new String[] {name(Circle.class), name(Tag.class), name(Bean.class)}) {
            assertThatThrownBy(() -> compile("cbegin.!<java.util.Map<" + key + ", java.lang.String>>"))
                    .as(key).isInstanceOf(SJException.class)
                    .hasMessageContaining(key + " is the key type of a map and would not arrive as itself: keys travel as strings");
        }
        assertThatThrownBy(() -> compile("cbegin.?(java.util.List<java.util.TreeMap<" + name(Tag.class) + ", java.lang.Integer>>)"))
                .isInstanceOf(SJException.class).hasMessageContaining("is the key type of a map");
        assertThatCode(() -> compile("cbegin.!<java.util.Map<java.lang.Object, java.lang.String>>"
                + ".!<java.util.Map<java.lang.Integer, java.lang.String>>.!<java.util.Map<java.util.UUID, java.lang.String>>"
                + ".!<java.util.Map<java.time.LocalDate, java.lang.String>>.!<java.util.Map<java.util.Locale, java.lang.String>>"
                + ".!<java.util.Map<java.lang.Thread$State, java.lang.String>>.!<java.util.Map<java.math.BigDecimal, "
                + "java.lang.String>>.!<java.util.Map<java.lang.Character, java.lang.Long>>")).doesNotThrowAnyException();
    }

    /** adv15 A14: the "envelope with any payload" idiom, naming the payload's class on the wire. */
    public record Env(String kind,
            @com.fasterxml.jackson.annotation.JsonTypeInfo(use = com.fasterxml.jackson.annotation.JsonTypeInfo.Id.CLASS,
                    include = com.fasterxml.jackson.annotation.JsonTypeInfo.As.WRAPPER_ARRAY) Object payload) {
    }

    /** Any class on the receiver's class path that a hostile peer might name. */
    public static final class Victim {
        static volatile boolean constructed;

        public Victim() {
            constructed = true;
        }

        public void setCommand(String command) {
            constructed = true;
        }
    }

    /**
     * adv15 A14: class names as type ids let the peer choose what the receiver creates. A protocol whose
     * message type uses them does not load, and the codec itself refuses to resolve a class name from the
     * wire even where no load check ran: the hostile bytes of the finding are not decoded and the named
     * class is never created.
     */
    @Test
    void classNameTypeIdsAreRefusedAtLoadAndByTheCodec() throws Exception {
        assertThatThrownBy(() -> compile("sbegin.?(" + name(Env.class) + ")")).isInstanceOf(SJException.class)
                .hasMessageContaining(name(Env.class) + " cannot be described by the codec: it uses @JsonTypeInfo with "
                        + "class names as type ids (Id.CLASS or Id.MINIMAL_CLASS), which would let a peer choose which "
                        + "class this side creates");
        byte[] hostile = new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.smile.SmileFactory())
                .writeValueAsBytes(java.util.Map.of("kind", "hello", "payload",
                        List.of(name(Victim.class), java.util.Map.of("command", "rm -rf /"))));
        var type = SmileCodec.jacksonType(new Payload.JavaType(name(Env.class), List.of(), 0), getClass().getClassLoader());
        assertThatThrownBy(() -> SmileCodec.readerFor(type).readValue(hostile)).isInstanceOf(Exception.class);
        assertThat(Victim.constructed).as("the class the peer named was created").isFalse();
    }

    public record Zoned(java.time.Instant at, java.time.ZoneId zone) {
    }

    /** adv15 A28: a sealed type of the JDK inside a message is decoded by its own decoder, as at the top. */
    @Test
    void aSealedJdkTypeInsideAMessageLoads() {
        assertThatCode(() -> compile("cbegin.!<" + name(Zoned.class) + ">.!<java.util.List<java.time.ZoneId>>"))
                .doesNotThrowAnyException();
    }

    public sealed interface Msg<T> permits Put {
    }

    public record Put<T>(T v) implements Msg<T> {
    }

    public record Named(String name) {
    }

    /** An open class and a subclass of it, which would arrive as the open class. */
    public static class Base {
        public int a;
    }

    public static class Sub extends Base {
        public int b;
    }

    private static ValueShape shape(Class<?> generic, Class<?> argument) throws ClassNotFoundException {
        return ValueShape.of(SmileCodec.jacksonType(new Payload.JavaType(name(generic),
                List.of(new Payload.JavaType(name(argument), List.of(), 0)), 0), UndecodableMessageTypesTest.class.getClassLoader()));
    }

    /**
     * adv15 A29: a value of a generic sealed type is walked with the declared type arguments carried over to
     * its class (a Put of Msg&lt;Named&gt; has a Named component), not as the raw class, whose component would be
     * read as Object and refused on every send; what would not arrive as itself is still refused.
     */
    @Test
    void aGenericSealedMessageIsWalkedWithItsTypeArguments() throws Exception {
        assertThat(shape(Msg.class, Named.class).refusal(new Put<>(new Named("a")))).isNull();
        assertThat(shape(Msg.class, Long.class).refusal(new Put<>(5L))).isNull();
        assertThat(shape(Msg.class, Base.class).refusal(new Put<>(new Sub())))
                .contains("at .v: a " + name(Sub.class) + " would arrive as a " + name(Base.class));
    }

    /** adv15 A21: a value class made only from a single value (a private constructor, a factory). */
    public static final class Email {
        private final String address;

        public Email(String address) {
            this.address = address;
        }

        public String getAddress() {
            return address;
        }
    }

    /** The builder/factory idiom: a private one-argument constructor, a static factory, a getter. */
    public static final class Built {
        private final int n;

        private Built(int n) {
            this.n = n;
        }

        public static Built of(int n) {
            return new Built(n);
        }

        public int getN() {
            return n;
        }
    }

    /** A creator parameter that no field or getter writes: it would be created as zero. */
    public static final class Lost {
        public final int a;

        @com.fasterxml.jackson.annotation.JsonCreator
        public Lost(@com.fasterxml.jackson.annotation.JsonProperty("a") int a,
                @com.fasterxml.jackson.annotation.JsonProperty("scale") int scale) {
            this.a = a * scale;
        }
    }

    /** Private fields without getters, a no-argument constructor: decodable (its fields travel). */
    public static final class Pojo {
        private int x;
        private String name;
    }

    /**
     * adv15 A21: a class written as its properties that a receiver could create only from a single value
     * compiled, created and failed at the receiver ("Cannot construct instance … cannot deserialize from
     * Object value"); a creator parameter no property writes arrived as zero. Both are refused when the
     * protocol loads, naming the class and the fix; a POJO with private fields loads (they travel).
     */
    @Test
    void aClassTheReceiverCouldNotCreateFromItsPropertiesFailsWhenTheProtocolLoads() {
        for (Class<?> type : new Class<?>[] {Email.class, Built.class}) {
            assertThatThrownBy(() -> compile("cbegin.!<" + name(type) + ">")).as(type.getSimpleName())
                    .isInstanceOf(SJException.class)
                    .hasMessageContaining(name(type) + " is written as its properties [")
                    .hasMessageContaining("but a receiver can create one only from a single value (a one-argument "
                            + "constructor or factory): give it a no-argument constructor");
        }
        assertThatThrownBy(() -> compile("sbegin.?(java.util.List<" + name(Lost.class) + ">)"))
                .isInstanceOf(SJException.class)
                .hasMessageContaining(name(Lost.class) + "'s creator takes 'scale', which its writer does not write");
        assertThatCode(() -> compile("cbegin.!<" + name(Pojo.class) + ">")).doesNotThrowAnyException();
    }

    /** A private field of an open interface type: it travels now, so no receiver could decode the class. */
    public static final class Chore {
        private int n;
        private Runnable task;
        private transient Runnable cached;
        private static Runnable shared;
    }

    public static final class Quieter {
        private int n;
        private transient Runnable cached;
        @JsonIgnore
        private Runnable ignored;
    }

    /** adv15 A21: the fields that travel are checked like a record's components; the others are not. */
    @Test
    void aPrivateFieldNoPeerCanDecodeFailsWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Chore.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("java.lang.Runnable (inside the message) is an interface or abstract class");
        assertThatCode(() -> compile("cbegin.!<" + name(Quieter.class) + ">")).doesNotThrowAnyException();
    }

    /** Its field 'a' is dropped by name on both ends: it arrived at 0, silently. */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties({"a"})
    public static final class IgnoredByName {
        private int a;
        private int b;
    }

    /** Names only a field that does not travel, and ignores unknown properties: harmless. */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = "cache", ignoreUnknown = true)
    public static final class IgnoresNoTraveller {
        private int a;
        private transient int cache;
    }

    /** A class's @JsonIgnoreProperties naming a field that travels is refused as SJ018 refuses it. */
    @Test
    void jsonIgnorePropertiesNamingAFieldThatTravelsFailsWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(IgnoredByName.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("its field 'a' would not arrive: @JsonIgnoreProperties names it");
        assertThatCode(() -> compile("cbegin.!<" + name(IgnoresNoTraveller.class) + ">")).doesNotThrowAnyException();
    }

    /** Its y is dropped by Jackson wherever it travels through Jackson. */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties("y")
    public record FlatIgnoring(int x, int y) {
    }

    /** Not flat (a list component): it always travels through Jackson, and its y would be dropped. */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties("y")
    public record ListIgnoring(int x, List<String> y) {
    }

    /**
     * A flat record sent as itself (or an array of it) travels field by field, never through Jackson (sj-api's
     * FlatRecords): its annotations do nothing and it loads, as SJ018 compiles it; inside a list, or not flat, it
     * travels through Jackson and is refused.
     */
    @Test
    void aFlatRecordsJacksonAnnotationsMatterOnlyWhereItTravelsThroughJackson() {
        assertThatCode(() -> compile("cbegin.!<" + name(FlatIgnoring.class) + ">")).doesNotThrowAnyException();
        assertThatCode(() -> compile("cbegin.!<" + name(FlatIgnoring.class) + "[]>")).doesNotThrowAnyException();
        assertThatThrownBy(() -> compile("cbegin.!<java.util.List<" + name(FlatIgnoring.class) + ">>"))
                .isInstanceOf(SJException.class).hasMessageContaining("its field 'y' would not arrive");
        assertThatThrownBy(() -> compile("cbegin.!<" + name(ListIgnoring.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("its field 'y' would not arrive");
    }

    /** adv21 B4: a null name arrived as "anon" (NON_NULL left it out, the receiver kept the field's default). */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public static final class Included {
        private int a;
        private String name = "anon";
    }

    /** adv21 B4 J04: Jackson drops a property of an ignored type; it arrived null. */
    @com.fasterxml.jackson.annotation.JsonIgnoreType
    public static final class Audit {
        private int by;
    }

    /** Its audit would not arrive. */
    public static final class Audited {
        private int a;
        private Audit audit;
    }

    /** A field of a {@code @JsonIgnoreType} class is refused though the codec's properties do not show it (J04). */
    @Test
    void aFieldOfAnIgnoredTypeFailsWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Audited.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("its field 'audit' has a type no peer can decode").hasMessageContaining(
                        "it is @JsonIgnoreType");
    }

    /** A Jackson annotation the load check does not model is refused, as SJ018 refuses it (adv21 B4-B6). */
    @Test
    void aJacksonAnnotationNotModelledFailsWhenTheProtocolLoads() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Included.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining("it is @JsonInclude: neither check models what it does to the value");
    }

    private static Payload.JavaType java(String name, Payload.JavaType... arguments) {
        return new Payload.JavaType(name, List.of(arguments), 0);
    }

    private static ValueShape shapeOf(Payload.JavaType type) throws ClassNotFoundException {
        return ValueShape.of(SmileCodec.jacksonType(type, UndecodableMessageTypesTest.class.getClassLoader()));
    }

    /**
     * adv16 A8: an AtomicReference holding itself reached Jackson, whose reference serializer recursed into a
     * StackOverflowError (a raw Error out of send); the walk refuses it where it refers back, as for a list.
     */
    @Test
    void aReferenceThatHoldsItselfIsRefusedByTheWalk() throws Exception {
        var cycle = new java.util.concurrent.atomic.AtomicReference<Object>();
        cycle.set(cycle);
        assertThat(shapeOf(java("java.util.concurrent.atomic.AtomicReference", java("java.lang.Object"))).refusal(cycle))
                .contains("the value contains itself");
    }

    /**
     * adv16 A15: a map key of a subclass of a concrete key type (a Timestamp where the keys are Dates) arrived
     * as the declared class, so map.get(sent key) was null at the receiver; refused by the walk like a value.
     */
    @Test
    void aMapKeyOfASubclassOfTheKeyTypeIsRefusedByTheWalk() throws Exception {
        ValueShape dates = shapeOf(java("java.util.Map", java("java.util.Date"), java("java.lang.String")));
        assertThat(dates.refusal(java.util.Map.of(new java.sql.Timestamp(1000L), "t")))
                .contains("a map key").contains("(a java.sql.Timestamp) where the key type is java.util.Date would "
                        + "arrive as a java.util.Date");
        assertThat(dates.refusal(java.util.Map.of(new java.util.Date(1000L), "d"))).isNull();
        assertThat(shapeOf(java("java.util.Map", java("java.lang.String"), java("java.lang.String"))).closed()).as("final keys: nothing to walk").isTrue();
    }

    @Test
    void decodableTypesStillLoad() {
        assertThatCode(() -> compile("cbegin.!<" + name(Bean.class) + ">.!<" + name(Quiet.class) + ">.!<"
                + name(Circle.class) + ">.!<java.util.List<" + name(Bean.class) + ">>.!<java.lang.Object>"
                + ".!<java.time.Instant>.!<java.util.Optional<java.lang.String>>.!<java.lang.Object[]>"
                + ".!<cbegin.!<int>>")).doesNotThrowAnyException();
    }

    /** adv11 A4's second shape: a service inside an {@code Object[]} is refused by the encoder. */
    @Test
    void aServiceInsideAnObjectArrayIsNotEncoded() throws Exception {
        var type = SmileCodec.jacksonType(new Payload.JavaType("java.lang.Object", List.of(), 1), getClass().getClassLoader());
        SJService service = (SJService) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SJService.class}, (proxy, method, arguments) -> null);
        var buf = Unpooled.buffer();
        assertThatThrownBy(() -> ValueCodec.writeObject(new ByteBufFrame(buf), SmileCodec.writerFor(type),
                new Object[] {1, service})).isInstanceOf(InvalidDefinitionException.class)
                .hasMessageContaining("a session endpoint");
    }
}
