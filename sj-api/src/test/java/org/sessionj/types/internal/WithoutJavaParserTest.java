package org.sessionj.types.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;
import org.sessionj.types.SessionTypes;

/**
 * sj-api without JavaParser, as on a program's run-time class path: sj-api's own classes loaded by a
 * class loader that sees nothing else (JavaParser included) still parse every plain message type, and
 * report any other form as a syntax error, never a NoClassDefFoundError.
 */
class WithoutJavaParserTest {

    @Test
    void plainTypesParseAndOtherFormsAreSyntaxErrors() throws Exception {
        URL classes = SessionTypes.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader isolated = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            assertThat(isolated.loadClass(SessionTypes.class.getName())).isNotSameAs(SessionTypes.class);
            assertThat(canLoad(isolated, "com.github.javaparser.JavaParser")).isFalse();
            Method parse = isolated.loadClass(SessionTypes.class.getName()).getMethod("parse", String.class);

            Object parsed = parse.invoke(null, "cbegin.!<java.util.Map<String, java.util.List<int[]>>>.?(long[][])"
                    + ".rec LOOP[!{MORE: !<Object>.#LOOP, DONE: }]");
            assertThat(parsed.toString()).contains("java.util.Map<String, java.util.List<int[]>>");

            Throwable wildcard = failure(parse, "cbegin.!<java.util.List<? extends Number>>");
            assertThat(wildcard.getClass().getName()).isEqualTo("org.sessionj.types.ProtocolSyntaxException");
            assertThat(wildcard.getMessage()).startsWith("line 1, column 25: expected a plain Java type")
                    .contains("but found '? extends Number>'").contains("javaparser-core");
            Throwable keyword = failure(parse, "cbegin.?(class)");
            assertThat(keyword.getClass().getName()).isEqualTo("org.sessionj.types.ProtocolSyntaxException");
            assertThat(keyword.getMessage()).contains("expected a plain Java type").contains("'class'");
        }
    }

    private static Throwable failure(Method parse, String protocol) throws IllegalAccessException {
        try {
            parse.invoke(null, protocol);
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
        throw new AssertionError("expected " + protocol + " to be refused");
    }

    private static boolean canLoad(ClassLoader loader, String name) {
        try {
            loader.loadClass(name);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
