package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv16 A18: a part of a message class that Jackson's {@code @JsonProperty(access = …)} keeps to one side —
 * {@code READ_ONLY} (written, ignored by the reader) or {@code WRITE_ONLY} (read, never written) — would
 * not arrive. It compiled, and the protocol then failed to load with advice for another case ("a getter
 * without a setter or field"), or (WRITE_ONLY) loaded and the value arrived as zero. SJ018 names the
 * annotation, as the runtime's load check now does. The same for a field that hides a superclass's field
 * of the same name (adv17 A7): one property per name travels, and the superclass's value was lost silently.
 */
class PropertyAccessTest {
    @Test
    void aReadOnlyPublicFieldIsRejectedNamingTheAccess() {
        assertRejected("SJ018", 4, msg("message type 'P.Ro'", "its field 'a' is @JsonProperty(access = READ_ONLY): it "
                + "is written, but a receiver ignores it, so its value would not arrive"), """
                import org.sessionj.api.*;
                interface P {
                  final class Ro { @com.fasterxml.jackson.annotation.JsonProperty(access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY) public int a; public int b; }
                  @Protocol("cbegin.!<Ro>") interface C {}
                }
                """);
    }

    @Test
    void aWriteOnlyFieldOfASuperclassOrAReadOnlyRecordComponentIsRejected() {
        assertRejected("SJ018", 6, msg("message type 'P.Wo'", "its field 'secret' is @JsonProperty(access = "
                + "WRITE_ONLY): a receiver reads it, but it is never written, so it would arrive as null or zero"), """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.JsonProperty;
                interface P {
                  class Base { @JsonProperty(access = JsonProperty.Access.WRITE_ONLY) private String secret; }
                  final class Wo extends Base { public int n; }
                  @Protocol("cbegin.!<java.util.List<Wo>>") interface C {}
                }
                """);
        assertRejected("SJ018", 5, msg("message type 'P.Rec'", "its component 'a' is @JsonProperty(access = READ_ONLY)"),
                """
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.JsonProperty;
                interface P {
                  record Rec(@JsonProperty(access = JsonProperty.Access.READ_ONLY) int a, int b) {}
                  @Protocol("cbegin.?(Rec)") interface C {}
                }
                """);
    }

    @Test
    void readWriteAutoAndIgnoredFieldsCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import com.fasterxml.jackson.annotation.JsonIgnore;
                import com.fasterxml.jackson.annotation.JsonProperty;
                interface P {
                  final class Fine {
                    @JsonProperty(access = JsonProperty.Access.READ_WRITE) public int a;
                    @JsonProperty(access = JsonProperty.Access.AUTO) public int b;
                    @JsonProperty("renamed") public int c;
                    @JsonIgnore @JsonProperty(access = JsonProperty.Access.READ_ONLY) public int d;
                  }
                  @Protocol("cbegin.!<Fine>") interface C {}
                }
                """);
    }

    @Test
    void aFieldThatHidesASuperclassFieldIsRejected() {
        assertRejected("SJ018", 5, msg("message type 'P.B'", "its field 'x' of P.A is hidden by the field of the same "
                + "name in P.B: a class travels as its fields, one property per name, so only one of them would arrive"),
                """
                import org.sessionj.api.*;
                interface P {
                  class A { private int x = 1; public int ax() { return x; } public void setAx(int v) { x = v; } }
                  final class B extends A { private int x = 2; public int bx() { return x; } }
                  @Protocol("cbegin.!<B>") interface C {}
                }
                """);
        assertAccepted("""
                import org.sessionj.api.*;
                interface P {
                  class A { private int x = 1; private static int shared; }
                  final class B extends A { private transient int x = 2; private int shared; }
                  @Protocol("cbegin.!<B>") interface C {}
                }
                """);
    }
}
