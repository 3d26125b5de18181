package org.sessionj.examples.chat.terminal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Real {@code ./sj} processes for the terminal tests: servers and relays as plain processes (their
 * first lines parsed), and chat clients in tmux terminals, driven as a person would (send-keys) and read
 * from the screen (capture-pane). Waiting for a text on a screen needs no sleeping: every terminal's
 * output is also piped (tmux pipe-pane) into a FIFO read by a thread here, and a waiter looks at the
 * screen again only when the terminal wrote something since it last looked.
 */
final class TmuxTerminals implements AutoCloseable {
    private static final Path SJ = Path.of("..", "sj").toAbsolutePath().normalize();
    private static final long WAIT_MILLIS = 60_000;

    private final Path dir;
    private final Path launcher;
    private final String prefix = "sjchat-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private final List<Terminal> terminals = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    /** Terminals whose launcher and FIFOs live in {@code dir} (a test's temporary directory). */
    TmuxTerminals(Path dir) throws IOException {
        this.dir = dir;
        this.launcher = dir.resolve("sj-with-classpath.sh");
        Files.writeString(launcher, "#!/bin/sh\nSJ_CLASSPATH='" + System.getProperty("java.class.path") + "' exec '" + SJ
                + "' \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    }

    /** A process ({@code ./sj args}) whose output is drained once its first line has been read. */
    record Started(Process process, String firstLine) {
        /** The first number after {@code label} in the first line (e.g. a port). */
        int number(String label) {
            Matcher m = Pattern.compile(Pattern.quote(label) + "\\D*(\\d+)").matcher(firstLine);
            if (!m.find()) {
                throw new AssertionError("no '" + label + " N' in: " + firstLine);
            }
            return Integer.parseInt(m.group(1));
        }
    }

    /** Starts {@code ./sj args} as a plain process (a server, a relay) and reads its first line. */
    Started process(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        processes.add(process);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (first == null) {
            throw new AssertionError("./sj " + String.join(" ", args) + " printed nothing");
        }
        Thread.ofVirtual().start(() -> out.lines().forEach(line -> { }));   // keep its pipe drained
        return new Started(process, first);
    }

    /** A tmux terminal named {@code name} running {@code ./sj args}. */
    Terminal terminal(String name, String... args) throws IOException, InterruptedException {
        Terminal terminal = new Terminal(prefix + name);
        Path fifo = dir.resolve(name + ".fifo");
        run("mkfifo", fifo.toString());
        tmux("new-session", "-d", "-s", terminal.session, "-x", "110", "-y", "40",
                launcher + " " + String.join(" ", args));
        terminals.add(terminal);
        tmux("pipe-pane", "-O", "-t", terminal.session, "cat > '" + fifo + "'");
        // A platform thread: opening and reading a FIFO blocks the thread in the kernel.
        Thread.ofPlatform().daemon().name("tmux-" + name).start(() -> terminal.follow(fifo));
        return terminal;
    }

    /** One tmux session. */
    final class Terminal {
        private final String session;
        private long outputs;

        private Terminal(String session) {
            this.session = session;
        }

        /** Counts the terminal's writes as they come through the FIFO. */
        private void follow(Path fifo) {
            byte[] buffer = new byte[8192];
            try (InputStream in = Files.newInputStream(fifo)) {
                while (in.read(buffer) >= 0) {
                    synchronized (this) {
                        outputs++;
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                // the pane closed: nothing more will come
            }
        }

        /** Types {@code text} and Enter. */
        void type(String text) throws IOException, InterruptedException {
            tmux("send-keys", "-t", session, "-l", text);
            tmux("send-keys", "-t", session, "Enter");
        }

        /** Waits (at most a minute) until {@code text} is on the screen. */
        void await(String text) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            String screen;
            while (true) {
                long seen;
                synchronized (this) {
                    seen = outputs;
                }
                screen = screen();
                if (screen.contains(text)) {
                    return;
                }
                synchronized (this) {
                    while (outputs == seen) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            throw new AssertionError("'" + text + "' not on " + session + "'s screen within " + WAIT_MILLIS
                                    + " ms (" + outputs + " writes seen):\n" + screen());
                        }
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    }
                }
            }
        }

        /** What the terminal shows (and its scrollback). */
        String screen() throws IOException, InterruptedException {
            return tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session).strip();
        }
    }

    /** Kills the terminals and the processes. */
    @Override
    public void close() throws Exception {
        for (Terminal terminal : terminals) {
            tmux("kill-session", "-t", terminal.session);
        }
        for (Process process : processes) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        return run(command.toArray(String[]::new));
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
