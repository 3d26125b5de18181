package org.sessionj.transport.ipc;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.sessionj.runtime.spi.Connection;

/**
 * The peer in a second JVM: connects to the ipc acceptor on port {@code args[0]} (the socket
 * directory comes from {@code -Dsessionj.ipc.dir}), says "ready", then blocks reading until it is
 * killed; or, with {@code args[1]} = N, sends N numbered frames of 32 KiB, closes and halts at once
 * (the frames and the close must still arrive).
 */
public final class IpcPeerProcess {
    static final int FRAME_BYTES = 32 * 1024;

    private IpcPeerProcess() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = new IpcTransport().connect("localhost", Integer.parseInt(args[0]), 30_000_000_000L);
        ByteBuf ready = connection.alloc().buffer();
        ready.writeCharSequence("ready", StandardCharsets.UTF_8);
        connection.write(ready);
        connection.flush();
        if (args.length > 1) {
            int frames = Integer.parseInt(args[1]);
            for (int i = 0; i < frames; i++) {
                ByteBuf frame = connection.alloc().buffer(FRAME_BYTES);
                frame.writeInt(i).writeZero(FRAME_BYTES - 4);
                connection.write(frame);
            }
            connection.close();
            Runtime.getRuntime().halt(0); // no shutdown hook may rescue frames that close() did not see off
        }
        ByteBuf never = connection.read(-1);
        never.release();
    }
}
