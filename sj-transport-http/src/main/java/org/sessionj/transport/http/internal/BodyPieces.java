package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The body of one HTTP message as its pieces arrive from the decoder ({@link RequestAssembler},
 * {@link ResponseAssembler}): the first piece is kept as it is (a body in one piece, the usual case,
 * costs no composite buffer); a second piece makes a composite of them. Event loop only.
 */
final class BodyPieces {
    private static final int MAX_COMPONENTS = 1024;
    private ByteBuf body;

    /** Bytes gathered so far. */
    int size() {
        return body == null ? 0 : body.readableBytes();
    }

    /** Adds {@code piece} (retained here: the caller still releases its own reference). */
    void add(ByteBufAllocator alloc, ByteBuf piece) {
        if (!piece.isReadable()) {
            return;
        }
        if (body == null) {
            body = piece.retain();
            return;
        }
        CompositeByteBuf composite;
        if (body instanceof CompositeByteBuf c) {
            composite = c;
        } else {
            composite = alloc.compositeBuffer(MAX_COMPONENTS);
            composite.addComponent(true, body);
            body = composite;
        }
        composite.addComponent(true, piece.retain());
    }

    /** The body gathered (the caller owns it; empty if none), and a fresh start. */
    ByteBuf take() {
        ByteBuf whole = body == null ? Unpooled.EMPTY_BUFFER : body;
        body = null;
        return whole;
    }

    /** Drops what was gathered. */
    void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
