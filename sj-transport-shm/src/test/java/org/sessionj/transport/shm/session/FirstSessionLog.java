package org.sessionj.transport.shm.session;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;

/**
 * What the cold-start tests share (issue 15): a fresh JVM that runs one session and prints {@link #DONE},
 * with every class it loads logged ({@code -Xlog:class+load}), and the classes it loaded before the
 * session ended. Class loading on one code path is deterministic, so such a test fails as soon as any code
 * on the path loads what it must not.
 */
final class FirstSessionLog {
    /** What a child prints once its session has ended. */
    static final String DONE = "#first-session-done";

    private FirstSessionLog() {
    }

    /**
     * A child's run: the classes it loaded before {@link #DONE} (by name), whether it got there, its
     * other output, and its exit status.
     */
    record Run(List<String> loaded, boolean done, String otherOutput, int exitValue) {
        /** Whether the class {@code name} was loaded before the session ended. */
        boolean loaded(String name) {
            return loaded.contains(name);
        }

        /** The classes loaded before the session ended whose names start with {@code prefix}. */
        List<String> loadedStartingWith(String prefix) {
            return loaded.stream().filter(name -> name.startsWith(prefix)).toList();
        }
    }

    /**
     * Runs {@code args} (JVM options, then the main class) in a fresh JVM with this one's class path and
     * reads its class-load log; waits at most a minute for it to end.
     */
    static Run run(String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xlog:class+load=info:stdout",
                "-Dsessionj.missingDescriptor=ignore", "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> loaded = new ArrayList<>();
        boolean done = false;
        StringBuilder other = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                int tag = line.indexOf("[class,load]");
                if (line.equals(DONE)) {
                    done = true;
                } else if (tag < 0) {
                    other.append(line).append(System.lineSeparator());
                } else if (!done) {
                    // "[...][info][class,load] java.util.ServiceLoader source: jrt:/java.base"
                    String rest = line.substring(tag + "[class,load]".length()).strip();
                    int space = rest.indexOf(' ');
                    loaded.add(space < 0 ? rest : rest.substring(0, space));
                }
            }
        }
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("the child did not end within 60 s; its output:\n" + other);
        }
        return new Run(loaded, done, other.toString(), child.exitValue());
    }

    /** A child's session: {@code cbegin.!<int>.?(int)} between {@code server} and {@code service}. */
    static void oneSession(SJServerSocket server, SJService service) throws InterruptedException {
        Thread accepter = Thread.ofPlatform().start(() -> {
            try (SJSocket s = server.accept()) {
                s.send(s.receiveInt() + 1);
            }
        });
        try (SJSocket s = service.request()) {
            s.send(1);
            if (s.receiveInt() != 2) {
                throw new IllegalStateException("wrong answer");
            }
        }
        accepter.join();
    }

    /** A child's end: {@link #DONE}, flushed. */
    static void done() {
        System.out.println(DONE);
        System.out.flush();
    }
}
