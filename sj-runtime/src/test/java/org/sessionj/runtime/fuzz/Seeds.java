package org.sessionj.runtime.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The committed seeds of a fuzz test ({@code <Class>Inputs/<method>/} beside the class in the test
 * resources), for warming a target up before it measures allocation: the first decode of a kind loads
 * classes and fills caches that later inputs do not pay for.
 */
public final class Seeds {
    private Seeds() {
    }

    /** Runs {@code target} on every seed of {@code test}'s fuzz method {@code method}, twice. */
    public static void warmUp(Class<?> test, String method, Consumer<byte[]> target) {
        List<byte[]> seeds = read(test, method);
        for (int round = 0; round < 2; round++) {
            for (byte[] seed : seeds) {
                try {
                    target.accept(seed);
                } catch (RuntimeException | AssertionError e) {
                    // Warming up only: the fuzz run itself reports what a seed does.
                }
            }
        }
    }

    private static List<byte[]> read(Class<?> test, String method) {
        URL url = test.getResource(test.getSimpleName() + "Inputs/" + method);
        if (url == null) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            return files.sorted().map(Seeds::bytes).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
