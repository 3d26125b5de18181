package org.sessionj.runtime.internal.wire;

import org.sessionj.runtime.spi.Frame;
import org.sessionj.runtime.spi.support.Frames;
import java.io.IOException;
import org.sessionj.runtime.spi.Connection;

/** The failure notice item ({@code 0x3F} · reason): how a failing side tells its peer why. */
public final class FailureNotice {
    private FailureNotice() {
    }

    /** The most of a reason a notice carries, and the most of a peer's reason an exception repeats. */
    static final int REASON_SHOWN = 1000;

    /**
     * {@code reason} cut to {@link #REASON_SHOWN} characters, saying how much was left out: a failure's
     * text goes to the peer and into its exception, where a codec's reference chain (27 KB, adv15 A5) or a
     * hostile peer's megabytes of "reason" help no one.
     */
    public static String shortened(String reason) {
        return reason == null || reason.length() <= REASON_SHOWN ? reason
                : reason.substring(0, REASON_SHOWN) + "… (" + (reason.length() - REASON_SHOWN) + " more characters)";
    }

    /** A reason the peer sent, as this side repeats it: {@link #shortened} and its control characters escaped ({@link PeerText}). */
    public static String received(String reason) {
        return PeerText.escaped(shortened(reason));
    }

    /** Sends a notice in a frame of its own, best effort: a peer that is gone learns from the close. */
    public static void send(Connection connection, String reason) {
        if (write(connection, reason)) {
            try {
                connection.flush();
            } catch (IOException | RuntimeException e) {
                // The peer is gone already.
            }
        }
    }

    /**
     * Writes a notice in a frame of its own without flushing it, best effort: the failing session's
     * {@link Connection#closeFailed} sends it if the peer takes it, and does not wait for a peer that does
     * not (a flush here waited for it, without bound when no send timeout was set). False if the write failed.
     */
    public static boolean write(Connection connection, String reason) {
        reason = shortened(reason);
        try {
            Frame notice = Frames.allocate(connection, 64);
            notice.writeByte(Tags.FAIL);
            ValueCodec.writeString(notice, reason);
            Frames.write(connection, notice);
            return true;
        } catch (IOException | RuntimeException e) {
            return false; // the peer is gone already
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
                        return received(ValueCodec.readString(frame));
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
