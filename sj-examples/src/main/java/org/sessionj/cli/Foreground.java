package org.sessionj.cli;

import java.util.concurrent.CountDownLatch;

/** Long-running parties of the examples ({@code ./sj chat server}, {@code ./sj portal webmail} …). */
final class Foreground {
    private Foreground() {
    }

    /** Blocks until the process is stopped (Ctrl-C, SIGTERM), then closes {@code party}; returns exit status 0. */
    static int serveUntilStopped(AutoCloseable party) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                party.close();
            } catch (Exception e) {
                // stopping anyway
            }
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }
}
