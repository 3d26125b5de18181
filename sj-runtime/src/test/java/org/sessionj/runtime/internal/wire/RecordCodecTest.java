package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
    record Everything(boolean b, byte y, short s, char c, int i, long l, float f, double d, String text) {
    }

    record Particle(double x, double y, double z, double mass) {
    }

    record Labelled(String name, Particle particle) {
    }

    record Positive(int value) {
        Positive {
            if (value <= 0) {
                throw new IllegalArgumentException("expected a positive value but found " + value);
            }
        }
    }

    record WithList(List<Integer> values) {
    }

    record WithArray(int[] values) {
    }

    /** As the demos' rendezvous registration: a rank, a host and its ports. */
    record Registration(int rank, String host, int[] ports, double[] weights, boolean[] flags) {
    }

    record WithGrid(double[][] rows) {
    }

    record Node(int value, Node next) {
    }

    static final class NotARecord {
        int value;
    }

    @Test
    void everyComponentKindRoundTrips() throws Exception {
        RecordLayout layout = RecordLayout.of(Everything.class);
        Everything value = new Everything(true, (byte) -2, Short.MIN_VALUE, 'é', -3, Long.MAX_VALUE, 1.5f, -0.0, "snø");
        Everything nullText = new Everything(false, (byte) 0, (short) 0, 'x', 0, 0, Float.NaN, Double.NaN, null);
        ByteBuf buf = Unpooled.buffer();
        RecordCodec.write(new ByteBufFrame(buf), layout, value);
        RecordCodec.write(new ByteBufFrame(buf), layout, nullText);
        RecordCodec.write(new ByteBufFrame(buf), layout, null);
        assertThat(RecordCodec.read(new ByteBufFrame(buf), layout)).isEqualTo(value);
        assertThat(RecordCodec.read(new ByteBufFrame(buf), layout)).isEqualTo(nullText);
        assertThat(RecordCodec.read(new ByteBufFrame(buf), layout)).isNull();
        assertThat(buf.isReadable()).isFalse();
    }

    @Test
    void arraysWithNullElementsAndNestedRecordsRoundTrip() throws Exception {
        RecordLayout layout = RecordLayout.of(Labelled.class);
        Labelled[] values = {new Labelled("sun", new Particle(0, 0, 0, 1)), null, new Labelled(null, null)};
        ByteBuf buf = Unpooled.buffer();
        RecordCodec.writeArray(new ByteBufFrame(buf), layout, values);
        RecordCodec.writeArray(new ByteBufFrame(buf), layout, null);
        RecordCodec.writeArray(new ByteBufFrame(buf), layout, new Labelled[0]);
        buf.writeByte(0x55); // the next item is left alone
        Object[] read = RecordCodec.readArray(new ByteBufFrame(buf), layout);
        assertThat(read).isInstanceOf(Labelled[].class).containsExactly((Object[]) values);
        assertThat(RecordCodec.readArray(new ByteBufFrame(buf), layout)).isNull();
        assertThat(RecordCodec.readArray(new ByteBufFrame(buf), layout)).isInstanceOf(Labelled[].class).isEmpty();
        assertThat(buf.readByte()).isEqualTo((byte) 0x55);
    }

    @Test
    void primitiveArrayComponentsTravelAsArrayItemsNullIncluded() throws Exception {
        RecordLayout layout = RecordLayout.of(Registration.class);
        assertThat(layout.description()).isEqualTo(Registration.class.getName()
                + "(rank:int,host:java.lang.String,ports:int[],weights:double[],flags:boolean[])");
        ByteBuf buf = Unpooled.buffer();
        RecordCodec.write(new ByteBufFrame(buf), layout, new Registration(2, "10.0.0.1", new int[] {4001, 4002}, new double[] {-0.5},
                new boolean[0]));
        RecordCodec.write(new ByteBufFrame(buf), layout, new Registration(1, null, null, null, null));
        assertThat(buf.readableBytes()).as("fingerprint, presence, rank, host, 2 ports, 1 double, no flags; then nulls")
                .isEqualTo(4 + 1 + 4 + (4 + 8) + (4 + 8) + (4 + 8) + 4 + (4 + 1 + 4 + 4 * 4));
        Registration first = (Registration) RecordCodec.read(new ByteBufFrame(buf), layout);
        assertThat(first.rank()).isEqualTo(2);
        assertThat(first.host()).isEqualTo("10.0.0.1");
        assertThat(first.ports()).containsExactly(4001, 4002);
        assertThat(first.weights()).containsExactly(-0.5);
        assertThat(first.flags()).isEmpty();
        Registration second = (Registration) RecordCodec.read(new ByteBufFrame(buf), layout);
        assertThat(second.host()).isNull();
        assertThat(second.ports()).isNull();
        assertThat(second.weights()).isNull();
        assertThat(second.flags()).isNull();
        assertThat(buf.isReadable()).isFalse();
    }

    @Test
    void anArrayComponentLongerThanTheFrameIsRefused() {
        RecordLayout layout = RecordLayout.of(WithArray.class);
        ByteBuf buf = Unpooled.buffer();
        buf.writeInt(layout.fingerprint()).writeByte(1).writeInt(1_000_000).writeInt(7);
        assertThatThrownBy(() -> RecordCodec.read(new ByteBufFrame(buf), layout)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("int[]");
    }

    @Test
    void aParticleIsFourDoublesAndAPresenceByte() {
        RecordLayout layout = RecordLayout.of(Particle.class);
        ByteBuf buf = Unpooled.buffer();
        RecordCodec.writeArray(new ByteBufFrame(buf), layout, new Particle[] {new Particle(1, 2, 3, 4), new Particle(5, 6, 7, 8)});
        assertThat(buf.readableBytes()).isEqualTo(4 + 4 + 2 * (1 + 4 * 8));
        assertThat(layout.description()).isEqualTo(Particle.class.getName() + "(x:double,y:double,z:double,mass:double)");
        assertThat(layout.fingerprint()).isEqualTo(layout.description().hashCode());
    }

    @Test
    void onlyRecordsOfPrimitivesStringsAndSuchRecordsAreFlat() {
        assertThat(RecordLayout.of(Particle.class)).isNotNull();
        assertThat(RecordLayout.of(Labelled.class)).isNotNull();
        assertThat(RecordLayout.of(WithList.class)).isNull();
        assertThat(RecordLayout.of(WithArray.class)).as("a primitive array component").isNotNull();
        assertThat(RecordLayout.of(WithGrid.class)).as("a two-dimensional array").isNull();
        assertThat(RecordLayout.of(Node.class)).as("a recursive record").isNull();
        assertThat(RecordLayout.of(NotARecord.class)).isNull();
        assertThat(RecordLayout.of(Integer.class)).isNull();
        assertThat(RecordLayout.of(Particle.class)).isSameAs(RecordLayout.of(Particle.class));
    }

    @Test
    void aValueOfAnotherLayoutIsRefusedNamingBoth() {
        ByteBuf buf = Unpooled.buffer();
        RecordCodec.write(new ByteBufFrame(buf), RecordLayout.of(Particle.class), new Particle(1, 2, 3, 4));
        RecordLayout labelled = RecordLayout.of(Labelled.class);
        assertThatThrownBy(() -> RecordCodec.read(new ByteBufFrame(buf), labelled)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("another layout")
                .hasMessageContaining(labelled.description())
                .hasMessageContaining(String.format("%08x", RecordLayout.of(Particle.class).fingerprint()));
    }

    @Test
    void truncatedValuesAndLengthsBeyondTheFrameAreRefused() {
        RecordLayout layout = RecordLayout.of(Particle.class);
        ByteBuf whole = Unpooled.buffer();
        RecordCodec.write(new ByteBufFrame(whole), layout, new Particle(1, 2, 3, 4));
        for (int cut = 0; cut < whole.readableBytes(); cut++) {
            ByteBuf truncated = whole.slice(0, cut);
            assertThatThrownBy(() -> RecordCodec.read(new ByteBufFrame(truncated), layout)).as("cut at %d", cut)
                    .isInstanceOf(MalformedInputException.class).hasMessageContaining("truncated");
        }
        ByteBuf huge = Unpooled.buffer().writeInt(layout.fingerprint()).writeInt(1_000_000).writeByte(0);
        assertThatThrownBy(() -> RecordCodec.readArray(new ByteBufFrame(huge), layout)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("length 1000000");
        ByteBuf negative = Unpooled.buffer().writeInt(layout.fingerprint()).writeInt(-5);
        assertThatThrownBy(() -> RecordCodec.readArray(new ByteBufFrame(negative), layout)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("length -5");
    }

    @Test
    void aBadPresenceByteIsRefused() {
        RecordLayout layout = RecordLayout.of(Particle.class);
        ByteBuf buf = Unpooled.buffer().writeInt(layout.fingerprint()).writeByte(2);
        assertThatThrownBy(() -> RecordCodec.read(new ByteBufFrame(buf), layout)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("presence byte 0x02");
    }

    @Test
    void valuesTheConstructorRefusesAreAMalformedInput() {
        RecordLayout layout = RecordLayout.of(Positive.class);
        ByteBuf buf = Unpooled.buffer().writeInt(layout.fingerprint()).writeByte(1).writeInt(-1);
        assertThatThrownBy(() -> RecordCodec.read(new ByteBufFrame(buf), layout)).isInstanceOf(MalformedInputException.class)
                .hasMessageContaining("refused by the constructor of " + Positive.class.getName())
                .hasMessageContaining("expected a positive value but found -1");
    }

    @Test
    void writingAValueOfAnotherClassIsAClassCastException() {
        RecordLayout layout = RecordLayout.of(Particle.class);
        assertThatThrownBy(() -> RecordCodec.write(new ByteBufFrame(Unpooled.buffer()), layout, "not a particle"))
                .isInstanceOf(ClassCastException.class);
    }

    @Test
    void anArrayOfAbsentValuesFitsABufferBoundedBelowWhatPresentOnesWouldTake() throws Exception {
        // The writer reserves room for every value present (33 bytes a particle) where it can; a bound
        // below that must not refuse an array whose values are absent (a presence byte each).
        RecordLayout layout = RecordLayout.of(Particle.class);
        Particle[] mostlyAbsent = new Particle[1000];
        mostlyAbsent[999] = new Particle(1, 2, 3, 4);
        int needed = 4 + 4 + 999 + 33;
        ByteBuf bounded = Unpooled.buffer(16, needed);
        RecordCodec.writeArray(new ByteBufFrame(bounded), layout, mostlyAbsent);
        assertThat(bounded.readableBytes()).isEqualTo(needed);
        assertThat(RecordCodec.readArray(new ByteBufFrame(bounded), layout)).containsExactly((Object[]) mostlyAbsent);
    }

    @Test
    void anArrayOfRecordsOfPrimitivesGrowsTheBufferOnceToItsWholeSize() {
        RecordLayout layout = RecordLayout.of(Particle.class);
        assertThat(layout.fixedBytes()).isEqualTo(33);
        assertThat(RecordLayout.of(Labelled.class).fixedBytes()).isEqualTo(-1);
        assertThat(RecordLayout.of(Registration.class).fixedBytes()).isEqualTo(-1);
        Particle[] particles = new Particle[150];
        java.util.Arrays.setAll(particles, i -> new Particle(i, -i, i * 0.5, 1.0 / 300));
        ByteBuf buf = Unpooled.buffer(16);
        RecordCodec.writeArray(new ByteBufFrame(buf), layout, particles);
        assertThat(buf.readableBytes()).isEqualTo(4 + 4 + 150 * 33);
        // Reserved at once: 8 + 4,950 rounded up by the allocator, not doubled from 16 past it (8,192 either way
        // with Netty's rounding, so the bound is what the test can see: no more than one power of two above).
        assertThat(buf.capacity()).isLessThanOrEqualTo(8192);
    }
}
