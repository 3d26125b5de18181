package org.sessionj.examples.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./sj relay ARGS} as a process of its own (the class path of the test JVM), stopped on close.
 * Its first line says where it listens; the rest of its output is drained (and kept, for failures).
 */
public final class RelayProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on \\S+:(\\d+) \\((https?)\\)");

    private final Process process;
    private final int port;
    private final String scheme;
    private final StringBuffer output = new StringBuffer();

    private RelayProcess(Process process, int port, String scheme) {
        this.process = process;
        this.port = port;
        this.scheme = scheme;
    }

    /** Starts {@code ./sj relay --port 0 extraArgs...} and waits until it listens. */
    public static RelayProcess start(String... extraArgs) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), "org.sessionj.cli.SjCommand", "relay", "--port", "0"));
        command.addAll(List.of(extraArgs));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                RelayProcess relay = new RelayProcess(process, Integer.parseInt(m.group(1)), m.group(2));
                relay.output.append(seen);
                Thread.ofVirtual().start(() -> out.lines().forEach(l -> relay.output.append(l).append('\n')));
                return relay;
            }
        }
        process.destroyForcibly();
        throw new IOException("./sj relay ended without saying where it listens:\n" + seen);
    }

    /** The port it listens on. */
    public int port() {
        return port;
    }

    /** How peers name it: {@code http://localhost:PORT} or {@code https://localhost:PORT}. */
    public String url() {
        return scheme + "://localhost:" + port;
    }

    /** What it printed so far. */
    public String output() {
        return output.toString();
    }

    /** Stops it (SIGTERM) and waits until it has. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
