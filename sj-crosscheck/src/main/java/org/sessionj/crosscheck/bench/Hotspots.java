package org.sessionj.crosscheck.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the compiling thread's time goes, from a JFR recording's execution samples: the share of
 * samples with sj-processor on the stack, the processor's methods by inclusive samples, the
 * methods on top of the stack (self time) while the processor runs, and the calls from the processor
 * into javac, JavaParser or the JDK that its time goes to.
 */
final class Hotspots {
    private static final String PROCESSOR = "org.sessionj.processor.";
    private static final String TYPES = "org.sessionj.types.";

    private Hotspots() {
    }

    static void print(Path recording, String thread, int top) throws IOException {
        int total = 0;
        int inProcessor = 0;
        Map<String, Integer> inclusive = new HashMap<>();
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> entry = new HashMap<>();
        Map<String, Integer> callees = new HashMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            if (event.getThread("sampledThread") == null || !thread.equals(event.getThread("sampledThread").getJavaName())) {
                continue;
            }
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null) {
                continue;
            }
            total++;
            List<RecordedFrame> frames = stack.getFrames();
            boolean processor = false;
            Set<String> seen = new HashSet<>();
            String outermost = null;
            String callee = null;
            for (int i = 0; i < frames.size(); i++) {
                String method = name(frames.get(i));
                if (method.startsWith(PROCESSOR) || method.startsWith(TYPES)) {
                    if (!processor) {
                        callee = i == 0 ? "(in the processor's own code)" : name(frames.get(i - 1)) + " ← " + method;
                    }
                    processor = true;
                    outermost = method;
                    if (seen.add(method)) {
                        inclusive.merge(method, 1, Integer::sum);
                    }
                }
            }
            if (processor) {
                inProcessor++;
                self.merge(frames.isEmpty() ? "?" : name(frames.get(0)), 1, Integer::sum);
                entry.merge(outermost, 1, Integer::sum);
                callees.merge(callee, 1, Integer::sum);
            }
        }
        System.out.printf(Locale.ROOT, "%nProfile (%s, thread %s): %d samples, %d (%.1f %%) with sj-processor or sj-api types on the stack%n",
                recording.getFileName(), thread, total, inProcessor, total == 0 ? 0 : 100.0 * inProcessor / total);
        table("entry points into the processor (outermost processor frame)", entry, inProcessor, top);
        table("processor methods, inclusive", inclusive, inProcessor, top);
        table("top of stack while the processor runs (self)", self, inProcessor, top);
        table("calls out of the processor (the callee of its innermost frame ← that frame)", callees, inProcessor, top);
    }

    private static void table(String title, Map<String, Integer> counts, int of, int top) {
        System.out.printf(Locale.ROOT, "%n%s%n| samples | %% of processor samples | method |%n|---:|---:|---|%n", title);
        Map<String, Integer> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top)
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        sorted.forEach((method, n) -> System.out.printf(Locale.ROOT, "| %d | %.1f | `%s` |%n", n,
                of == 0 ? 0 : 100.0 * n / of, method));
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }
}
