package org.sessionj.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.ByteBufFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RecordCodec#prime}: once per layout, leaves nothing allocated, never fails the caller. */
class RecordPrimingTest {
    /** Each test primes its own record classes: layouts (and whether they were primed) are per JVM. */
    record Body(double x, double y, double z, double mass) {
    }

    record Mixed(String name, int[] ports, Body body, long id) {
    }

    record Strict(int value) {
        Strict {
            if (value <= 0) {
                throw new IllegalArgumentException("expected a positive value but found " + value);
            }
        }
    }

    /** An allocator that keeps every buffer it hands out, to see that priming released them. */
    static final class Recording extends AbstractByteBufAllocator {
        final List<ByteBuf> handedOut = new ArrayList<>();

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf buf = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
            handedOut.add(buf);
            return buf;
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    @Test
    void primingRunsOncePerLayoutReleasesItsScratchBufferAndLeavesTheCodecWorking() throws Exception {
        RecordLayout layout = RecordLayout.of(Mixed.class);
        assertThat(layout.primed()).isFalse();
        Recording alloc = new Recording();
        RecordCodec.prime(layout, alloc);
        assertThat(layout.primed()).isTrue();
        assertThat(alloc.handedOut).hasSize(1);
        assertThat(alloc.handedOut.get(0).refCnt()).isZero();
        RecordCodec.prime(layout, alloc);
        assertThat(alloc.handedOut).as("a second priming does nothing").hasSize(1);
        assertThat(RecordLayout.of(Body.class).primed()).as("a nested layout is primed through its parent only")
                .isFalse();

        Mixed value = new Mixed("rank 1", new int[] {4000, 4001}, new Body(1, 2, 3, 4), 7L);
        Frame buf = new ByteBufFrame(Unpooled.buffer());
        RecordCodec.writeArray(buf, layout, new Object[] {value, null});
        Object[] back = RecordCodec.readArray(buf, layout);
        assertThat(back).hasSize(2);
        Mixed first = (Mixed) back[0];
        assertThat(first.name()).isEqualTo("rank 1");
        assertThat(first.ports()).containsExactly(4000, 4001);
        assertThat(first.body()).isEqualTo(new Body(1, 2, 3, 4));
        assertThat(back[1]).isNull();
    }

    @Test
    void aConstructorThatRefusesZeroValuesLeavesTheLayoutColdWithoutFailingOrLeaking() throws Exception {
        RecordLayout layout = RecordLayout.of(Strict.class);
        Recording alloc = new Recording();
        RecordCodec.prime(layout, alloc);                  // the zero value is refused: nothing more is run
        assertThat(layout.primed()).isTrue();
        assertThat(alloc.handedOut).allSatisfy(b -> assertThat(b.refCnt()).isZero());
        Frame buf = new ByteBufFrame(Unpooled.buffer());
        RecordCodec.write(buf, layout, new Strict(5));
        assertThat(RecordCodec.read(buf, layout)).isEqualTo(new Strict(5));
    }
}
