package org.sessionj.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sessionj.types.SessionTypes.compatible;
import static org.sessionj.types.SessionTypes.equivalent;
import static org.sessionj.types.SessionTypes.isSubtype;
import static org.sessionj.types.SessionTypes.parse;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sessionj.types.Payload.JavaType;

class SubtypingTest {
    /** Integer ≤ Number ≤ Object, nothing else besides identity. */
    private static final JavaSubtyping NUMBERS = (sub, sup) -> sub.equals(sup)
            || Set.of("Integer<Number", "Integer<Object", "Number<Object").contains(sub + "<" + sup);

    private static boolean sub(String a, String b) {
        return isSubtype(parse(a), parse(b), NUMBERS);
    }

    @ParameterizedTest(name = "{0} ≤ {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            // selection: the subtype selects fewer labels
            "!{A: !<int>}                     | !{A: !<int>, B: ?(int)}           | true",
            "!{A: !<int>, B: ?(int)}          | !{A: !<int>}                      | false",
            // branching: the subtype offers more labels
            "?{A: ?(int), B: !<int>}          | ?{A: ?(int)}                      | true",
            "?{A: ?(int)}                     | ?{A: ?(int), B: !<int>}           | false",
            // width inside depth
            "!{A: ?{X: , Y: }}                | !{A: ?{X: }, B: }                 | true",
            "!{A: ?{X: }}                     | !{A: ?{X: , Y: }}                 | false",
            // sends are covariant, receives contravariant, through the relation
            "!<Integer>                       | !<Number>                         | true",
            "!<Number>                        | !<Integer>                        | false",
            "?(Number)                        | ?(Integer)                        | true",
            "?(Integer)                       | ?(Number)                         | false",
            "cbegin.!<Integer>.?(Object)      | cbegin.!<Object>.?(Integer)       | true",
            // directions, kinds and lengths must match
            "!<int>                           | ?(int)                            | false",
            "!<int>                           | !<int>.!<int>                     | false",
            "''                               | !<int>                            | false",
            "cbegin.!<int>                    | sbegin.!<int>                     | false",
            "![!<int>]*                       | ?[!<int>]*                        | false",
            "![!<int>]*                       | rec X[!{iterate: !<int>.#X, exit: }] | false",
            "!{A: }                           | ![]*                              | false",
            // loops: bodies and continuations compared, with width inside
            "![!{A: }]*.?{X: , Y: }           | ![!{A: , B: }]*.?{X: }            | true",
            "![!<int>]*.![!<int>]*            | ![!<int>]*                        | false",
            // recursion up to unfolding, with width through the recursion
            "rec X[!{A: !<Integer>.#X, B: }]  | rec Y[!{A: !<Number>.#Y, B: , C: }] | true",
            "rec X[!{A: !<Integer>.#X, B: }]  | !{A: !<Number>.rec Y[!{A: !<Number>.#Y, B: }], B: } | true",
            "rec X[?{A: ?(Number).#X, B: }]   | rec X[?{A: ?(Integer).?(Integer).#X}] | false",
            "rec X[?{A: ?(Number).#X, B: }]   | rec X[?{A: ?(Integer).#X}]        | true",
            // references are atoms
            "@(P).!<Integer>                  | @(P).!<Number>                    | true",
            "@(P)                             | @(Q)                              | false",
            "@(P)                             | ^(P)                              | false",
            // session payloads are invariant
            "!<?{A: }>                        | !<?{A: , B: }>                    | false",
            "!<?{A: , B: }>                   | !<?{A: }>                         | false",
            "!<rec X[?(int).#X]>              | !<?(int).rec Y[?(int).#Y]>        | true",
            "!<int>                           | !<?(int)>                         | false",
    })
    void subtyping(String a, String b, boolean expected) {
        assertThat(sub(a, b)).isEqualTo(expected);
    }

    @Test
    void reflectiveRelationFollowsJavaWithoutBoxing() {
        JavaSubtyping java = JavaSubtyping.reflective(getClass().getClassLoader());
        assertThat(java.isSubtype(JavaType.of("java.lang.Integer"), JavaType.of("java.lang.Number"))).isTrue();
        assertThat(java.isSubtype(JavaType.of("Integer"), JavaType.of("Number"))).isTrue();
        assertThat(java.isSubtype(JavaType.of("java.lang.Number"), JavaType.of("java.lang.Integer"))).isFalse();
        assertThat(java.isSubtype(JavaType.of("int"), JavaType.of("java.lang.Integer"))).isFalse();
        assertThat(java.isSubtype(JavaType.of("java.lang.Integer"), JavaType.of("int"))).isFalse();
        assertThat(java.isSubtype(JavaType.of("int"), JavaType.of("long"))).isFalse();
        assertThat(java.isSubtype(JavaType.of("int"), JavaType.of("int"))).isTrue();
        assertThat(java.isSubtype(parseType("String[][]"), parseType("Object[][]"))).isTrue();
        assertThat(java.isSubtype(parseType("String[][]"), parseType("Object[]"))).isTrue();
        assertThat(java.isSubtype(parseType("int[]"), parseType("Object[]"))).isFalse();
        assertThat(java.isSubtype(parseType("int[]"), parseType("java.io.Serializable"))).isTrue();
        assertThat(java.isSubtype(parseType("int[]"), parseType("long[]"))).isFalse();
        assertThat(java.isSubtype(parseType("java.util.ArrayList"), parseType("java.util.List"))).isTrue();
        assertThat(java.isSubtype(parseType("java.util.ArrayList<String>"), parseType("java.util.List"))).isTrue();
        assertThat(java.isSubtype(parseType("java.util.List<String>"), parseType("java.util.List<Object>"))).isFalse();
        assertThat(java.isSubtype(parseType("java.util.List<String>"), parseType("java.util.List<String>"))).isTrue();
        assertThat(java.isSubtype(parseType("java.util.Map$Entry"), parseType("java.lang.Object"))).isTrue();
        assertThat(java.isSubtype(parseType("no.such.Type"), parseType("java.lang.Object"))).isFalse();
        assertThat(isSubtype(parse("!<java.lang.Integer>.?(java.lang.Number)"),
                parse("!<java.lang.Number>.?(java.lang.Integer)"), java)).isTrue();
    }

    private static JavaType parseType(String type) {
        return (JavaType) ((Action.Send) parse("!<" + type + ">").head()).payload();
    }

    @ParameterizedTest(name = "{0} ≡ {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "rec X[!<int>.#X]                         | !<int>.rec X[!<int>.#X]            | true",
            "rec X[!<int>.#X]                         | rec Y[!<int>.!<int>.#Y]            | true",
            "rec X[!<int>.#X]                         | rec X[!<int>.?(int).#X]            | false",
            "rec X[!{A: #X, B: }].?(int)              | !{A: rec X[!{A: #X, B: }], B: }.?(int) | true",
            "rec X[rec Y[!{A: #X, B: #Y}]]            | rec Z[!{A: #Z, B: #Z}]             | true",
            "!{A: , B: }                              | !{B: , A: }                        | true",
            "!{A: , B: }                              | !{A: }                             | false",
            "![!<int>]*                               | rec X[![!<int>]*]                  | true",
            "!<Integer>                               | !<Number>                          | false",
            // shadowing: the inner rec Y hides the outer one, whatever the names
            "rec Y[rec X[!{a: rec Y[?{c: #X, d: #Y}], b: #Y}]] | rec Y[rec X[!{a: rec Z[?{c: #X, d: #Z}], b: #Y}]] | true",
            "rec Y[rec X[!{a: rec Y[?{c: #X, d: #Y}], b: #Y}]] | rec Y[rec X[!{a: rec Z[?{c: #X, d: #Y}], b: #Y}]] | false",
    })
    void equivalence(String a, String b, boolean expected) {
        assertThat(equivalent(parse(a), parse(b))).isEqualTo(expected);
        assertThat(equivalent(parse(b), parse(a))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "requester {0}, accepter {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "cbegin.!<int>.?(double)           | sbegin.?(int).!<double>            | true",
            "cbegin.![!<BinTree>.?(BinTree)]*  | sbegin.?[?(BinTree).!<BinTree>]*   | true",
            "cbegin.!{A: }                     | sbegin.?{A: , B: !<int>}           | true",
            "cbegin.!{A: , C: }                | sbegin.?{A: , B: }                 | false",
            "cbegin.?{A: , B: }                | sbegin.!{A: }                      | true",
            "cbegin.!<Integer>                 | sbegin.?(Number)                   | true",
            "cbegin.!<Number>                  | sbegin.?(Integer)                  | false",
            "cbegin.?(Number)                  | sbegin.!<Integer>                  | true",
            "cbegin.!<int>                     | sbegin.!<int>                      | false",
            "cbegin.!<int>                     | cbegin.?(int)                      | false",
            "sbegin.!<int>                     | cbegin.?(int)                      | false",
            "cbegin.!<int>                     | ?(int)                             | false",
            "!<int>                            | ?(int)                             | true",
            "rec X[!{M: !<String>.#X, Q: }]    | rec Y[?{M: ?(String).rec Z[?{M: ?(String).#Z, Q: }], Q: }] | true",
    })
    void compatibility(String requester, String accepter, boolean expected) {
        assertThat(compatible(parse(requester), parse(accepter), NUMBERS)).isEqualTo(expected);
        if (expected) {
            // The check is symmetric in the sense of the docs: accepter ≤ dual(requester) too.
            assertThat(isSubtype(parse(accepter), SessionTypes.dual(parse(requester)), NUMBERS)).isTrue();
        }
    }

    @Test
    void illFormedOperandsAreRejected() {
        assertThatThrownBy(() -> isSubtype(parse("rec X[#X]"), parse("!<int>"), JavaSubtyping.EXACT))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("SJT204");
        assertThatThrownBy(() -> equivalent(parse("!<int>"), parse("#X")))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("SJT201");
        assertThatThrownBy(() -> compatible(parse("cbegin.!<int>.#X"), parse("sbegin"), JavaSubtyping.EXACT))
                .isInstanceOf(ProtocolException.class);
    }
}
