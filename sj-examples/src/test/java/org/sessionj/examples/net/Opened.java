package org.sessionj.examples.net;

import java.util.ArrayList;
import java.util.List;

/** What a test opened (servers, clients, portals), closed last-opened first after each test. */
public final class Opened {
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Remembers {@code closeable} and returns it. */
    public synchronized <T extends AutoCloseable> T add(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** Closes everything, last first; the first failure is thrown after all were tried. */
    public synchronized void closeAll() throws Exception {
        Exception first = null;
        for (AutoCloseable c : opened.reversed()) {
            try {
                c.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }
}
