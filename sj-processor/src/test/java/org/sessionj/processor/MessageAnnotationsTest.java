package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * adv20 A5: the Jackson annotations that kept a value from arriving as sent, which SJ018 did not read (the
 * runtime's load check now refuses the same: sj-runtime's MessageAnnotations). Each case compiled and then lost
 * a value silently, or failed every send or receive (adv20 A5's programs J01-J11).
 */
class MessageAnnotationsTest {
    private static void rejected(String member, String... fragments) {
        assertRejected("SJ018", 5, msg(fragments), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class M { %s }
                  @Protocol("cbegin.!<M>") interface C {}
                }
                """.formatted(member));
    }

    @Test
    void anAccessorsJsonIgnoreDropsItsFieldSilently() {
        // J11: sent M(5), received M(0)
        rejected("private int a; public M() {} @JsonIgnore public int getA() { return a; }",
                "its field 'a' would not arrive: the @JsonIgnore on 'getA()' drops the whole property 'a'");
        rejected("private boolean on; @JsonIgnore public void setOn(boolean on) { this.on = on; }",
                "its field 'on' would not arrive", "'setOn()'");
    }

    @Test
    void twoFieldsUnderOnePropertyName() {
        // J05: sent M(1, 2), received M(1, 0)
        rejected("@JsonProperty(\"b\") private int a; private int b;",
                "its fields 'a' and 'b' travel under one property name, 'b'");
    }

    @Test
    void annotationsNeitherCheckFollows() {
        for (Map.Entry<String, String> c : Map.of(
                "private int a; @JsonSetter(\"a\") void putA(String s) {}", "its member 'putA' is @JsonSetter",
                "private int total; @JsonGetter(\"sum\") int computeSum() { return total; }", "its member 'computeSum' is @JsonGetter",
                "@JsonRawValue private String raw;", "its field 'raw' is @JsonRawValue: the codec (Smile) has no raw values",
                "@JsonUnwrapped private Inner in; static final class Inner { int x; }", "its field 'in' is @JsonUnwrapped")
                .entrySet()) {
            rejected(c.getKey(), c.getValue());
        }
        // J02: every receive failed, "Unrecognized field"
        rejected("private int total; private java.util.Map<String, Object> extra = new java.util.HashMap<>(); "
                + "@JsonAnyGetter java.util.Map<String, Object> extra() { return extra; }",
                "its @JsonAnyGetter writes properties no receiver knows");
    }

    /**
     * {@code @JsonIgnoreProperties({"a"})} naming a field that travels drops it on both ends, as an accessor's
     * {@code @JsonIgnore} does: sent M(5), received M(0). On a member, the names are properties of its value.
     */
    @Test
    void jsonIgnorePropertiesNamingAFieldThatTravels() {
        assertRejected("SJ018", 6, msg("its field 'a' would not arrive: @JsonIgnoreProperties names it, which drops "
                + "the whole property on both ends"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonIgnoreProperties({"a"}) final class M { private int a; private int b; }
                  @JsonIgnoreProperties(value = "y", ignoreUnknown = true) record R(int x, int y) {}
                  @Protocol("cbegin.!<M>") interface C {}
                }
                """);
        // A record with a list component travels through Jackson: y is dropped.
        assertRejected("SJ018", 6, msg("its field 'y' would not arrive: @JsonIgnoreProperties names it"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonIgnoreProperties({"a"}) final class M { private int a; private int b; }
                  @JsonIgnoreProperties(value = "y", ignoreUnknown = true) record R(int x, java.util.List<String> y) {}
                  @Protocol("cbegin.!<R>") interface C {}
                }
                """);
        // A flat record inside a list travels through Jackson too (only a payload of its own travels flat).
        assertRejected("SJ018", 5, msg("its field 'y' would not arrive: @JsonIgnoreProperties names it"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonIgnoreProperties("y") record F(int x, int y) {}
                  @Protocol("cbegin.!<java.util.List<F>>") interface C {}
                }
                """);
        rejected("@JsonIgnoreProperties({\"x\"}) private Inner in; static final class Inner { int x; int y; }",
                "its field 'in' is @JsonIgnoreProperties with names: the properties it names would not arrive");
    }

    /**
     * adv21 B4-B6: a Jackson annotation neither check models is refused (it was let through): {@code @JsonInclude}
     * kept a field's default for a null sent (sent null, received "anon"), {@code @JsonIgnoreType} dropped a part,
     * a {@code @JsonFormat} pattern lost the time or failed every send, a bundle ({@code @JacksonAnnotationsInside})
     * hid a {@code @JsonIgnore} on a getter (sent 5, received 0).
     */
    @Test
    void annotationsNeitherCheckModelsAreRefused() {
        rejected("@JsonInclude(JsonInclude.Include.NON_NULL) String name = \"anon\"; int a;",
                "its field 'name' is @JsonInclude: neither check models what it does to the value");
        rejected("@JsonFormat(pattern = \"yyyy-MM-dd HH:mm\") java.time.LocalDateTime when;",
                "its field 'when' is @JsonFormat: neither check models");
        rejected("Audit audit; @JsonIgnoreType static final class Audit { int by; }",
                "it is @JsonIgnoreType: neither check models");
        assertRejected("SJ018", 7, msg("its member 'getA' is @Secret: a bundle of Jackson annotations "
                + "(@JacksonAnnotationsInside), which neither check reads through"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                import java.lang.annotation.*;
                interface P {
                  @Retention(RetentionPolicy.RUNTIME) @JacksonAnnotationsInside @JsonIgnore @interface Secret {}
                  final class M { private int a; @Secret public int getA() { return a; } }
                  @Protocol("cbegin.!<M>") interface C {}
                }
                """);
        // B6 J12: an enum component written as a number; every receive failed
        assertRejected("SJ018", 6, msg("'s' is @JsonFormat: neither check models what it does to the value"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  enum Size { S, M }
                  record R(@JsonFormat(shape = JsonFormat.Shape.NUMBER) Size s, java.util.List<String> l) {}
                  @Protocol("cbegin.!<R>") interface C {}
                }
                """);
    }

    /**
     * A flat record sent as itself (or as an array of it) travels field by field, not through Jackson (sj-api's
     * FlatRecords, docs/wire-format.md RECORD): Jackson's annotations do nothing to it, its y arrives, and the
     * runtime loads it — SJ018 refused it, a false alarm the runtime disagreed with (crosscheck G13).
     */
    @Test
    void aFlatRecordTravelsFieldByFieldWhateverItsJacksonAnnotations() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonIgnoreProperties("y") record F(int x, int y) {}
                  record Outer(F f, String s, long[] ls) {}
                  record Raw(@JsonRawValue String s, @JsonUnwrapped F f) {}
                  @Protocol("cbegin.!<F>.!<F[]>.!<Outer>.!<Raw>") interface C {}
                }
                """);
    }

    /** False alarms: the same annotations where the value does arrive. */
    @Test
    void whereTheValueArrivesItCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Extra { private int total; private java.util.Map<String, Object> extra = new java.util.HashMap<>();
                    @JsonAnyGetter java.util.Map<String, Object> extra() { return extra; }
                    @JsonAnySetter void put(String k, Object v) { extra.put(k, v); } }
                  final class Computed { private int a; @JsonIgnore public int getTwice() { return 2 * a; } }
                  final class Kept { @JsonProperty private int a; @JsonIgnore public int getA() { return a; } }
                  final class Both { @JsonIgnore private int a; @JsonIgnore public int getA() { return a; } private int b; }
                  final class Renamed { @JsonProperty("x") private int a; private int b; }
                  @JsonIgnoreProperties(ignoreUnknown = true) final class Lenient { private int a; }
                  @JsonIgnoreProperties({"cache", "gone"}) final class NamesNoTraveller { private transient int cache; private int a; }
                  @JsonPropertyOrder({"b", "a"}) final class Ordered { private int a; private int b; }
                  @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS) @JacksonAnnotationsInside @JsonIgnore @interface Unseen {}
                  final class NotKept { private int a; @Unseen public int getA() { return a; } }
                  final class HoldsNested { private int a; @JsonInclude(JsonInclude.Include.NON_NULL) static final class NotSent { String s = "x"; } }
                  @Protocol("cbegin.!<Extra>.!<Computed>.!<Kept>.!<Both>.!<Renamed>.!<Lenient>.!<NamesNoTraveller>.!<Ordered>.!<NotKept>.!<HoldsNested>") interface C {}
                }
                """);
    }
}
