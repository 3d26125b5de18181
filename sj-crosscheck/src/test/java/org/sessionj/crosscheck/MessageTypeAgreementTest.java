package org.sessionj.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sessionj.api.SJException;
import org.sessionj.api.SJService;
import org.sessionj.crosscheck.harness.InProcessCompiler;
import org.sessionj.crosscheck.harness.InProcessCompiler.Mode;
import org.sessionj.processor.SessionProcessor;

/**
 * SJ018 (the processor, from the source) and the runtime's load check ({@code SJService.create}, from the
 * class files, asking the codec) decide the same on the same classes: a message type is refused by both
 * or by neither, and the expected way. Each case is compiled twice — with the processor, for its verdict;
 * without it, for class files the runtime loads. The cases are the ones where the two have differed
 * (adv16 A9 and its addendum: a map key that a generic type gets from a type argument — through a record
 * component, a class's field, a sealed type's permitted subclass, a raw use's bound, a list; an array key;
 * adv16 A18: a property kept to one side by {@code @JsonProperty(access = …)}; adv17 A7: a field hiding a
 * superclass's field of the same name; adv19 A5–A7: creators read as the codec reads them, {@code EnumSet},
 * {@code Map.Entry}; adv20 A5: Jackson annotations neither read) and a sample of SJ018's
 * other rules, so that a change to one side alone shows here. Names in the protocols are qualified as the
 * runtime needs them without the processor (imports are not visible at run time).
 */
class MessageTypeAgreementTest {
    private static final InProcessCompiler COMPILER = InProcessCompiler.withJvmClassPath();
    private static final String TYPES = """
            import com.fasterxml.jackson.annotation.JsonProperty;
            import java.util.*;
              public record Pt(int x, int y) {}
              public record R<K>(Map<K, String> m) {}
              public record Bounded<K extends Pt>(Map<K, String> m) {}
              public static final class Box<K> { public Map<K, Integer> m = new HashMap<>(); }
              public sealed interface Msg<K> permits Put, Stop {}
              public record Put<K>(Map<K, Integer> m) implements Msg<K> {}
              public record Stop<K>() implements Msg<K> {}
              public sealed interface Swapped<A, B> permits Pair {}
              public record Pair<X, Y>(Map<Y, X> m) implements Swapped<Y, X> {}
              public static final class Ro { @JsonProperty(access = JsonProperty.Access.READ_ONLY) public int a; public int b; }
              public static final class Wo { @JsonProperty(access = JsonProperty.Access.WRITE_ONLY) public int a; public int b; }
              public static final class Email { private final String address; public Email(String a) { address = a; } }
              public static final class Job { private Runnable task; public Job() {} }
              public record Holder(org.sessionj.api.SJService svc) {}
              public final class Inner { public int n; }
              public record RoRec(@JsonProperty(access = JsonProperty.Access.READ_ONLY) int a, int b) {}
              public static class Sup { private int x = 1; }
              public static final class Hides extends Sup { private int x = 2; }
              public static final class Fine { private int n; private List<Pt> pts; private Map<UUID, Pt> byId; }
              public static final class Locked { private final Object lock = new Object(); private int n; }
              public static final class AnyField { private Object any; private List<Object> many; }
              public static final class SeqField { private CharSequence text; }
              public static final class Gen<T> { private T value; }
              public static final class Trans { private transient Thread t; private static Thread s; private int n; }
              public static final class Computed { private int n; public int getTwice() { return 2 * n; } }
              public static final class ComputedIgnored { private int n; @com.fasterxml.jackson.annotation.JsonIgnore public int getTwice() { return 2 * n; } }
              @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
              public static final class IgnoresUnknown { private int n; public int getTwice() { return 2 * n; } }
              public static final class Acronym { private String url; public String getURL() { return url; } }
              public static final class AcronymField { private String URL; public String getURL() { return URL; } }
              public static final class AcronymSetter { private String link; public String getURL() { return link; } public void setURL(String u) { link = u; } }
              public static final class IsComputed { private int n; public boolean isEmpty() { return n == 0; } }
              public static final class IsBoxed { private int n; public Boolean isEmpty() { return n == 0; } }
              public static final class IsBacked { private boolean on; public boolean isOn() { return on; } }
              public static final class Named { private int n; @JsonProperty("total") public int total() { return n; } }
              public static final class Renamed { @JsonProperty("total") private int n; public int getN() { return n; } }
              public static final class GetterOfField { private int n; public int getN() { return n; } }
              public static final class StaticGetter { private int n; public static int getCount() { return 0; } }
              public static final class PrivateGetter { private int n; private int getTwice() { return 2 * n; } }
              public static final class ListGetter { private int n; public List<String> getNames() { return new ArrayList<>(); } }
              public static final class Accessors { private int n; public Runnable getTask() { return null; } public void setTask(Runnable r) {} }
              public static final class SetterOnly { private int n; public void setTask(Runnable r) {} }
              public static final class TransGetter { private transient int t; public int getT() { return t; } }
              public static class Base { private int n; public int getTwice() { return 2 * n; } }
              public static final class Derived extends Base { private int m; }
              public static final class Unnamed { final int x, y; @com.fasterxml.jackson.annotation.JsonCreator Unnamed(int x, int y) { this.x = x; this.y = y; } }
              public static final class UnnamedOf { final int x, y; private UnnamedOf(int x, int y) { this.x = x; this.y = y; }
                @com.fasterxml.jackson.annotation.JsonCreator public static UnnamedOf of(int x, int y) { return new UnnamedOf(x, y); } }
              public static final class Delegating { final String t; @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING) Delegating(String t) { this.t = t; } }
              public static final class NamedCreator { final int x, y; @com.fasterxml.jackson.annotation.JsonCreator NamedCreator(@JsonProperty("x") int x, @JsonProperty("y") int y) { this.x = x; this.y = y; } }
              public static final class ValueOnly { String t = "x"; ValueOnly() {} @com.fasterxml.jackson.annotation.JsonValue String value() { return t; } }
              public static final class ValueWrongCtor { String t = "x"; ValueWrongCtor() {} ValueWrongCtor(int n) {} @com.fasterxml.jackson.annotation.JsonValue String value() { return t; } }
              public static final class ValueAndCtor { String t = ""; ValueAndCtor() {} ValueAndCtor(String t) { this.t = t; } @com.fasterxml.jackson.annotation.JsonValue String value() { return t; } }
              public static final class IntValue { final int n; IntValue(long n) { this.n = (int) n; } @com.fasterxml.jackson.annotation.JsonValue int n() { return n; } }
              public static final class UuidValue { final UUID id; private UuidValue(UUID id) { this.id = id; }
                @com.fasterxml.jackson.annotation.JsonCreator public static UuidValue of(UUID id) { return new UuidValue(id); } @com.fasterxml.jackson.annotation.JsonValue UUID id() { return id; } }
              @com.fasterxml.jackson.annotation.JsonFormat(shape = com.fasterxml.jackson.annotation.JsonFormat.Shape.OBJECT) public enum ObjColor { RED, GREEN; public int getCode() { return ordinal(); } }
              public record HasObjColor(ObjColor c) {}
              @com.fasterxml.jackson.annotation.JsonFormat(shape = com.fasterxml.jackson.annotation.JsonFormat.Shape.OBJECT) public enum ReadColor { RED, GREEN;
                public String getName() { return name(); }
                @com.fasterxml.jackson.annotation.JsonCreator public static ReadColor of(@JsonProperty("name") String name) { return valueOf(name); } }
              public static final class IgnoredGetter { private int a; public IgnoredGetter() {} @com.fasterxml.jackson.annotation.JsonIgnore public int getA() { return a; } }
              public static final class TwoOnOne { @JsonProperty("b") private int a; private int b; }
              public static final class AnyGetter { private int total; private Map<String, Object> extra = new HashMap<>(); @com.fasterxml.jackson.annotation.JsonAnyGetter Map<String, Object> extra() { return extra; } }
              public static final class AnyBoth { private Map<String, Object> extra = new HashMap<>(); @com.fasterxml.jackson.annotation.JsonAnyGetter Map<String, Object> extra() { return extra; }
                @com.fasterxml.jackson.annotation.JsonAnySetter void put(String k, Object v) { extra.put(k, v); } }
              public static final class SetterAnn { private int a; @com.fasterxml.jackson.annotation.JsonSetter("a") void putA(String s) {} }
              public static final class GetterAnn { private int total; @com.fasterxml.jackson.annotation.JsonGetter("sum") int computeSum() { return total; } }
              public static final class Serialized { @com.fasterxml.jackson.databind.annotation.JsonSerialize(using = com.fasterxml.jackson.databind.ser.std.ToStringSerializer.class) private int[] v; }
              public static final class Raw { @com.fasterxml.jackson.annotation.JsonRawValue private String raw; }
              public static final class Unwrapped { @com.fasterxml.jackson.annotation.JsonUnwrapped private Pt in; }
              public static final class KeptField { @JsonProperty private int a; @com.fasterxml.jackson.annotation.JsonIgnore public int getA() { return a; } }
              public static final class RenamedOnly { @JsonProperty("x") private int a; private int b; }
              @com.fasterxml.jackson.annotation.JsonIgnoreProperties({"a"}) public static final class IgnoredByName { private int a; private int b; }
              @com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = "y", ignoreUnknown = true) public record IgnoredComponent(int x, int y) {}
              public static final class IgnoresInValue { @com.fasterxml.jackson.annotation.JsonIgnoreProperties({"x"}) private Pt in; }
              @com.fasterxml.jackson.annotation.JsonIgnoreProperties({"cache", "gone"}) public static final class IgnoresNoTraveller { private transient int cache; private int a; }
              @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) public static final class Included { private int a; private String name = "anon"; }
              public static final class Formatted { @com.fasterxml.jackson.annotation.JsonFormat(pattern = "yyyy-MM-dd HH:mm") private java.time.LocalDateTime when; }
              @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME) @com.fasterxml.jackson.annotation.JacksonAnnotationsInside @com.fasterxml.jackson.annotation.JsonIgnore public @interface Secret {}
              public static final class Bundled { private int a; @Secret public int getA() { return a; } }
              @com.fasterxml.jackson.annotation.JsonPropertyOrder({"b", "a"}) public static final class Ordered { private int a; private int b; }
              public record FlatIncluded(@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT) int a, String s) {}
              @com.fasterxml.jackson.annotation.JsonIgnoreProperties("y") public record IgnoredListComponent(int x, List<String> y) {}
              public record RawFlat(@com.fasterxml.jackson.annotation.JsonRawValue String s, Pt p) {}
              @com.fasterxml.jackson.annotation.JsonIgnoreType public static final class Audit { private int by; }
              public static final class Audited { private int a; private Audit audit; }
              public record AuditedRecord(int a, Audit audit) {}
              public static final class AuditedLater { private int a; private transient Audit audit; }
              public enum Color { RED, GREEN }
            """;

    /** A message type and whether it is refused (by both sides). */
    record Case(String id, String type, boolean refused) {
        @Override
        public String toString() {
            return id + " " + type;
        }
    }

    static Stream<Case> cases() {
        return Stream.concat(shapes(), jdkTable());
    }

    /**
     * adv19 A7 (the rest): every JDK class of sj-api's JdkMessageTypes, the one table both sides read — each value
     * class (as a list of them, the generic ones of String) loads and compiles, each refused one is refused by both
     * — and JDK classes outside it (they loaded, or compiled, on one side only).
     */
    private static Stream<Case> jdkTable() {
        java.util.List<Case> cases = new java.util.ArrayList<>();
        int n = 0;
        for (String type : new java.util.TreeSet<>(org.sessionj.types.internal.JdkMessageTypes.VALUES.keySet())) {
            boolean generic = type.equals("java.util.Optional") || type.equals("java.util.concurrent.atomic.AtomicReference");
            cases.add(new Case(String.format("F%02d", ++n), "java.util.List<" + type + (generic ? "<String>" : "") + ">",
                    false));
        }
        for (String type : new java.util.TreeSet<>(org.sessionj.types.internal.JdkMessageTypes.REFUSED.keySet())) {
            cases.add(new Case(String.format("F%02d", ++n), type,
                    true));
        }
        for (String type : List.of("java.time.format.DateTimeFormatter", "java.lang.StackTraceElement[]",
                "java.util.Map<java.io.File, String>", "java.util.Map<java.nio.file.Path, String>",
                "java.util.Map<java.util.Locale, java.util.TimeZone>")) {
            cases.add(new Case(String.format("F%02d", ++n), type, type.contains("File") || type.contains("Path")
                    || type.contains("DateTimeFormatter")));
        }
        return cases.stream();
    }

    private static Stream<Case> shapes() {
        return Stream.of(
                new Case("A01", "R<Pt>", true),
                new Case("A02", "Bounded", true),
                new Case("A03", "Box<Pt>", true),
                new Case("A04", "Msg<Pt>", true),
                new Case("A05", "Swapped<Pt, String>", true),
                new Case("A06", "java.util.List<R<Pt>>", true),
                new Case("A07", "java.util.Map<int[], String>", true),
                new Case("A08", "Ro", true),
                new Case("A09", "Wo", true),
                new Case("A10", "java.util.Map<Pt, String>", true),
                new Case("A11", "Email", true),
                new Case("A12", "Job", true),
                new Case("A13", "Holder", true),
                new Case("A14", "Inner", true),
                new Case("A15", "Number", true),
                new Case("A16", "Thread", true),
                new Case("A17", "RoRec", true),
                new Case("A18", "Hides", true),
                new Case("B01", "R<String>", false),
                new Case("B02", "Box<java.util.UUID>", false),
                new Case("B03", "Msg<java.time.Instant>", false),
                new Case("B04", "Swapped<String, Pt>", false),
                new Case("B05", "Msg", false),
                new Case("B06", "R", false),
                new Case("B07", "java.util.List<R<Long>>", false),
                new Case("B08", "Fine", false),
                new Case("B09", "java.util.Map<java.time.LocalDate, java.util.List<Pt>>", false),
                // adv17 A8/A9: the shapes of fields and bean accessors both sides decide
                new Case("C01", "Locked", false),
                new Case("C02", "AnyField", false),
                new Case("C03", "SeqField", true),
                new Case("C04", "Gen", false),
                new Case("C05", "Gen<Runnable>", true),
                new Case("C06", "Gen<Pt>", false),
                new Case("C07", "Trans", false),
                new Case("C08", "Computed", true),
                new Case("C09", "ComputedIgnored", false),
                new Case("C10", "IgnoresUnknown", false),
                new Case("C11", "Acronym", false),
                new Case("C12", "AcronymField", true),
                new Case("C13", "AcronymSetter", false),
                new Case("C14", "IsComputed", true),
                new Case("C15", "IsBoxed", true),
                new Case("C16", "IsBacked", false),
                new Case("C17", "Named", true),
                new Case("C18", "Renamed", false),
                new Case("C19", "GetterOfField", false),
                new Case("C20", "StaticGetter", false),
                new Case("C21", "PrivateGetter", false),
                new Case("C22", "ListGetter", false),
                new Case("C23", "Accessors", true),
                new Case("C24", "SetterOnly", true),
                new Case("C25", "TransGetter", true),
                new Case("C26", "Derived", true),
                // adv18 A7: sorted collections of elements that are not Comparable; collection interfaces the codec
                // has no implementation for
                new Case("D01", "java.util.TreeSet<Pt>", true),
                new Case("D02", "java.util.PriorityQueue<int[]>", true),
                new Case("D03", "java.util.SortedSet<Pt>", true),
                new Case("D04", "java.util.concurrent.ConcurrentSkipListSet<Pt>", true),
                new Case("D05", "java.util.concurrent.PriorityBlockingQueue<Pt>", true),
                new Case("D06", "java.util.TreeMap<int[], String>", true),
                new Case("D07", "java.util.List<java.util.NavigableSet<Pt>>", true),
                new Case("D08", "java.util.concurrent.BlockingQueue<String>", true),
                new Case("D09", "java.util.concurrent.BlockingDeque<String>", true),
                new Case("D10", "java.util.concurrent.TransferQueue<String>", true),
                new Case("D11", "java.util.TreeSet<String>", false),
                new Case("D12", "java.util.SortedSet<java.time.Instant>", false),
                new Case("D13", "java.util.concurrent.LinkedBlockingQueue<String>", false),
                new Case("D14", "java.util.Deque<Pt>", false),
                new Case("D15", "java.util.concurrent.ConcurrentNavigableMap<String, Pt>", false),
                new Case("D16", "java.util.PriorityQueue<Object>", false),
                // adv19 A5–A7: creators as the codec reads them; EnumSet and Map.Entry
                new Case("E01", "Unnamed", true),
                new Case("E02", "UnnamedOf", true),
                new Case("E03", "Delegating", true),
                new Case("E04", "NamedCreator", false),
                new Case("E05", "ValueOnly", true),
                new Case("E06", "ValueWrongCtor", true),
                new Case("E07", "ValueAndCtor", false),
                new Case("E08", "IntValue", false),
                new Case("E09", "UuidValue", false),
                new Case("E10", "ObjColor", true),
                new Case("E11", "HasObjColor", true),
                new Case("E12", "ReadColor", false),
                new Case("E13", "java.util.EnumSet<Color>", false),
                new Case("E14", "java.util.Map.Entry<String, Integer>", false),
                new Case("E15", "java.util.Map.Entry<Pt, Integer>", true),
                new Case("E16", "java.util.List<java.util.Map.Entry<String, java.util.EnumSet<Color>>>", false),
                // adv20 A5: Jackson annotations that kept a value from arriving (silently, or failing every message)
                new Case("G01", "IgnoredGetter", true),
                new Case("G02", "TwoOnOne", true),
                new Case("G03", "AnyGetter", true),
                new Case("G04", "AnyBoth", false),
                new Case("G05", "SetterAnn", true),
                new Case("G06", "GetterAnn", true),
                new Case("G07", "Serialized", true),
                new Case("G08", "Raw", true),
                new Case("G09", "Unwrapped", true),
                new Case("G10", "KeptField", false),
                new Case("G11", "RenamedOnly", false),
                // views (session 21): @JsonIgnoreProperties naming what travels drops it on both ends
                new Case("G12", "IgnoredByName", true),
                // a flat record sent as itself travels field by field, not through Jackson: its annotations do
                // nothing (sj-api's FlatRecords); the same record inside a list, or not flat, travels through Jackson
                new Case("G13", "IgnoredComponent", false),
                new Case("G14", "IgnoresInValue", true),
                new Case("G15", "IgnoresNoTraveller", false),
                new Case("G16", "IgnoredListComponent", true),
                new Case("G17", "java.util.List<IgnoredComponent>", true),
                new Case("G18", "IgnoredComponent[]", false),
                new Case("G19", "IgnoredComponent[][]", true),
                new Case("G20", "RawFlat", false),
                new Case("G21", "java.util.List<RawFlat>", true),
                // adv21 B4-B6: the Jackson annotations neither side models are refused by both
                new Case("G22", "Included", true),
                new Case("G23", "Formatted", true),
                new Case("G24", "Bundled", true),
                new Case("G25", "Ordered", false),
                new Case("G26", "FlatIncluded", false),
                new Case("G27", "java.util.List<FlatIncluded>", true),
                // adv21 B4 J04: a field of a @JsonIgnoreType class, which Jackson drops before the codec's properties show it
                new Case("G28", "Audited", true),
                new Case("G29", "AuditedRecord", true),
                new Case("G30", "AuditedLater", false));
    }

    @TempDir
    static Path classes;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theProcessorAndTheRuntimeDecideAlike(Case c) throws Exception {
        String className = "agree." + c.id();
        String source = "package agree;\n" + TYPES.replaceFirst("(?m)^  ", "public class " + c.id() + " {\n  ")
                + "  @org.sessionj.api.Protocol(\"cbegin.!<" + c.type() + ">\") public interface C {}\n}\n";
        List<InProcessCompiler.Source> sources = List.of(new InProcessCompiler.Source(className, source));
        Path out = Files.createDirectories(classes.resolve(c.id()));
        InProcessCompiler.Result plain = COMPILER.compile(sources, out, Mode.CLASSES, null);
        assertThat(plain.byClass()).as("javac on " + c).isEmpty();
        InProcessCompiler.Result checked = COMPILER.compile(sources, Files.createDirectories(out.resolve("unused")), Mode.CHECK,
                new SessionProcessor());
        assertThat(checked.crash()).as("processor crash").isNull();
        List<InProcessCompiler.Diag> diagnostics = checked.of(className);
        boolean sj018 = diagnostics.stream().anyMatch(d -> "SJ018".equals(d.code()));
        assertThat(diagnostics.stream().filter(d -> d.isError() && !"SJ018".equals(d.code())))
                .as("other errors on " + c).isEmpty();

        String runtime;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader())) {
            SJService.create(loader.loadClass(className + "$C"), "localhost", 1);
            runtime = null;
        } catch (SJException e) {
            runtime = e.getMessage();
        }
        assertThat(runtime == null ? "loads" : "refused: " + runtime)
                .as(c + ": the runtime; the processor said " + diagnostics)
                .startsWith(c.refused() ? "refused: " : "loads");
        if (c.refused()) {
            assertThat(runtime).as(c + ": the runtime's reason").contains("cannot be decoded by a receiver");
        }
        assertThat(sj018).as(c + ": SJ018; the runtime said " + runtime + "; the processor " + diagnostics)
                .isEqualTo(c.refused());
    }
}
