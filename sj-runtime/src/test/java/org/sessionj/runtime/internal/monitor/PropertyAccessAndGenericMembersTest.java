package org.sessionj.runtime.internal.monitor;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJException;
import org.sessionj.types.SessionTypes;

/**
 * The runtime's load check on two things SJ018 decides from the source too (the processor's
 * MessageTypeArgumentsTest and UndecodableMessageTypeTest; sj-crosscheck's MessageTypeAgreementTest runs
 * both on the same classes): a generic sealed type's permitted subclass is looked at with the sealed
 * type's arguments (adv16 A9's addendum: {@code !<Msg<Pt>>} loaded, and the receiver could not decode the
 * first message), and a property that Jackson's {@code access} keeps off one side is named as such (adv16
 * A18: the refusal of a READ_ONLY field spoke of "a getter without a setter"; a WRITE_ONLY one was let
 * through and arrived as zero), and a field that hides a superclass's field of the same name (adv17 A7:
 * one property per name travels; the superclass's value was lost silently).
 */
class PropertyAccessAndGenericMembersTest {
    public record Pt(int x, int y) {
    }

    public sealed interface Msg<K> permits Put, Stop {
    }

    public record Put<K>(Map<K, Integer> m) implements Msg<K> {
    }

    public record Stop<K>() implements Msg<K> {
    }

    /** The member's variables follow the supertype's arguments, not their order. */
    public sealed interface Swapped<A, B> permits Pair {
    }

    public record Pair<X, Y>(Map<Y, X> m) implements Swapped<Y, X> {
    }

    public static final class ReadOnly {
        @JsonProperty(access = JsonProperty.Access.READ_ONLY)
        public int a;
        public int b;
    }

    /** A record's READ_ONLY component: the reader's creator would get null for it ("Cannot map `null` into type int"). */
    public record ReadOnlyComponent(@JsonProperty(access = JsonProperty.Access.READ_ONLY) int a, int b) {
    }

    public static final class WriteOnly {
        @JsonProperty(access = JsonProperty.Access.WRITE_ONLY)
        public int a;
        public int b;
    }

    /** The default access, spelled out: both sides see it. */
    public static final class ReadWrite {
        @JsonProperty(access = JsonProperty.Access.READ_WRITE)
        public int a;
    }

    private static String name(Class<?> type) {
        return type.getName();
    }

    private static State compile(String type) {
        return StateMachine.compile(SessionTypes.parse(type), PropertyAccessAndGenericMembersTest.class.getClassLoader());
    }

    @Test
    void aGenericSealedMemberIsCheckedWithTheSealedTypesArguments() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(Msg.class) + "<" + name(Pt.class) + ">>"))
                .isInstanceOf(SJException.class)
                .hasMessageContaining(name(Pt.class) + " is the key type of a map and would not arrive as itself");
        assertThatThrownBy(() -> compile("sbegin.?(" + name(Swapped.class) + "<" + name(Pt.class) + ", java.lang.String>)"))
                .isInstanceOf(SJException.class)
                .hasMessageContaining(name(Pt.class) + " is the key type of a map");
        assertThatCode(() -> compile("cbegin.!<" + name(Msg.class) + "<java.lang.String>>.!<" + name(Swapped.class)
                + "<java.lang.String, " + name(Pt.class) + ">>.!<" + name(Msg.class) + ">"))
                .doesNotThrowAnyException();
    }

    @Test
    void aReadOnlyOrWriteOnlyPropertyIsRefusedInItsOwnWords() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(ReadOnly.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining(name(ReadOnly.class) + " writes the property 'a', which its reader ignores: it is "
                        + "@JsonProperty(access = READ_ONLY), so its value would not arrive")
                .hasMessageNotContaining("getter");
        assertThatThrownBy(() -> compile("cbegin.!<" + name(ReadOnlyComponent.class) + ">"))
                .as("a flat record at the top").isInstanceOf(SJException.class)
                .hasMessageContaining(name(ReadOnlyComponent.class) + " writes the property 'a', which its reader ignores");
        assertThatThrownBy(() -> compile("cbegin.!<java.util.List<" + name(ReadOnlyComponent.class) + ">>"))
                .isInstanceOf(SJException.class)
                .hasMessageContaining(name(ReadOnlyComponent.class) + " writes the property 'a', which its reader ignores");
        assertThatThrownBy(() -> compile("sbegin.?(" + name(WriteOnly.class) + ")")).isInstanceOf(SJException.class)
                .hasMessageContaining(name(WriteOnly.class) + "'s property 'a' is @JsonProperty(access = WRITE_ONLY): "
                        + "its writer never writes it, so it would arrive as null or zero");
        assertThatCode(() -> compile("cbegin.!<" + name(ReadWrite.class) + ">")).doesNotThrowAnyException();
    }

    public static class A {
        private int x = 1;
    }

    public static final class B extends A {
        private int x = 2;
    }

    public static final class Quiet extends A {
        private transient int x = 2;
    }

    @Test
    void aFieldThatHidesASuperclassFieldIsRefused() {
        assertThatThrownBy(() -> compile("cbegin.!<" + name(B.class) + ">")).isInstanceOf(SJException.class)
                .hasMessageContaining(name(A.class) + "'s field 'x' is hidden by the field of the same name in "
                        + name(B.class) + ": a class travels as its fields, one property per name");
        assertThatCode(() -> compile("cbegin.!<" + name(Quiet.class) + ">")).doesNotThrowAnyException();
    }
}
