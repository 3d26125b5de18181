package org.sessionj.transport.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.sessionj.runtime.spi.Connection;

/**
 * The peer in a second JVM: connects to the {@code tcp} acceptor at {@code args[0]:args[1]}, says
 * "ready", then blocks reading until it is killed; or, with {@code args[2]} = N, sends N numbered
 * frames, closes and exits at once (the frames must still arrive).
 */
public final class PeerProcess {
    /** Large enough that the last frames are still queued in this process when it closes and halts. */
    static final int FRAME_BYTES = 32 * 1024;

    private PeerProcess() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = new TcpTransport().connect(args[0], Integer.parseInt(args[1]), 30_000_000_000L);
        ByteBuf ready = connection.alloc().buffer();
        ready.writeCharSequence("ready", StandardCharsets.UTF_8);
        connection.write(ready);
        connection.flush();
        if (args.length > 2) {
            int frames = Integer.parseInt(args[2]);
            for (int i = 0; i < frames; i++) {
                ByteBuf frame = connection.alloc().buffer(FRAME_BYTES);
                frame.writeInt(i).writeZero(FRAME_BYTES - 4);
                connection.write(frame);
            }
            connection.flush();
            connection.close();
            // halt, not exit: no shutdown hook may rescue frames that close() did not see off
            Runtime.getRuntime().halt(0);
        }
        ByteBuf never = connection.read(-1);
        never.release();
    }
}
