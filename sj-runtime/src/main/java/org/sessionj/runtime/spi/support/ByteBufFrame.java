package org.sessionj.runtime.spi.support;

import io.netty.buffer.ByteBuf;
import org.sessionj.runtime.spi.Frame;

/**
 * A {@link Frame} view over a Netty {@link ByteBuf}: how the session layer writes and reads the frames
 * of a transport whose frames are Netty buffers (every network transport), so that their path stays
 * {@code ByteBuf} end to end. Every method is the buffer's own; {@link #release()} releases the buffer.
 */
public final class ByteBufFrame implements Frame {
    private final ByteBuf buf;

    /**
     * A view over {@code buf}; the view's owner owns the buffer.
     *
     * @param buf the buffer
     */
    public ByteBufFrame(ByteBuf buf) {
        this.buf = buf;
    }

    /** The buffer under this view (to write it to a connection, which then owns it). */
    public ByteBuf buf() {
        return buf;
    }

    @Override
    public void release() {
        buf.release();
    }

    @Override
    public int readableBytes() {
        return buf.readableBytes();
    }

    @Override
    public boolean isReadable() {
        return buf.isReadable();
    }

    @Override
    public int readerIndex() {
        return buf.readerIndex();
    }

    @Override
    public ByteBufFrame readerIndex(int index) {
        buf.readerIndex(index);
        return this;
    }

    @Override
    public int writerIndex() {
        return buf.writerIndex();
    }

    @Override
    public ByteBufFrame writerIndex(int index) {
        buf.writerIndex(index);
        return this;
    }

    @Override
    public ByteBufFrame ensureWritable(int bytes) {
        buf.ensureWritable(bytes);
        return this;
    }

    @Override
    public ByteBufFrame reserve(int bytes) {
        buf.ensureWritable(bytes, false);
        return this;
    }

    @Override
    public ByteBufFrame writeByte(int value) {
        buf.writeByte(value);
        return this;
    }

    @Override
    public ByteBufFrame writeShort(int value) {
        buf.writeShort(value);
        return this;
    }

    @Override
    public ByteBufFrame writeInt(int value) {
        buf.writeInt(value);
        return this;
    }

    @Override
    public ByteBufFrame writeLong(long value) {
        buf.writeLong(value);
        return this;
    }

    @Override
    public ByteBufFrame writeBytes(byte[] source, int offset, int length) {
        buf.writeBytes(source, offset, length);
        return this;
    }

    @Override
    public ByteBufFrame writeBytes(Frame source) {
        if (source instanceof ByteBufFrame view) {
            buf.writeBytes(view.buf);
        } else if (source.hasArray()) {
            int length = source.readableBytes();
            buf.writeBytes(source.array(), source.arrayOffset() + source.readerIndex(), length);
            source.skipBytes(length);
        } else {
            byte[] bytes = new byte[source.readableBytes()];
            source.readBytes(bytes);
            buf.writeBytes(bytes);
        }
        return this;
    }

    @Override
    public byte readByte() {
        return buf.readByte();
    }

    @Override
    public short readShort() {
        return buf.readShort();
    }

    @Override
    public int readInt() {
        return buf.readInt();
    }

    @Override
    public long readLong() {
        return buf.readLong();
    }

    @Override
    public ByteBufFrame readBytes(byte[] target, int offset, int length) {
        buf.readBytes(target, offset, length);
        return this;
    }

    @Override
    public ByteBufFrame readBytes(Frame target, int length) {
        if (target instanceof ByteBufFrame view) {
            buf.readBytes(view.buf, length);
        } else {
            if (buf.readableBytes() < length) {
                throw new IndexOutOfBoundsException("reading " + length + " bytes of " + buf.readableBytes());
            }
            if (buf.hasArray()) {
                target.writeBytes(buf.array(), buf.arrayOffset() + buf.readerIndex(), length);
                buf.skipBytes(length);
            } else {
                byte[] bytes = new byte[length];
                buf.readBytes(bytes);
                target.writeBytes(bytes);
            }
        }
        return this;
    }

    @Override
    public ByteBufFrame skipBytes(int length) {
        buf.skipBytes(length);
        return this;
    }

    @Override
    public byte getByte(int index) {
        return buf.getByte(index);
    }

    @Override
    public int getInt(int index) {
        return buf.getInt(index);
    }

    @Override
    public ByteBufFrame getBytes(int index, byte[] target) {
        buf.getBytes(index, target);
        return this;
    }

    @Override
    public ByteBufFrame setInt(int index, int value) {
        buf.setInt(index, value);
        return this;
    }

    @Override
    public ByteBufFrame setShort(int index, int value) {
        buf.setShort(index, value);
        return this;
    }

    @Override
    public boolean hasArray() {
        return buf.hasArray();
    }

    @Override
    public byte[] array() {
        return buf.array();
    }

    @Override
    public int arrayOffset() {
        return buf.arrayOffset();
    }

    @Override
    public String toString() {
        return "ByteBufFrame(" + buf + ")";
    }
}
