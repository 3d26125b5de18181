package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * A half whose client upgraded to WebSocket: binary messages carry its uploads ({@link Wire#WS_DATA}),
 * its end ({@link Wire#WS_FIN}); what it downloads is pushed as soon as it is there, as fast as the
 * channel takes it. A client that uploads faster than the other side reads is held back by no longer
 * reading its socket.
 */
final class WsServerHandler extends ChannelInboundHandlerAdapter {
    private final Half half;
    private final HttpSettings settings;
    private ChannelHandlerContext ctx;
    private long position;
    private boolean pushing;
    private boolean pushAgain;
    private boolean finSent;
    private boolean waiting;
    private boolean finReceived;
    private boolean inactive;
    private boolean heldByStream;
    private boolean heldByWrites;
    private boolean errorSent;
    private final java.util.ArrayDeque<ByteBuf> backlog = new java.util.ArrayDeque<>();

    WsServerHandler(Half half, HttpSettings settings) {
        this.half = half;
        this.settings = settings;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        this.position = half.out().written() - half.out().buffered();
        half.endInChannel(true); // until the socket took the end (pushOnce)
        context.executor().execute(this::push);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        try {
            if (errorSent) {
                return; // what was read before the error was sent goes nowhere
            }
            switch (msg) {
                case BinaryWebSocketFrame frame when !frame.isFinalFragment() ->
                        sendError("fragmented WebSocket messages are not part of the SJ protocol (expected whole binary messages)");
                case BinaryWebSocketFrame frame -> received(frame.content());
                case PingWebSocketFrame ping -> context.writeAndFlush(new PongWebSocketFrame(ping.content().retain()));
                case PongWebSocketFrame pong -> { }
                case CloseWebSocketFrame close -> context.close();
                default -> sendError("unexpected " + msg.getClass().getSimpleName()
                        + " on an SJ WebSocket (expected whole binary messages)");
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        if (!context.channel().isWritable()) {
            // A client that makes us answer (pings) and never reads would make us buffer without bound.
            heldByWrites = true;
            updateRead();
        }
    }

    /** Reads the socket unless the stream has no room for more or the client does not take what we send. */
    private void updateRead() {
        ctx.channel().config().setAutoRead(!heldByStream && !heldByWrites && !errorSent);
    }

    private void received(ByteBuf content) {
        if (!content.isReadable()) {
            return;
        }
        byte kind = content.readByte();
        if (kind == Wire.WS_FIN) {
            finReceived = true;
            if (backlog.isEmpty()) {
                half.in().finish();
            }
            return;
        }
        if (kind != Wire.WS_DATA) {
            sendError("unexpected WebSocket message kind " + kind);
            return;
        }
        append(content.retain());
    }

    /** Appends in arrival order: while one message waits for room, later ones queue behind it. */
    private void append(ByteBuf bytes) {
        backlog.add(bytes);
        if (backlog.size() == 1) {
            drain();
        }
    }

    private void drain() {
        ByteBuf bytes;
        while ((bytes = backlog.peek()) != null) {
            ByteStream.Append result = half.in().append(bytes, half.in().written(), false);
            switch (result) {
                case ACCEPTED -> backlog.poll();
                case FULL -> {
                    heldByStream = true;
                    updateRead();
                    Consumer<Boolean> retry = ready -> ctx.executor().execute(() -> {
                        heldByStream = false;
                        updateRead();
                        drain();
                    });
                    if (half.in().awaitSpace(retry, bytes.readableBytes())) {
                        return;
                    }
                }
                case BUSY -> {
                    releaseBacklog();
                    sendError("the relay's buffer memory is spent");
                    return;
                }
                case GAP, CLOSED -> {
                    backlog.poll(); // released by the stream
                    releaseBacklog();
                    sendError(String.valueOf(half.in().refusal()));
                    return;
                }
            }
        }
        heldByStream = false;
        updateRead();
        if (finReceived) {
            half.in().finish();
            if (inactive) {
                half.closedByClient();
            }
        }
    }

    private void releaseBacklog() {
        ByteBuf b;
        while ((b = backlog.poll()) != null) {
            b.release();
        }
    }

    /** Pushes what is there; a call while pushing (a flush made the channel writable) runs another round. */
    private void push() {
        if (pushing) {
            pushAgain = true;
            return;
        }
        pushing = true;
        try {
            do {
                pushAgain = false;
                pushOnce();
            } while (pushAgain);
        } finally {
            pushing = false;
        }
    }

    private void pushOnce() {
        if (finSent || !ctx.channel().isActive()) {
            return;
        }
        try {
            while (ctx.channel().isWritable()) {
                ByteStream.Chunk chunk = half.out().read(position, settings.segmentBytes());
                if (chunk == null) {
                    if (!waiting) {
                        waiting = true;
                        Consumer<Boolean> waiter = ready -> {
                            if (ctx.executor().inEventLoop()) {
                                // The bytes came from a channel on this loop (the relay's other half):
                                // forward them now, not through the task queue.
                                waiting = false;
                                push();
                            } else {
                                ctx.executor().execute(() -> {
                                    waiting = false;
                                    push();
                                });
                            }
                        };
                        if (!half.out().awaitData(waiter)) {
                            waiting = false;
                            continue;
                        }
                    }
                    return;
                }
                if (chunk.failure() != null) {
                    if (!half.isDone() || half.out().refusal() == null) {
                        sendError(chunk.failure());
                    }
                    return;
                }
                if (chunk.hasBytes()) {
                    position += chunk.bytes().readableBytes();
                    ByteBuf message = Wire.wsData(ctx.alloc(), chunk.bytes());
                    ctx.write(new BinaryWebSocketFrame(message), ctx.voidPromise());
                } else if (chunk.bytes() != null) {
                    chunk.bytes().release();
                }
                if (chunk.fin()) {
                    finSent = true;
                    // The socket taking the end means it took every byte before it: only then may a close
                    // waiting for the download (ServedConnection) return (hostile17 H1).
                    ctx.write(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {Wire.WS_FIN})))
                            .addListener(written -> half.endInChannel(false));
                    half.out().read(position, 0); // the WebSocket delivers what it was given: all acknowledged
                    break;
                }
            }
        } finally {
            ctx.flush();
        }
    }

    private void sendError(String reason) {
        if (errorSent) {
            return;
        }
        errorSent = true;
        updateRead();
        if (!finReceived) {
            releaseBacklog();
            half.vanish(reason); // its peer learns why, instead of waiting for the vanish time
        }
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        ByteBuf message = Unpooled.buffer(1 + text.length).writeByte(Wire.WS_ERROR).writeBytes(text);
        ctx.writeAndFlush(new BinaryWebSocketFrame(message));
        ctx.writeAndFlush(new CloseWebSocketFrame()).addListener(f -> ctx.close());
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) {
        if (context.channel().isWritable()) {
            if (heldByWrites) {
                heldByWrites = false;
                updateRead();
            }
            push();
        }
        context.fireChannelWritabilityChanged();
    }

    /**
     * A client that sent its end and closed has closed normally, even if some of its last messages
     * still wait for room: they are appended as the reader makes room, then the end.
     */
    @Override
    public void channelInactive(ChannelHandlerContext context) {
        inactive = true;
        if (!finReceived) {
            releaseBacklog();
            half.vanish("the peer's WebSocket connection was lost");
        } else if (backlog.isEmpty()) {
            half.in().finish();
            half.closedByClient();
        }
        half.exit();
        context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        context.close();
    }
}
