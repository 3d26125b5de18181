package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * A value sent as a class arrives as its own class (SJ013): values carry no class on the wire, so a
 * subclass sent where the protocol names a concrete class that is neither final nor sealed would
 * arrive as the declared class (the runtime monitor refused it at the send; now the compiler does),
 * and so would a class below a {@code non-sealed} member of a sealed family. Sealed families (F13)
 * and {@code Object} keep taking their values.
 */
class ExactMessageClassTest {
    private static String program(String declarations, String protocol, String send) {
        return """
                import org.sessionj.api.*;
                class P {
                  %s
                  @Protocol("cbegin.%s") interface Q {}
                  static void run(@Session(protocol = Q.class) SJService svc) {
                    try (SJSocket s = svc.request()) {
                      %s
                    }
                  }
                }
                """.formatted(declarations, protocol, send);
    }

    private static final String SHAPES = "static class Shape { public int x; }\n"
            + "  static class Circle extends Shape { public int r; }";

    @Test
    void aSubclassSentAsAConcreteNonFinalClassIsRejected() {
        assertRejected("SJ013", 8, msg("[SJ013] session 's': expected !<P$Shape> but the program sends !<P.Circle> "
                + "(a P.Circle would arrive as a P.Shape: values are decoded as the declared class; send it as its own "
                + "type, or make Shape sealed)"), program(SHAPES, "!<Shape>", "s.send(new Circle());"));
    }

    @Test
    void anAnonymousSubclassAndAJdkSubclassAreRejectedToo() {
        assertRejected("SJ013", 8, msg("value of an anonymous subclass would arrive as a P.Shape"),
                program(SHAPES, "!<Shape>", "s.send(new Shape() { });"));
        assertRejected("SJ013", 7, msg("a java.sql.Timestamp would arrive as a java.util.Date"),
                program("", "!<java.util.Date>", "s.send(new java.sql.Timestamp(0L));"));
    }

    /** adv15 A6: Java's arrays are covariant (a Circle[] is a Shape[]), the wire's are not. */
    @Test
    void anArrayOfASubclassSentAsAnArrayOfAConcreteNonFinalClassIsRejected() {
        assertRejected("SJ013", 8, msg("(each element: a P.Circle would arrive as a P.Shape"),
                program(SHAPES, "!<Shape[]>", "s.send(new Circle[] {new Circle()});"));
        assertRejected("SJ013", 8, msg("each element: each element: a P.Circle would arrive as a P.Shape"),
                program(SHAPES, "!<Shape[][]>", "s.send(new Circle[][] {{new Circle()}});"));
        assertAccepted(program(SHAPES, "!<Shape[]>.!<Object[]>", "s.send(new Shape[] {new Shape()}); "
                + "s.send(new String[] {\"a\"});"));
    }

    /** adv15 A11: a primitive argument is boxed by its send overload, and a Long, Short, Byte or Character box changes class. */
    @Test
    void aLongShortByteOrCharSentWhereTheTypeIsObjectIsRejected() {
        assertRejected("SJ013", 7, msg("a long where the type is Object would arrive as an Integer when it fits in an int"),
                program("", "!<Object>", "s.send(5L);"));
        assertRejected("SJ013", 7, msg("a char where the type is Object would arrive as a String"),
                program("", "!<Object>", "s.send('c');"));
        assertRejected("SJ013", 7, msg("a short where the type is Object"),
                program("", "!<Object>", "short v = 3; s.send(v);"));
        assertAccepted(program("", "!<Object>.!<Object>.!<Object>.!<Object>",
                "s.send(5); s.send(2.5); s.send(true); s.send(1.5f);"));
    }

    @Test
    void theDeclaredClassItselfANullAndObjectAreAccepted() {
        assertAccepted(program(SHAPES, "!<Shape>.!<Shape>.!<Object>.!<Object>.!<Object>.!<java.util.List<Integer>>",
                "s.send(new Shape()); s.send((Circle) null); s.send(\"text\"); s.send(java.util.List.of(1, 2.5));"
                        + " s.send((Object) new Circle()); s.send(new java.util.ArrayList<Integer>());"));
    }

    /**
     * Where the type is Object a value arrives as the wire's untyped form (adv13 A3): a value whose static
     * type certainly arrives as another class there is SJ013; one known only as Object is the monitor's.
     */
    @Test
    void aValueThatWouldArriveAsAnotherClassWhereTheTypeIsObjectIsRejected() {
        assertRejected("SJ013", 8, msg("a P.Circle where the type is Object would arrive as a Map of its properties"),
                program(SHAPES, "!<Object>", "s.send(new Circle());"));
        assertRejected("SJ013", 7, msg("an int[] where the type is Object would arrive as a List"),
                program("", "!<Object>", "s.send(new int[] {1});"));
        assertRejected("SJ013", 7, msg("a java.lang.Long where the type is Object would arrive as an Integer"),
                program("", "!<Object>", "s.send(Long.valueOf(5));"));
        assertRejected("SJ013", 7, msg("where the type is Object would arrive as a List"),
                program("", "!<Object>", "s.send(new java.util.HashSet<Integer>());"));
        assertRejected("SJ013", 7, msg("a P.Job where the type is Object would arrive as a Map"),
                program("record Job(int n) {}", "!<Object>", "s.send(new Job(1));"));
    }

    @Test
    void aClassBelowANonSealedMemberOfASealedFamilyIsRejected() {
        String family = "sealed interface Msg permits Put, Open {}\n"
                + "  record Put(int k) implements Msg {}\n"
                + "  static non-sealed class Open implements Msg { public int v; }\n"
                + "  static class Leaf extends Open { public int w; }";
        assertRejected("SJ013", 10, msg("(a P.Leaf is below the non-sealed P.Open, which its receiver decodes with its "
                + "own class only; send it as its own type)"), program(family, "!<Msg>", "s.send(new Leaf());"));
        assertAccepted(program(family, "!<Msg>.!<Msg>.!<Open>", "s.send(new Put(1)); s.send(new Open()); s.send(new Open());"));
    }
}
