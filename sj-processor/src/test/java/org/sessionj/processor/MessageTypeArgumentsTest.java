package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv16 A9's addendum: SJ018's walk puts a message type's type arguments in for its type variables
 * wherever it descends — record components, a class's fields, a sealed type's permitted subclasses, the
 * bounds a raw use reads its type parameters as, the elements of a list — so a map key that a generic
 * type gets from the protocol is checked as the receiver's codec decodes it. Each rejected protocol here
 * compiled before and then failed at run time: {@code create} refused it, or (the sealed member) the
 * receiver could not decode the first message.
 */
class MessageTypeArgumentsTest {
    private static final String TYPES = """
            import org.sessionj.api.*;
            import java.util.*;
            interface P {
              record Pt(int x, int y) {}
              record R<K>(Map<K, String> m) {}
              record Bounded<K extends Pt>(Map<K, String> m) {}
              final class Box<K> { public Map<K, Integer> m = new HashMap<>(); }
              final class Sub<V> extends Base<V> {}
              class Base<K> { private Map<K, Integer> m; }
              sealed interface Msg<K> permits Put, Stop {}
              record Put<K>(Map<K, Integer> m) implements Msg<K> {}
              record Stop<K>() implements Msg<K> {}
              sealed interface Swapped<A, B> permits Pair {}
              record Pair<X, Y>(Map<Y, X> m) implements Swapped<Y, X> {}
            """;

    @Test
    void aRawUseReadsTheBoundAsTheKey() {
        assertRejected("SJ018", 15, msg("message type 'P.Bounded'", "written without type arguments",
                "its component 'm' has a type no peer can decode, 'java.util.Map': its key type 'P.Pt' would not "
                + "arrive as itself"), TYPES + """
                  @Protocol("cbegin.!<Bounded>") interface C {}
                }
                """);
    }

    @Test
    void aGenericClassFieldGetsItsKeyFromTheArgument() {
        assertRejected("SJ018", 15, msg("message type 'P.Box'", "its field 'm' has a type no peer can decode, "
                + "'java.util.Map': its key type 'P.Pt' would not arrive as itself"), TYPES + """
                  @Protocol("cbegin.!<Box<Pt>>") interface C {}
                }
                """);
        assertRejected("SJ018", 15, msg("message type 'P.Sub'", "its field 'm' has a type no peer can decode",
                "its key type 'P.Pt'"), TYPES + """
                  @Protocol("cbegin.!<Sub<Pt>>") interface C {}
                }
                """);
    }

    @Test
    void aGenericSealedMemberGetsItsKeyFromTheSealedTypesArgument() {
        assertRejected("SJ018", 15, msg("message type 'P.Msg'", "its permitted subclass has a type no peer can "
                + "decode, P.Put: its component 'm' has a type no peer can decode, 'java.util.Map': its key type "
                + "'P.Pt' would not arrive as itself"), TYPES + """
                  @Protocol("cbegin.!<Msg<Pt>>") interface C {}
                }
                """);
        // the member's variables follow the supertype's arguments, not their order
        assertRejected("SJ018", 15, msg("message type 'P.Swapped'", "P.Pair", "its key type 'P.Pt'"), TYPES + """
                  @Protocol("cbegin.!<Swapped<Pt, String>>") interface C {}
                }
                """);
    }

    @Test
    void aGenericRecordInsideAListOrAnArrayKeyIsChecked() {
        assertRejected("SJ018", 15, msg("message type 'P.R'", "its key type 'P.Pt'"), TYPES + """
                  @Protocol("cbegin.!<List<R<Pt>>>") interface C {}
                }
                """);
        assertRejected("SJ018", 15, msg("message type 'java.util.Map'", "its key type 'int[]' would not arrive as "
                + "itself"), TYPES + """
                  @Protocol("cbegin.!<Map<int[], String>>") interface C {}
                }
                """);
    }

    @Test
    void keysThatSurviveTheTripCompile() {
        assertAccepted(TYPES + """
                  @Protocol("cbegin.!<R<String>>.!<Box<UUID>>.!<Sub<Integer>>.!<Msg<java.time.Instant>>"
                      + ".!<Swapped<String, Pt>>.!<List<R<Long>>>.!<Msg>.!<R>") interface C {}
                }
                """);
    }
}
