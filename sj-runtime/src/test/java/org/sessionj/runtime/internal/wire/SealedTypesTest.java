package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.Frame;

/**
 * Sealed message types travel as "which permitted subclass, then the value" (adv10 F13: a sealed
 * interface of records, the modern message idiom, could be sent but not decoded); the decoder takes
 * the class only from the declared type's permitted subclasses.
 */
class SealedTypesTest {
    public sealed interface Msg permits Put, Del, Batch {
    }

    public record Put(String key, int value) implements Msg {
    }

    public record Del(String key) implements Msg {
    }

    /** A sealed type inside a sealed type, and sealed values nested in a record and a list. */
    public sealed interface Batch extends Msg permits Many {
    }

    public record Many(List<Msg> items, Msg last) implements Batch {
    }

    public abstract static sealed class Shape permits Circle, Square {
        public int id;
    }

    public static final class Circle extends Shape {
        public double radius;
    }

    public static final class Square extends Shape {
        public double side;
    }

    private static Object roundTrip(Class<?> declared, Object value) throws Exception {
        JavaType type = TypeFactory.defaultInstance().constructType(declared);
        Frame frame = new org.sessionj.runtime.spi.support.HeapFrame(64);
        ValueCodec.writeObject(frame, SmileCodec.writerFor(type), value);
        return ValueCodec.readObject(frame, SmileCodec.readerFor(type), declared.getName());
    }

    @Test
    void eachPermittedSubclassComesBackAsItself() throws Exception {
        assertThat(roundTrip(Msg.class, new Put("a", 1))).isEqualTo(new Put("a", 1));
        assertThat(roundTrip(Msg.class, new Del("a"))).isEqualTo(new Del("a"));
        Many many = new Many(List.of(new Put("b", 2), new Del("c")), new Many(List.of(), new Del("d")));
        assertThat(roundTrip(Msg.class, many)).isEqualTo(many);
        assertThat(roundTrip(Many.class, many)).isEqualTo(many);
        Circle circle = new Circle();
        circle.id = 3;
        circle.radius = 1.5;
        Object back = roundTrip(Shape.class, circle);
        assertThat(back).isInstanceOf(Circle.class);
        assertThat(((Circle) back).radius).isEqualTo(1.5);
        assertThat(((Circle) back).id).isEqualTo(3);
    }

    @Test
    void aConcreteDeclaredTypeTravelsWithoutAClassName() throws Exception {
        JavaType put = TypeFactory.defaultInstance().constructType(Put.class);
        JavaType msg = TypeFactory.defaultInstance().constructType(Msg.class);
        Frame exact = new org.sessionj.runtime.spi.support.HeapFrame(64);
        ValueCodec.writeObject(exact, SmileCodec.writerFor(put), new Put("a", 1));
        Frame named = new org.sessionj.runtime.spi.support.HeapFrame(64);
        ValueCodec.writeObject(named, SmileCodec.writerFor(msg), new Put("a", 1));
        assertThat(named.readableBytes()).isGreaterThan(exact.readableBytes() + Put.class.getName().length() - 1);
    }

    @Test
    void aClassNameThatIsNotPermittedIsRefusedWithoutLoadingIt() {
        // What a hostile or mismatched peer could write: any class name, or a sibling's record.
        for (Object forged : List.of(List.of("java.lang.ProcessBuilder", Map.of("command", List.of("sh"))),
                List.of(Circle.class.getName(), Map.of("id", 1, "radius", 2.0)),
                List.of("no.Such$Class", Map.of()), Map.of("key", "a", "value", 1))) {
            JavaType object = TypeFactory.defaultInstance().constructType(Object.class);
            Frame frame = new org.sessionj.runtime.spi.support.HeapFrame(64);
            try {
                ValueCodec.writeObject(frame, SmileCodec.writerFor(object), forged);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            assertThatThrownBy(() -> ValueCodec.readObject(frame, SmileCodec.readerFor(
                    TypeFactory.defaultInstance().constructType(Msg.class)), Msg.class.getName()))
                    .isInstanceOf(MalformedInputException.class).hasMessageContaining("could not decode a");
        }
    }
}
