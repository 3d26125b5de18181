package org.sessionj.crosscheck.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.sessionj.crosscheck.program.GeneratedCase;
import org.sessionj.types.Action;
import org.sessionj.types.SessionType;

/**
 * The checker's known holes, read from {@code known-escapes.txt}: the cross-check tolerates escapes
 * of a listed mutation class and false alarms of a listed protocol shape, and fails on anything
 * else. One finding per line, {@code #} comments:
 *
 * <pre>
 * escape      &lt;mutation class glob&gt;  &lt;reproducer id&gt;  &lt;description&gt;
 * false-alarm &lt;protocol shape&gt;       &lt;reproducer id&gt;  &lt;description&gt;
 * </pre>
 *
 * A glob's {@code *} matches any characters. Shapes are the names of {@link #SHAPES}.
 */
public final class KnownFindings {
    /** Protocol shapes a false alarm is explained by, by name. */
    public static final Map<String, Predicate<SessionType>> SHAPES = Map.of(
            "rec-body-starts-with-rec", type -> anyAction(type, a -> a instanceof Action.Rec rec
                    && !rec.body().isEnd() && rec.body().head() instanceof Action.Rec));

    /** One listed finding. */
    public record Finding(String kind, String pattern, String reproducer, String description) {
    }

    private final List<Finding> findings;
    private final Map<String, Pattern> globs = new LinkedHashMap<>();

    public KnownFindings(List<Finding> findings) {
        this.findings = List.copyOf(findings);
        for (Finding finding : findings) {
            if (finding.kind().equals("escape")) {
                globs.put(finding.pattern(), Pattern.compile(Pattern.quote(finding.pattern()).replace("*", "\\E.*\\Q")));
            } else if (!SHAPES.containsKey(finding.pattern())) {
                throw new IllegalArgumentException("unknown protocol shape '" + finding.pattern() + "': known are "
                        + SHAPES.keySet());
            }
        }
    }

    /** The findings of the resource {@code name} (on the class path). */
    public static KnownFindings load(String resource) {
        try (InputStream in = KnownFindings.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static KnownFindings parse(String text) {
        List<Finding> findings = new ArrayList<>();
        for (String raw : text.lines().toList()) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 4);
            if (parts.length < 4 || !(parts[0].equals("escape") || parts[0].equals("false-alarm"))) {
                throw new IllegalArgumentException("expected 'escape|false-alarm PATTERN REPRODUCER DESCRIPTION' but found '"
                        + line + "'");
            }
            findings.add(new Finding(parts[0], parts[1], parts[2], parts[3]));
        }
        return new KnownFindings(findings);
    }

    public List<Finding> findings() {
        return findings;
    }

    /** Whether escapes of mutation class {@code signature} are listed. */
    public boolean escapeListed(String signature) {
        return globs.values().stream().anyMatch(glob -> glob.matcher(signature).matches());
    }

    /** The listed shape that explains a false alarm on {@code generated}, or null. */
    public String falseAlarmClass(GeneratedCase generated) {
        for (Finding finding : findings) {
            if (finding.kind().equals("false-alarm") && SHAPES.get(finding.pattern()).test(generated.requesterType())) {
                return finding.pattern();
            }
        }
        return null;
    }

    private static boolean anyAction(SessionType type, Predicate<Action> test) {
        for (Action action : type.actions()) {
            if (test.test(action)) {
                return true;
            }
            List<SessionType> nested = switch (action) {
                case Action.Select select -> List.copyOf(select.branches().values());
                case Action.Branch branch -> List.copyOf(branch.branches().values());
                case Action.OutWhile loop -> List.of(loop.body());
                case Action.InWhile loop -> List.of(loop.body());
                case Action.Rec rec -> List.of(rec.body());
                default -> List.of();
            };
            for (SessionType inner : nested) {
                if (anyAction(inner, test)) {
                    return true;
                }
            }
        }
        return false;
    }
}
