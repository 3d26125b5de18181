package org.sessionj.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ipc memory files a requester JVM keeps in the memory directory (docs/ipc-transport.md, "Reusing
 * memory"): at most {@code sessionj.ipc.pool} of them once its sessions are closed; none once it has
 * exited normally; and those of a JVM killed with kill -9 are removed by the next JVM to use the
 * directory (a requester started right after the kill), once they are old enough that no hand-over can
 * still be under way (20 s).
 *
 * <p>Requesters and the server are peer JVMs ({@link FaultPeer}); this JVM only looks at the directory.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IpcFilesFaultTest {
    private static final List<String> IPC = List.of("-Dsessionj.sessionTransports=ipc");
    /** The sweep's age rule (20 s) and a loaded machine's slack. */
    private static final long RECLAIM_BOUND_MILLIS = Long.getLong("faults.reclaimBoundMillis", 60_000);

    @Test
    void aRequesterKeepsAtMostItsPoolOfFilesLeavesNoneWhenItExitsAndAKilledOnesAreReclaimedByTheNextStart()
            throws Exception {
        try (FaultSupport.Peer server = FaultSupport.start(IPC, "ipc,tcp", "serve")) {
            String port = Integer.toString(server.port());

            // A requester that exits normally.
            try (FaultSupport.Peer exiting = FaultSupport.start(IPC, "ipc,tcp", "client", port, "200", "exit")) {
                int files = Integer.parseInt(exiting.next("FILES ").strip());
                assertThat(files).as("its files after 200 closed sessions (pool bound %d)", FaultSupport.POOL_BOUND)
                        .isBetween(1, FaultSupport.POOL_BOUND);
                exiting.next("EXITING");
                assertThat(exiting.process.waitFor(FaultSupport.PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(exiting.process.exitValue()).isZero();
                assertThat(FaultSupport.ringFilesOf(exiting.process.pid())).as("its files once it exited").isEmpty();
                System.out.printf("FAULTS ipc requester exiting normally: %d pooled file(s) while running, none after%n",
                        files);
            }

            // A requester killed while its pool holds files, and the next one to start.
            List<Path> left;
            long killed;
            try (FaultSupport.Peer holding = FaultSupport.start(IPC, "ipc,tcp", "client", port, "200", "hold")) {
                int files = Integer.parseInt(holding.next("FILES ").strip());
                holding.next("HOLDING");
                killed = holding.process.pid();
                assertThat(FaultSupport.ringFilesOf(killed)).hasSize(files);
                holding.kill();
                left = FaultSupport.ringFilesOf(killed);
                assertThat(left).as("kill -9 leaves the pool's files").isNotEmpty();
            }
            long start = System.nanoTime();
            try (FaultSupport.Peer next = FaultSupport.start(IPC, "ipc,tcp", "client", port, "1", "loop")) {
                next.next("FILES ");
                long deadline = start + TimeUnit.MILLISECONDS.toNanos(RECLAIM_BOUND_MILLIS);
                while (!FaultSupport.ringFilesOf(killed).isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                }
                long millis = FaultSupport.millisSince(start);
                assertThat(FaultSupport.ringFilesOf(killed)).as("the killed requester's files, %d ms after the next"
                        + " start", millis).isEmpty();
                System.out.printf("FAULTS ipc requester killed: %d file(s) left, removed by the next requester %d ms"
                        + " after it started%n", left.size(), millis);
                next.process.getOutputStream().close(); // ends its loop: it exits normally
                next.next("EXITING");
                assertThat(next.process.waitFor(FaultSupport.PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(FaultSupport.ringFilesOf(next.process.pid())).as("the next requester's files once it exited")
                        .isEmpty();
            }
            for (Path file : left) {
                assertThat(Files.exists(file)).as("%s", file).isFalse();
            }
        }
    }
}
