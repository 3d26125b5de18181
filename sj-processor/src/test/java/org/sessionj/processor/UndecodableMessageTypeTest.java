package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv10 F13, compile-time half: values carry no class on the wire, so a protocol may not name a
 * message type that no receiver can decode — an interface or abstract class that is not sealed
 * (SJ018). Sealed hierarchies, {@code Object} and the JDK's collections stay allowed (the runtime
 * decodes them; docs/wire-format.md).
 */
class UndecodableMessageTypeTest {
    @Test
    void numberIsRejected() {
        assertRejected("SJ018", 3, msg("message type 'java.lang.Number' in the protocol (line 1, column 10) cannot be "
                + "decoded by a peer"), """
                import org.sessionj.api.*;
                interface P {
                  @Protocol("cbegin.!<Number>") interface Num {}
                }
                """);
    }

    @Test
    void anOpenInterfaceOfTheProgramIsRejectedAlsoAsAnElementOrArrayComponent() {
        assertRejected("SJ018", 4, msg("message type 'P.Msg'"), """
                import org.sessionj.api.*;
                interface P {
                  interface Msg {}
                  @Protocol("cbegin.?(java.util.List<Msg>)") interface Open {}
                }
                """);
        assertRejected("SJ018", 4, msg("message type 'P.Shape'"), """
                import org.sessionj.api.*;
                interface P {
                  abstract class Shape {}
                  @Protocol("cbegin.!<Shape[]>") interface Open {}
                }
                """);
    }

    @Test
    void sealedTypesObjectCollectionsAndConcreteClassesCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  sealed interface Msg permits Put, Del {}
                  record Put(String k, int v) implements Msg {}
                  record Del(String k) implements Msg {}
                  abstract sealed class Shape permits Circle {}
                  final class Circle extends Shape {}
                  @Protocol("cbegin.!<Msg>.!<Shape>.!<Object>.!<List<Msg>>.!<Map<String, Set<Integer>>>.!<Collection<Long>>"
                      + ".!<java.util.ArrayList<String>>.!<Integer>.!<Put[]>") interface Fine {}
                }
                """);
    }

    // adv11 A4: a service inside a record is sent as a plain message (the peer cannot decode it)
    @Test
    void aServiceInsideARecordIsRejected() {
        assertRejected("SJ018", 4, msg("message type 'P.Conf' in the protocol (line 1, column 10) cannot be decoded",
                "its component 'svc' has a type no peer can decode, 'org.sessionj.api.SJService': it is a session "
                        + "endpoint"), """
                import org.sessionj.api.*;
                interface P {
                  record Conf(SJService svc, int n) {}
                  @Protocol("cbegin.!<Conf>") interface Do {}
                }
                """);
    }

    @Test
    void anEndpointDeepInsideRecordsListsArraysAndSealedSubclassesIsRejected() {
        assertRejected("SJ018", 6, msg("message type 'P.Msg'", "its permitted subclass has a type no peer can "
                + "decode, P.Put: its component 'where' has a type no peer can decode, P.Where: its component 'at' has "
                + "a type no peer can decode, 'org.sessionj.api.SJServerSocket'"), """
                import org.sessionj.api.*;
                interface P {
                  sealed interface Msg permits Put {}
                  record Where(java.util.List<SJServerSocket[]> at) {}
                  record Put(String k, Where where) implements Msg {}
                  @Protocol("cbegin.!<Msg>") interface Do {}
                }
                """);
    }

    // adv11 A7: message classes the receiver cannot decode compiled and failed only at the peer
    @Test
    void aClassWithoutAWayToCreateItIsRejected() {
        assertRejected("SJ018", 4, msg("message type 'P.Pt'", "a receiver has no way to create one: give it a "
                + "no-argument constructor"), """
                import org.sessionj.api.*;
                interface P {
                  final class Pt { final int x, y; Pt(int x, int y) { this.x = x; this.y = y; } }
                  @Protocol("cbegin.!<Pt>") interface Do {}
                }
                """);
    }

    @Test
    void anInnerClassIsRejected() {
        assertRejected("SJ018", 4, msg("message type 'Outer.Pt'", "it is an inner class"), """
                import org.sessionj.api.*;
                class Outer {
                  final class Pt { public int x; }
                  @Protocol("cbegin.!<Pt>") interface Do {}
                }
                """);
    }

    @Test
    void jdkClassesTheCodecCannotReadBackAreRejected() {
        for (String type : new String[] {"java.util.BitSet", "Thread", "java.util.concurrent.locks.ReentrantLock"}) {
            assertRejected("SJ018", 3, msg("cannot be decoded by a peer: it is a JDK class the codec has no decoder "
                    + "for"), """
                    import org.sessionj.api.*;
                    interface P {
                      @Protocol("cbegin.!<%s>") interface Do {}
                    }
                    """.formatted(type));
        }
    }

    @Test
    void beansCreatorsRecursiveRecordsAndJdkValueTypesCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  final class Bean { private int a; public int getA() { return a; } public void setA(int a) { this.a = a; } }
                  final class Hidden { public int a; private Hidden() {} }
                  final class Named { final int x; @java.beans.ConstructorProperties({"x"}) Named(int x) { this.x = x; } public int getX() { return x; } }
                  final class Text { final String s; Text(String s) { this.s = s; } @com.fasterxml.jackson.annotation.JsonValue String s() { return s; } }
                  record Tree(String label, List<Tree> kids, Tree[] more) {}
                  record Box<T>(T value) {}
                  record Stamp(java.time.Instant at, java.util.UUID id, java.math.BigDecimal amount,
                      java.util.concurrent.atomic.AtomicInteger count, Optional<String> note, Object any) {}
                  @Protocol("cbegin.!<Bean>.!<Hidden>.!<Named>.!<Text>.!<Tree>.!<Box<Bean>>.!<Stamp>.!<Stamp[]>"
                      + ".!<StringBuilder>.!<java.time.LocalDate>") interface Fine {}
                }
                """);
    }

    // adv13 A2: a raw generic type's type variable is decoded as its bound
    @Test
    void aRawGenericTypeWhoseTypeVariableIsBoundedByAnOpenInterfaceIsRejected() {
        assertRejected("SJ018", 5, msg("message type 'P.Box'", "written without type arguments",
                "type parameter 'T' is read as its bound", "'java.lang.Runnable'"), """
                import org.sessionj.api.*;
                interface P {
                  record Job(int n) implements Runnable { public void run() {} }
                  record Box<T extends Runnable>(T v) {}
                  @Protocol("cbegin.!<Box>") interface Do {}
                }
                """);
        assertRejected("SJ018", 6, msg("message type 'P.Outer'", "'P.Box'", "written without type arguments"), """
                import org.sessionj.api.*;
                interface P {
                  record Job(int n) implements Runnable { public void run() {} }
                  record Box<T extends Runnable>(T v) {}
                  record Outer(Box box) {}
                  @Protocol("cbegin.!<Outer>") interface Do {}
                }
                """);
    }

    @Test
    void aNumberBoundRawArraysAndAWildcardComponentAreRejected() {
        assertRejected("SJ018", 4, msg("message type 'P.Box'", "'java.lang.Number'"), """
                import org.sessionj.api.*;
                interface P {
                  record Box<T extends Number>(T v) {}
                  @Protocol("cbegin.!<Box[]>") interface Do {}
                }
                """);
        assertRejected("SJ018", 4, msg("message type 'P.R'", "its component 'xs'", "'java.lang.Number'"), """
                import org.sessionj.api.*;
                interface P {
                  record R(java.util.List<? extends Number> xs) {}
                  @Protocol("cbegin.!<R>") interface Do {}
                }
                """);
    }

    @Test
    void theSameGenericTypeWithADecodableArgumentOrAnUnboundedRawOneCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                interface P {
                  record Job(int n) implements Runnable { public void run() {} }
                  record Box<T extends Runnable>(T v) {}
                  record Plain<T>(T v) {}
                  record Open(java.util.List<?> any, java.util.List<? super Integer> some, java.util.List<? extends Job> jobs) {}
                  @Protocol("cbegin.!<Box<Job>>.!<Plain>.!<Open>") interface Do {}
                }
                """);
    }

    /**
     * adv15 A4: a map's keys travel as strings and are read back as the declared key type: a key type of the
     * program does not round trip (a record cannot be read back from a string at all; a class with a String
     * constructor comes back made from its toString()), at the top as inside a record.
     */
    @Test
    void aMapKeyTypeOfTheProgramIsRejected() {
        assertRejected("SJ018", 4, msg("message type 'java.util.Map' in the protocol (line 1, column 10) cannot be "
                + "decoded by a peer: its key type 'P.Point' would not arrive as itself: keys travel as strings"), """
                import org.sessionj.api.*;
                interface P {
                  record Point(int x, int y) {}
                  @Protocol("cbegin.!<java.util.Map<Point, String>>") interface Keys {}
                }
                """);
        assertRejected("SJ018", 5, msg("its key type 'P.Tag' would not arrive as itself"), """
                import org.sessionj.api.*;
                interface P {
                  final class Tag { public String t; public Tag(String t) { this.t = t; } }
                  record Index(java.util.TreeMap<Tag, Integer> counts) {}
                  @Protocol("cbegin.?(Index)") interface Keys {}
                }
                """);
    }

    @Test
    void mapKeysThatReadBackAsThemselvesCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  enum Colour { RED, GREEN }
                  record Index(Map<UUID, Integer> byId, Map<Colour, String> byColour) {}
                  @Protocol("cbegin.!<Map<Object, String>>.!<Map<Long, String>>.!<Map<java.time.LocalDate, Double>>"
                      + ".!<Map<Character, String>>.!<Index>.!<SortedMap<String, List<Integer>>>") interface Keys {}
                }
                """);
    }

    /**
     * adv15 A14: a message class's own {@code @JsonTypeInfo(use = Id.CLASS)} (or MINIMAL_CLASS) would let the
     * peer name any class for the receiver to create; on a member, on the class or on a supertype.
     */
    @Test
    void classNameTypeIdsAreRejected() {
        assertRejected("SJ018", 6, msg("its member 'payload' uses @JsonTypeInfo with class names as type ids"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.JsonTypeInfo;
                interface P {
                  record Env(String kind,
                      @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS, include = JsonTypeInfo.As.WRAPPER_ARRAY) Object payload) {}
                  @Protocol("sbegin.?(Env)") interface S {}
                }
                """);
        assertRejected("SJ018", 7, msg("message type 'P.Msg'"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.JsonTypeInfo;
                interface P {
                  @JsonTypeInfo(use = JsonTypeInfo.Id.MINIMAL_CLASS)
                  sealed interface Msg permits Put {}
                  record Put(int v) implements Msg {}
                  @Protocol("cbegin.!<Msg>") interface C {}
                }
                """);
    }

    /** adv15 A16: a sealed JDK type the codec decodes as itself (InetAddress permits Inet4Address, Inet6Address). */
    @Test
    void sealedJdkTypesTheCodecDecodesCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                interface P {
                  @Protocol("cbegin.!<java.net.InetAddress>.!<java.net.InetSocketAddress>.!<java.time.ZoneId>") interface C {}
                }
                """);
    }

    @Test
    void typeIdsByNameCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
                  @JsonSubTypes({@JsonSubTypes.Type(value = Put.class, name = "put")})
                  sealed interface Msg permits Put {}
                  record Put(int v) implements Msg {}
                  @Protocol("cbegin.!<Msg>") interface C {}
                }
                """);
    }

    /**
     * adv16 A9: a generic record's map key is its type variable, bound by the protocol's type argument:
     * {@code !<R<Pt>>} for {@code record R<K>(Map<K, String> m)} has keys of type Pt (the server socket could
     * not be created at run time). Also through a generic record inside another; a key argument that
     * survives the trip is accepted.
     */
    @Test
    void aMapKeyBoundByATypeArgumentIsChecked() {
        String types = """
                import org.sessionj.api.*;
                interface P {
                  record Pt(int x, int y) {}
                  record R<K>(java.util.Map<K, String> m) {}
                  record S<V>(R<V> r, java.util.List<java.util.Map<V, Integer>> l) {}
                """;
        assertRejected("SJ018", 6, msg("message type 'P.R' in the protocol (line 1, column 10) cannot be decoded by a"
                + " peer: its component 'm' has a type no peer can decode, 'java.util.Map': its key type 'P.Pt' would"
                + " not arrive as itself"), types + """
                  @Protocol("cbegin.!<R<Pt>>") interface Keys {}
                }
                """);
        assertRejected("SJ018", 6, msg("message type 'P.S'", "its component 'r' has a type no peer can decode, P.R:"
                + " its component 'm'", "its key type 'P.Pt' would not arrive as itself"), types + """
                  @Protocol("cbegin.!<S<Pt>>") interface Keys {}
                }
                """);
        assertAccepted(types + """
                  @Protocol("cbegin.!<R<String>>") interface Names {}
                  @Protocol("cbegin.!<S<java.util.UUID>>") interface Ids {}
                }
                """);
    }

    /**
     * adv15 A21: a class travels as an object of its fields, so one the codec can create only from a single
     * value — the value class {@code Email(String)}, a private {@code Built(int)} behind a factory — compiled,
     * created and failed at the receiver ("Cannot construct instance … cannot deserialize from Object value").
     */
    @Test
    void aClassCreatedOnlyFromASingleValueIsRejected() {
        assertRejected("SJ018", 8, msg("message type 'P.Email'", "it travels as an object of its fields, but a "
                + "receiver can create one only from a single value (its one-argument constructor): give it a "
                + "no-argument constructor (any access)"), """
                import org.sessionj.api.*;
                interface P {
                  final class Email {
                    private final String address;
                    public Email(String address) { this.address = address; }
                    public String getAddress() { return address; }
                  }
                  @Protocol("cbegin.!<Email>") interface C {}
                }
                """);
        assertRejected("SJ018", 9, msg("message type 'P.Built'", "can create one only from a single value"), """
                import org.sessionj.api.*;
                interface P {
                  final class Built {
                    private final int n;
                    private Built(int n) { this.n = n; }
                    static Built of(int n) { return new Built(n); }
                    public int getN() { return n; }
                  }
                  @Protocol("cbegin.!<java.util.List<Built>>") interface C {}
                }
                """);
    }

    /** The same class travelling as its single value ({@code @JsonValue}), or with a no-argument constructor: fine. */
    @Test
    void aSingleValueClassWithJsonValueOrANoArgumentConstructorCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.JsonValue;
                interface P {
                  final class Email {
                    private final String address;
                    public Email(String address) { this.address = address; }
                    @JsonValue public String address() { return address; }
                  }
                  final class Point {
                    private int x, y;
                    private Point() {}
                    public Point(int x, int y) { this.x = x; this.y = y; }
                  }
                  @Protocol("cbegin.!<Email>.!<Point>") interface C {}
                }
                """);
    }

    /**
     * adv15 A21: a class travels as its fields, whatever their access, so a private field of a type no peer
     * can decode makes the class one (the runtime refuses it when the protocol loads); static, transient and
     * {@code @JsonIgnore}d fields do not travel.
     */
    @Test
    void aPrivateFieldOfATypeNoPeerCanDecodeIsRejected() {
        assertRejected("SJ018", 8, msg("message type 'P.Job'", "its field 'task' has a type no peer can decode, "
                + "'java.lang.Runnable': it is an interface or abstract class that is not sealed"), """
                import org.sessionj.api.*;
                interface P {
                  class Base { private Runnable task; }
                  final class Job extends Base {
                    private int n;
                    public Job() {}
                  }
                  @Protocol("cbegin.!<Job>") interface C {}
                }
                """);
        assertAccepted("""
                import org.sessionj.api.*;
                interface P {
                  final class Job {
                    private int n;
                    private static Runnable shared;
                    private transient Runnable task;
                    @com.fasterxml.jackson.annotation.JsonIgnore private Runnable ignored;
                    public Job() {}
                  }
                  @Protocol("cbegin.!<Job>") interface C {}
                }
                """);
    }

    // adv17 A9: a getter writes a property the receiver must know; the runtime refused these at load, SJ018 did not
    @Test
    void aComputedGetterIsRejected() {
        assertRejected("SJ018", 5, msg("message type 'P.Stats'", "its getter 'getTwice()' writes the property 'twice',"
                + " which a receiver does not know"), """
                import org.sessionj.api.*;
                interface P {
                  final class Stats { private int n;
                    public int getTwice() { return 2 * n; } }
                  @Protocol("cbegin.!<Stats>") interface C {}
                }
                """);
    }

    @Test
    void anAcronymGetterIsNamedAsJacksonNamesIt() {
        assertRejected("SJ018", 5, msg("message type 'P.Link'", "its getter 'getURL()' writes the property 'url'"), """
                import org.sessionj.api.*;
                interface P {
                  final class Link { private String URL;
                    public String getURL() { return URL; } }
                  @Protocol("cbegin.!<Link>") interface C {}
                }
                """);
    }

    @Test
    void aSettersParameterIsDecodedLikeAField() {
        assertRejected("SJ018", 5, msg("message type 'P.Job'", "its setter 'setTask' has a type no peer can decode"), """
                import org.sessionj.api.*;
                interface P {
                  final class Job { private int n;
                    public void setTask(Runnable task) {} }
                  @Protocol("cbegin.!<Job>") interface C {}
                }
                """);
    }

    /** False alarms: getters the receiver knows, or that the codec does not write. */
    @Test
    void gettersOfFieldsIgnoredOrOfCollectionsAreAccepted() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                import java.util.*;
                interface P {
                  final class Fine { private String url; private boolean on; private int t;
                    public String getURL() { return url; }
                    public boolean isOn() { return on; }
                    public int getT() { return t; }
                    @JsonIgnore public int getTwice() { return 2; }
                    public List<String> getNames() { return new ArrayList<>(); }
                    public static int getCount() { return 0; }
                    private int getHidden() { return 1; }
                    public Boolean isReady() { return on; }
                    public void setReady(Boolean ready) {} }
                  @JsonIgnoreProperties(ignoreUnknown = true)
                  final class Lenient { private int n; public int getTwice() { return 2 * n; } }
                  @Protocol("cbegin.!<Fine>.!<Lenient>") interface C {}
                }
                """);
    }

    // adv18 A7: the comparator does not travel, so a receiver's sorted collection needs Comparable elements
    @Test
    void aSortedCollectionOfElementsThatAreNotComparableIsRejected() {
        assertRejected("SJ018", 4, msg("message type 'java.util.TreeSet'", "it keeps its elements sorted, but 'P.Pt'"
                + " is not Comparable"), """
                import org.sessionj.api.*;
                interface P {
                  record Pt(int x, int y) {}
                  @Protocol("cbegin.!<java.util.TreeSet<Pt>>") interface C {}
                }
                """);
    }

    // adv18 A7: Jackson creates no BlockingQueue ("Cannot construct instance"), though it is a JDK collection
    @Test
    void aCollectionInterfaceTheCodecCannotCreateIsRejected() {
        assertRejected("SJ018", 3, msg("message type 'java.util.concurrent.BlockingQueue'", "it is a collection or map"
                + " interface the codec has no implementation to create for"), """
                import org.sessionj.api.*;
                interface P {
                  @Protocol("cbegin.!<java.util.concurrent.BlockingQueue<String>>") interface C {}
                }
                """);
    }

    @Test
    void sortedCollectionsOfComparablesAndCreatableQueuesAreAccepted() {
        assertAccepted("""
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  record Pt(int x, int y) implements Comparable<Pt> { public int compareTo(Pt o) { return x - o.x; } }
                  enum Colour { RED }
                  @Protocol("cbegin.!<TreeSet<Pt>>.!<SortedSet<String>>.!<PriorityQueue<Colour>>.!<TreeMap<Integer, Pt>>"
                      + ".!<java.util.concurrent.LinkedBlockingQueue<Pt>>.!<Deque<Pt>>.!<NavigableSet<Object>>") interface C {}
                }
                """);
    }
}
