package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A half-assembled body is released however the message ends early ({@link MessageAssembler}): the
 * channel closes, the assembler is removed, or the next message's head arrives. Each case for both
 * assemblers; a leak shows as a piece whose reference count stays above zero.
 */
class MessageAssemblerLifecycleTest {
    private static final int MAX = 1 << 10;

    private static MessageAssembler<?> assembler(boolean request) {
        return request ? new RequestAssembler(MAX, () -> { }) : new ResponseAssembler(MAX);
    }

    private static HttpMessage head(boolean request) {
        HttpMessage head = request ? new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/x")
                : new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 10);
        return head;
    }

    /** Feeds a head and 5 of its 10 body bytes, ends the message with {@code end}, returns the piece. */
    private static ByteBuf halfABody(boolean request, Consumer<EmbeddedChannel> end) {
        MessageAssembler<?> assembler = assembler(request);
        EmbeddedChannel channel = new EmbeddedChannel(assembler);
        ByteBuf piece = Unpooled.buffer(5).writeZero(5);
        channel.writeInbound(head(request));
        channel.writeInbound(new DefaultHttpContent(piece));
        assertThat(piece.refCnt()).as("held by the assembler while the body is incomplete").isEqualTo(1);
        assertThat(assembler.body.size()).isEqualTo(5);
        end.accept(channel);
        assertThat(assembler.body.size()).isZero();
        assertThat(assembler.head).isNull();
        assertThat((Object) channel.readInbound()).as("nothing passed on").isNull();
        channel.finishAndReleaseAll();
        return piece;
    }

    @ParameterizedTest(name = "request={0}")
    @ValueSource(booleans = {true, false})
    void aBodyHalfReceivedIsReleasedWhenTheChannelCloses(boolean request) {
        assertThat(halfABody(request, EmbeddedChannel::close).refCnt()).isZero();
    }

    @ParameterizedTest(name = "request={0}")
    @ValueSource(booleans = {true, false})
    void aBodyHalfReceivedIsReleasedWhenTheAssemblerIsRemoved(boolean request) {
        ByteBuf piece = halfABody(request, channel -> {
            ChannelHandler first = channel.pipeline().first();
            channel.pipeline().remove(first);
        });
        assertThat(piece.refCnt()).isZero();
    }

    @ParameterizedTest(name = "request={0}")
    @ValueSource(booleans = {true, false})
    void aBodyHalfReceivedIsReleasedWhenTheNextHeadArrives(boolean request) {
        Supplier<HttpMessage> next = () -> head(request);
        ByteBuf piece = halfABody(request, channel -> {
            channel.writeInbound(next.get());
            MessageAssembler<?> assembler = (MessageAssembler<?>) channel.pipeline().first();
            assertThat(assembler.head).as("the new message is being assembled").isNotNull();
            assembler.discard();
        });
        assertThat(piece.refCnt()).isZero();
    }
}
