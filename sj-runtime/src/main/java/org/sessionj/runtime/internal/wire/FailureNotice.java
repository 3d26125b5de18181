package org.sessionj.runtime.internal.wire;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.Frames;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;

/** The failure notice item ({@code 0x3F} · reason): how a failing side tells its peer why. */
public final class FailureNotice {
    private FailureNotice() {
    }

    /** Sends a notice in a frame of its own, best effort: a peer that is gone learns from the close. */
    public static void send(Connection connection, String reason) {
        try {
            Frame notice = Frames.allocate(connection, 64);
            notice.writeByte(Tags.FAIL);
            ValueCodec.writeString(notice, reason);
            Frames.write(connection, notice);
            connection.flush();
        } catch (IOException | RuntimeException e) {
            // The peer is gone already.
        }
    }

    /**
     * The reason of a notice the peer sent before it closed, if one is already waiting among the
     * unread frames (which are dropped); null otherwise. Never blocks.
     */
    public static String waiting(Connection connection) {
        try {
            while (connection.isReadable()) {
                Frame frame = Frames.read(connection, 0);
                if (frame == null) {
                    return null;
                }
                try {
                    if (frame.isReadable() && frame.getByte(frame.readerIndex()) == Tags.FAIL) {
                        frame.skipBytes(1);
                        return ValueCodec.readString(frame);
                    }
                } finally {
                    frame.release();
                }
            }
        } catch (IOException | MalformedInputException e) {
            // no notice to be had
        }
        return null;
    }
}
