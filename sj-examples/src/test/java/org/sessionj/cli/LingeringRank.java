package org.sessionj.cli;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child rank for {@link ProcessesDemoTest}: plays its part as {@link RankMain} does, then stays alive
 * until the file {@code args[0]} appears (a watch, no polling; at most {@code args[1]} seconds). Exits 0
 * when it appeared, 3 when it did not: rank 0's work after its result then did not overlap this rank's life.
 */
public final class LingeringRank {
    private LingeringRank() {
    }

    /** {@code MARKER SECONDS RANK RENDEZVOUS TIMEOUT HOST PROGRAM…}. */
    public static void main(String[] args) throws IOException, InterruptedException {
        Path marker = Path.of(args[0]);
        long seconds = Long.parseLong(args[1]);
        RankMain.parse(List.of(args).subList(2, args.length)).run();
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            marker.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!Files.exists(marker) && System.nanoTime() < deadline) {
                watch.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        }
        System.exit(Files.exists(marker) ? 0 : 3);
    }
}
