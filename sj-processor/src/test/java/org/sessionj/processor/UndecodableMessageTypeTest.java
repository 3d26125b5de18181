package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv10 F13, compile-time half: values carry no class on the wire, so a protocol may not name a
 * message type that no receiver can decode — an interface or abstract class that is not sealed
 * (SJ018). Sealed hierarchies, {@code Object} and the JDK's collections stay allowed (the runtime
 * decodes them; docs/wire-format.md).
 */
class UndecodableMessageTypeTest {
    @Test
    void numberIsRejected() {
        assertRejected("SJ018", 3, msg("message type 'java.lang.Number' in the protocol (line 1, column 10) cannot be "
                + "decoded by a peer"), """
                import org.sessionj.api.*;
                interface P {
                  @Protocol("cbegin.!<Number>") interface Num {}
                }
                """);
    }

    @Test
    void anOpenInterfaceOfTheProgramIsRejectedAlsoAsAnElementOrArrayComponent() {
        assertRejected("SJ018", 4, msg("message type 'P.Msg'"), """
                import org.sessionj.api.*;
                interface P {
                  interface Msg {}
                  @Protocol("cbegin.?(java.util.List<Msg>)") interface Open {}
                }
                """);
        assertRejected("SJ018", 4, msg("message type 'P.Shape'"), """
                import org.sessionj.api.*;
                interface P {
                  abstract class Shape {}
                  @Protocol("cbegin.!<Shape[]>") interface Open {}
                }
                """);
    }

    @Test
    void sealedTypesObjectCollectionsAndConcreteClassesCompile() {
        assertAccepted("""
                import org.sessionj.api.*;
                import java.util.*;
                interface P {
                  sealed interface Msg permits Put, Del {}
                  record Put(String k, int v) implements Msg {}
                  record Del(String k) implements Msg {}
                  abstract sealed class Shape permits Circle {}
                  final class Circle extends Shape {}
                  @Protocol("cbegin.!<Msg>.!<Shape>.!<Object>.!<List<Msg>>.!<Map<String, Set<Integer>>>.!<Collection<Long>>"
                      + ".!<java.util.ArrayList<String>>.!<Integer>.!<Put[]>") interface Fine {}
                }
                """);
    }
}
