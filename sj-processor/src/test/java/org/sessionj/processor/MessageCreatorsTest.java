package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv19 A5–A7: SJ018 reads a message type's creators as the codec does (no parameter-names module), so a
 * type it accepts is one a receiver creates from what the sender writes: a {@code @JsonCreator} of several
 * parameters names each; a one-argument creator without a name reads a single value; a {@code @JsonValue}
 * class has a creator from that value; an enum written as an object has a {@code @JsonCreator}. And the
 * JDK's {@code EnumSet} and {@code Map.Entry}, which the codec decodes, are accepted.
 */
class MessageCreatorsTest {
    @Test
    void aCreatorOfSeveralUnnamedParametersIsRejected() {
        assertRejected("SJ018", 5, msg("its @JsonCreator constructor does not name its parameter 'x'",
                "annotate each parameter with @JsonProperty"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Pt { final int x, y; @JsonCreator Pt(int x, int y) { this.x = x; this.y = y; } }
                  @Protocol("cbegin.!<Pt>") interface Send {}
                }
                """);
        assertRejected("SJ018", 6, msg("its @JsonCreator factory 'of' does not name its parameter 'y'"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Pt { final int x, y; private Pt(int x, int y) { this.x = x; this.y = y; }
                    @JsonCreator static Pt of(@JsonProperty("x") int x, int y) { return new Pt(x, y); } }
                  @Protocol("cbegin.!<Pt>") interface Send {}
                }
                """);
    }

    @Test
    void aDelegatingCreatorOfAClassWrittenAsItsFieldsIsRejected() {
        assertRejected("SJ018", 5, msg("a receiver can create one only from a single value"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Tag { final String t; @JsonCreator(mode = JsonCreator.Mode.DELEGATING) Tag(String t) { this.t = t; } }
                  @Protocol("cbegin.!<Tag>") interface Send {}
                }
                """);
    }

    @Test
    void creatorsThatNameTheirParametersCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Pt { final int x, y;
                    @JsonCreator Pt(@JsonProperty("x") int x, @JsonProperty("y") int y) { this.x = x; this.y = y; } }
                  final class Pq { final int x, y; private Pq(int x, int y) { this.x = x; this.y = y; }
                    @JsonCreator static Pq of(@JsonProperty("x") int x, @JsonProperty("y") int y) { return new Pq(x, y); } }
                  final class One { final String t; @JsonCreator One(@JsonProperty("t") String t) { this.t = t; } }
                  @Protocol("cbegin.!<Pt>.!<Pq>.!<One>") interface Send {}
                }
                """);
    }

    @Test
    void aClassWrittenAsASingleValueWithNoCreatorFromItIsRejected() {
        assertRejected("SJ018", 5, msg("it travels as a single value (@JsonValue, string)",
                "no way to create one from that value"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Tag { String t = "x"; Tag() {} @JsonValue String value() { return t; } }
                  @Protocol("cbegin.!<Tag>") interface Send {}
                }
                """);
        assertRejected("SJ018", 5, msg("it travels as a single value (@JsonValue, string)"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Tag { String t = "x"; Tag() {} Tag(int n) {} @JsonValue String value() { return t; } }
                  @Protocol("cbegin.!<Tag>") interface Send {}
                }
                """);
    }

    @Test
    void aClassWrittenAsASingleValueWithACreatorFromItCompiles() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  final class Tag { String t = ""; Tag() {} Tag(String t) { this.t = t; } @JsonValue String value() { return t; } }
                  final class Code { final int n; Code(long n) { this.n = (int) n; } @JsonValue int n() { return n; } }
                  final class Id { final java.util.UUID id; private Id(java.util.UUID id) { this.id = id; }
                    @JsonCreator static Id of(java.util.UUID id) { return new Id(id); } @JsonValue java.util.UUID id() { return id; } }
                  @Protocol("cbegin.!<Tag>.!<Code>.!<Id>") interface Send {}
                }
                """);
    }

    @Test
    void anEnumWrittenAsAnObjectNeedsACreator() {
        assertRejected("SJ018", 5, msg("it is an enum written as an object (@JsonFormat(shape = OBJECT))"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonFormat(shape = JsonFormat.Shape.OBJECT) enum Color { RED, GREEN; public int getCode() { return ordinal(); } }
                  @Protocol("cbegin.!<Color>") interface Send {}
                }
                """);
        assertRejected("SJ018", 6, msg("enum written as an object"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonFormat(shape = JsonFormat.Shape.OBJECT) enum Color { RED, GREEN }
                  record R(Color c) {}
                  @Protocol("cbegin.!<R>") interface Send {}
                }
                """);
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.*;
                interface P {
                  @JsonFormat(shape = JsonFormat.Shape.OBJECT) enum Color { RED, GREEN;
                    public String getName() { return name(); }
                    @JsonCreator static Color of(@JsonProperty("name") String name) { return valueOf(name); } }
                  @JsonFormat(shape = JsonFormat.Shape.STRING) enum Size { S, M }
                  @Protocol("cbegin.!<Color>.!<Size>") interface Send {}
                }
                """);
    }

    @Test
    void enumSetsAndMapEntriesCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  enum Color { RED, GREEN }
                  record Perms(EnumSet<Color> colors, Map.Entry<String, Integer> best) {}
                  @Protocol("cbegin.!<EnumSet<Color>>.!<Map.Entry<String, Integer>>.!<Perms>") interface Send {}
                }
                """);
    }

    @Test
    void aMapEntryKeyedByARecordIsRejectedAsAMapsKeyIs() {
        assertRejected("SJ018", 5, msg("key type"), """
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  record Pt(int x, int y) {}
                  @Protocol("cbegin.!<Map.Entry<Pt, Integer>>") interface Send {}
                }
                """);
    }
}
