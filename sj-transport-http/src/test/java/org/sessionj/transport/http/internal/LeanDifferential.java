package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs a byte stream through a server's (or a client's) decoding pipeline twice — with the lean
 * decoder in front of Netty's codec, as the transport runs it, and with Netty's codec alone — cut into
 * pieces of a given size, and describes what came out of each: the messages as the handler sees them
 * (method or status, URI, version, keep-alive, the headers a client reads, body, whether the decode
 * failed), what the pipeline wrote back (refusals), and how many decoded messages were the lean
 * decoder's. The lean decoder is right when both descriptions are equal: it decodes what Netty's codec
 * decodes, the same way, and hands it everything else.
 */
final class LeanDifferential {
    /** The pipeline's body bound (a request's: a segment and some slack). */
    static final int MAX_BODY = 1000;

    /** What one pipeline made of a stream. */
    record Outcome(List<String> messages, String written, int lean, boolean leaked) {
    }

    private LeanDifferential() {
    }

    /** A server's pipeline, lean or not, fed {@code stream} in pieces of {@code cut} bytes. */
    static Outcome requests(byte[] stream, int cut, boolean lean) {
        LeanRequestDecoder decoder = lean ? new LeanRequestDecoder(MAX_BODY) : null;
        Collector collector = new Collector(() -> decoder != null && decoder.isLean());
        List<ChannelHandler> handlers = new ArrayList<>();
        if (decoder != null) {
            handlers.add(decoder);
        }
        handlers.add(new HttpServerCodec(4096, 8192, 64 * 1024));
        handlers.add(new RequestAssembler(MAX_BODY, () -> { }));
        handlers.add(collector);
        return run(stream, cut, handlers, collector);
    }

    /** A client's pipeline, lean or not, fed {@code stream} (answers) in pieces of {@code cut} bytes. */
    static Outcome responses(byte[] stream, int cut, boolean lean) {
        LeanResponseDecoder decoder = lean ? new LeanResponseDecoder(MAX_BODY) : null;
        Collector collector = new Collector(() -> decoder != null && decoder.isLean());
        List<ChannelHandler> handlers = new ArrayList<>();
        if (decoder != null) {
            handlers.add(decoder);
        }
        handlers.add(new HttpResponseDecoder(new HttpDecoderConfig().setMaxInitialLineLength(4096)
                .setMaxHeaderSize(8192).setMaxChunkSize(64 * 1024).setHeadersFactory(Wire.HEADERS)
                .setTrailersFactory(Wire.TRAILERS)));
        handlers.add(new ResponseAssembler(MAX_BODY));
        handlers.add(collector);
        return run(stream, cut, handlers, collector);
    }

    private static Outcome run(byte[] stream, int cut, List<ChannelHandler> handlers, Collector collector) {
        EmbeddedChannel channel = new EmbeddedChannel(handlers.toArray(ChannelHandler[]::new));
        List<ByteBuf> pieces = new ArrayList<>();
        int step = Math.max(1, cut);
        for (int at = 0; at < stream.length && channel.isOpen(); at += step) {
            ByteBuf piece = Unpooled.copiedBuffer(stream, at, Math.min(step, stream.length - at));
            pieces.add(piece);
            try {
                channel.writeInbound(piece);
            } catch (RuntimeException e) {
                collector.messages.add("exception " + e.getClass().getSimpleName());
            }
        }
        StringBuilder written = new StringBuilder();
        try {
            channel.finish();
        } catch (RuntimeException e) {
            collector.messages.add("exception at close " + e.getClass().getSimpleName());
        }
        for (Object out; (out = channel.readOutbound()) != null;) {
            if (out instanceof ByteBuf buf) {
                written.append(buf.toString(java.nio.charset.StandardCharsets.ISO_8859_1));
            } else {
                written.append(out);
            }
            io.netty.util.ReferenceCountUtil.release(out);
        }
        channel.finishAndReleaseAll();
        boolean leaked = false;
        for (ByteBuf piece : pieces) {
            leaked |= piece.refCnt() != 0;
        }
        return new Outcome(collector.messages, written.toString(), collector.lean, leaked);
    }

    /** Describes every message the pipeline hands on, and releases it. */
    private static final class Collector extends ChannelInboundHandlerAdapter {
        final List<String> messages = new ArrayList<>();
        final Supplier<Boolean> leanNow;
        int lean;

        Collector(Supplier<Boolean> leanNow) {
            this.leanNow = leanNow;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (leanNow.get()) {
                    lean++;
                }
                if (msg instanceof FullHttpRequest r) {
                    messages.add(r.method() + " " + r.uri() + " " + r.protocolVersion() + " keepAlive="
                            + (r.decoderResult().isSuccess() && HttpUtil.isKeepAlive(r)) + " ok="
                            + r.decoderResult().isSuccess() + " body=" + ByteBufUtil.hexDump(r.content()));
                } else if (msg instanceof FullHttpResponse r) {
                    StringBuilder kept = new StringBuilder();
                    for (String name : new String[] {Wire.OFFSET, Wire.FIN, Wire.WIRE, Wire.PORT}) {
                        kept.append(' ').append(name).append('=').append(r.headers().getAll(name));
                    }
                    messages.add(r.status() + " " + r.protocolVersion() + " keepAlive="
                            + (r.decoderResult().isSuccess() && HttpUtil.isKeepAlive(r)) + " ok="
                            + r.decoderResult().isSuccess() + kept + " body=" + ByteBufUtil.hexDump(r.content()));
                } else {
                    messages.add("other " + msg.getClass().getSimpleName());
                }
            } finally {
                io.netty.util.ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            messages.add("exception " + cause.getClass().getSimpleName());
        }
    }
}
