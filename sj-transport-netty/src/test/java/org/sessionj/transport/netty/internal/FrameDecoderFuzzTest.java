package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes the TCP/TLS frame decoder with a byte stream cut into chunks at points the input chooses:
 * the frames that come out are exactly those a reference reading of the whole stream finds (4-byte
 * length, then the frame), in order, however the stream was cut; a negative or oversize length stops
 * decoding with a {@link CorruptedFrameException} or {@link TooLongFrameException} and nothing after
 * it is decoded; every buffer is released (none leaks, none is released twice).
 *
 * <p>Seeds: {@code src/test/resources/org/sessionj/transport/netty/internal/FrameDecoderFuzzTestInputs/frames}
 * (first byte: how to cut the stream; the rest: the stream).
 */
class FrameDecoderFuzzTest {
    private static final int MAX_FRAME = 4096;

    @FuzzTest
    void frames(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int cutEvery = 1 + (input[0] & 0x3f);
        byte[] stream = Arrays.copyOfRange(input, 1, input.length);
        Reference expected = Reference.read(stream);

        List<byte[]> frames = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf frame = (ByteBuf) msg;
                try {
                    byte[] bytes = new byte[frame.readableBytes()];
                    frame.readBytes(bytes);
                    frames.add(bytes);
                } finally {
                    frame.release();
                }
            }
        });
        List<ByteBuf> chunks = new ArrayList<>();
        Throwable failure = null;
        for (int at = 0; at < stream.length && failure == null; at += cutEvery) {
            ByteBuf chunk = Unpooled.copiedBuffer(stream, at, Math.min(cutEvery, stream.length - at));
            chunks.add(chunk);
            try {
                channel.writeInbound(chunk);
            } catch (DecoderException e) {
                failure = e;
            }
        }
        channel.finishAndReleaseAll();

        assertThat(frames).as("frames").hasSize(expected.frames().size());
        for (int i = 0; i < frames.size(); i++) {
            assertThat(frames.get(i)).as("frame %d", i).isEqualTo(expected.frames().get(i));
        }
        if (expected.badLength() != null) {
            assertThat(failure).as("a bad length stops decoding")
                    .isInstanceOfAny(CorruptedFrameException.class, TooLongFrameException.class);
            assertThat(failure.getMessage()).contains("length " + expected.badLength());
        } else {
            assertThat(failure).isNull();
        }
        for (ByteBuf chunk : chunks) {
            assertThat(chunk.refCnt()).as("every chunk released").isZero();
        }
    }

    /** The frames a plain reading of the whole stream finds, and the bad length that stops it, if any. */
    record Reference(List<byte[]> frames, Integer badLength) {
        static Reference read(byte[] stream) {
            List<byte[]> frames = new ArrayList<>();
            ByteBuffer in = ByteBuffer.wrap(stream);
            while (in.remaining() >= 4) {
                int length = in.getInt(in.position());
                if (length == FrameDecoder.HEARTBEAT) {
                    in.getInt(); // a heartbeat: no frame
                    continue;
                }
                if (length < 0 || length > MAX_FRAME) {
                    return new Reference(frames, length);
                }
                if (in.remaining() < 4 + length) {
                    break;
                }
                in.getInt();
                byte[] frame = new byte[length];
                in.get(frame);
                frames.add(frame);
            }
            return new Reference(frames, null);
        }
    }
}
