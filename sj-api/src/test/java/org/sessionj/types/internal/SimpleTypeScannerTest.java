package org.sessionj.types.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.types.Payload.JavaType;
import org.sessionj.types.ProtocolSyntaxException;

/** The fast path of message-type parsing agrees with JavaParser, and leaves every other shape to it. */
class SimpleTypeScannerTest {

    private static JavaType viaJavaParser(String type) {
        String text = "!<" + type + ">";
        return new JavaTypeParser(text, 2, text.length() - 1, '>', 256).parseWithJavaParser();
    }

    private static JavaType viaFastPath(String type) {
        String text = "!<" + type + ">";
        return SimpleTypeScanner.scan(text, 2, text.length() - 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"int", "boolean", " double ", "int[]", "char [ ] [ ]", "String", "java.lang.String",
            "java . util . List < String >", "Outer.Inner", "$Money_2", "List<String>", "java.util.Map<String, int[]>",
            "Map<String,List<Integer>>", "List<String>[]", "List<Map<String, Integer>[]>[][]", "a.b.C<d.E, F[]>",
            "Particle[]", "double[][]", "\tString\n"})
    void acceptsTheCommonShapesExactlyAsJavaParserReadsThem(String type) {
        JavaType fast = viaFastPath(type);
        assertThat(fast).as(type).isNotNull();
        assertThat(fast).isEqualTo(viaJavaParser(type));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "List<int>", "List<>", "List<? extends Number>", "@Deprecated String",
            "Outer<String>.Inner", "int.Foo", "void", "var", "_", "String...", "int[", "int]", "List<String",
            "List<String>>", "1abc", "a..b", "a.", "Stri ng", "Straße", "\\u0041", "java.lang.String[1]",
            "List<String>.Inner", "class", "Map<String,>"})
    void leavesEverythingElseToJavaParser(String type) {
        assertThat(viaFastPath(type)).as(type).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"List<int>", "List<>", "int[", "Stri ng", "Outer<String>.Inner"})
    void errorsStillComeFromJavaParser(String type) {
        String text = "!<" + type + ">";
        assertThatThrownBy(() -> new JavaTypeParser(text, 2, text.length() - 1, '>', 256).parse())
                .isInstanceOf(ProtocolSyntaxException.class);
    }
}
