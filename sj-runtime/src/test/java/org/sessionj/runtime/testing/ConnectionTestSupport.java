package org.sessionj.runtime.testing;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.sessionj.runtime.spi.Connection;

/**
 * What every transport-level test needs: acceptors and connections closed after each test, and
 * text frames written and read back (the read frame released).
 */
public abstract class ConnectionTestSupport {
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        opened.clear();
    }

    /** Closes {@code closeable} after the test. */
    protected <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** A frame of {@code c}'s allocator holding {@code text} (UTF-8). */
    protected static ByteBuf frame(Connection c, String text) {
        ByteBuf buf = c.alloc().buffer();
        buf.writeCharSequence(text, StandardCharsets.UTF_8);
        return buf;
    }

    /** The text of {@code frame}, which is released. */
    protected static String text(ByteBuf frame) {
        try {
            return frame.toString(StandardCharsets.UTF_8);
        } finally {
            frame.release();
        }
    }
}
