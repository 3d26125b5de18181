package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.sessionj.types.internal.JdkMessageTypes;

/**
 * adv19 A7 (the rest): SJ018 decides a JDK class from sj-api's JdkMessageTypes, the table the runtime's load
 * check reads (sj-runtime's JdkMessageTypesTest round-trips every row through the real codec). Every value
 * class of the table compiles as a message part and as a message, every refused one is SJ018 with its own
 * reason, and a JDK class in neither is SJ018 ("no decoder"): {@code Path}, {@code TimeZone} and
 * {@code Charset} were refused as open types though the codec reads them back; {@code DateTimeFormatter},
 * {@code Class} and {@code GregorianCalendar} compiled (all of {@code java.time} was allowed) and failed to load
 * or to arrive.
 */
class JdkMessageTypesTest {
    /** A type argument for the table's generic classes. */
    private static final Map<String, String> ARGUMENTS = Map.of("java.util.Optional", "<String>",
            "java.util.concurrent.atomic.AtomicReference", "<String>");

    @Test
    void everyValueClassOfTheTableCompilesAsAPartAndAsAMessage() {
        StringBuilder components = new StringBuilder();
        StringBuilder messages = new StringBuilder();
        int i = 0;
        for (String type : new TreeSet<>(JdkMessageTypes.VALUES.keySet())) {
            String declared = type + ARGUMENTS.getOrDefault(type, "");
            components.append(i == 0 ? "" : ", ").append(declared).append(" c").append(i++);
            messages.append(".!<").append(declared).append('>');
        }
        assertAccepted("""
                import org.sessionj.api.*;
                interface P {
                  record All(%s) {}
                  @Protocol("cbegin.!<All>%s") interface C {}
                }
                """.formatted(components, messages));
    }

    @Test
    void everyRefusedClassOfTheTableIsRejectedWithItsReason() {
        for (Map.Entry<String, String> refused : JdkMessageTypes.REFUSED.entrySet()) {
            String type = refused.getKey().equals("java.lang.Class") ? "Class<?>" : refused.getKey();
            assertRejected("SJ018", 4, msg("its component 'x' has a type no peer can decode",
                    "it " + refused.getValue().substring(0, 40)), """
                    import org.sessionj.api.*;
                    interface P {
                      record R(%s x) {}
                      @Protocol("cbegin.!<R>") interface C {}
                    }
                    """.formatted(type));
        }
    }

    @Test
    void jdkClassesOutsideTheTableAreRejected() {
        for (String type : Set.of("java.time.format.DateTimeFormatter", "java.util.concurrent.atomic.LongAdder",
                "java.nio.file.attribute.FileTime", "java.time.chrono.JapaneseDate")) {
            assertRejected("SJ018", 3, msg("'" + type + "'", "cannot be decoded by a peer"), """
                    import org.sessionj.api.*;
                    interface P {
                      @Protocol("cbegin.!<%s>") interface C {}
                    }
                    """.formatted(type));
        }
    }

    @Test
    void everyKeyClassOfTheTableCompilesAndOthersAreRejected() {
        StringBuilder components = new StringBuilder();
        int i = 0;
        for (String key : new TreeSet<>(JdkMessageTypes.KEYS)) {
            components.append(i == 0 ? "" : ", ").append("java.util.Map<").append(key).append(", Integer> m")
                    .append(i++);
        }
        assertAccepted("""
                import org.sessionj.api.*;
                interface P {
                  record Keys(%s) {}
                  @Protocol("cbegin.!<Keys>") interface C {}
                }
                """.formatted(components));
        for (String key : Set.of("java.io.File", "java.net.URL", "Class<?>", "java.nio.file.Path")) {
            assertRejected("SJ018", 4, msg("would not arrive as itself"), """
                    import org.sessionj.api.*;
                    interface P {
                      record R(java.util.Map<%s, Integer> m) {}
                      @Protocol("cbegin.!<R>") interface C {}
                    }
                    """.formatted(key));
        }
    }
}
