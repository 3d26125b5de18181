package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.compile;
import static org.sessionj.processor.CompilerHarness.msg;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * adv10 F19: a {@code @Protocol} on a local interface was half-supported — its uses were checked, but
 * no descriptor was written and the runtime could neither find it nor resolve its references
 * ({@code ^(C)}), and then warned that the code had never been checked. A protocol is a top-level or
 * member interface (SJ006).
 */
class LocalProtocolTest {
    @Test
    void aLocalProtocolInterfaceIsRejectedAtItsDeclaration() {
        assertRejected("SJ006", 5, msg("@Protocol must annotate a top-level or member interface, but 'C' is a local "
                + "interface", "declare it as a member of 'Main'"), """
                import org.sessionj.api.*;
                class Main {
                  public static void main(String[] a) throws Exception {
                    @Protocol("cbegin.!<int>.?(String)")
                    interface C {}
                    try (SJSocket s = SJService.create(C.class, "localhost", 4000).request()) {
                      s.send(1);
                      String r = s.receive();
                    }
                  }
                }
                """);
    }

    @Test
    void aLocalProtocolReferencingAnotherIsRejectedOncePerDeclaration() {
        Compilation compilation = compile("""
                import org.sessionj.api.*;
                class Main {
                  void run() {
                    @Protocol("cbegin.!<int>") interface C {}
                    @Protocol("^(C)") interface S {}
                  }
                }
                """);
        assertThat(compilation.errors()).hasSize(2).allSatisfy(error -> assertThat(error.getMessage(null))
                .startsWith("[SJ006]").contains("local interface"));
    }

    @Test
    void aLocalClassWithProtocolIsNamedAsAClass() {
        assertRejected("SJ006", 4, msg("'K' is a local class"), """
                import org.sessionj.api.*;
                class Main {
                  void run() {
                    @Protocol("cbegin.!<int>") class K {}
                  }
                }
                """);
    }

    @Test
    void theSameProtocolsAsMemberInterfacesCompileAndGetDescriptors() {
        Compilation compilation = assertAccepted("""
                import org.sessionj.api.*;
                class Main {
                  @Protocol("cbegin.!<int>.?(String)") interface C {}
                  @Protocol("^(C)") interface S {}
                  public static void main(String[] a) throws Exception {
                    SJServerSocket ss = SJServerSocket.create(S.class, 0);
                    try (SJSocket s = SJService.create(C.class, "localhost", ss.port()).request()) {
                      s.send(1);
                      String r = s.receive();
                    }
                  }
                }
                """);
        assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "", "META-INF/sessionj/protocols/Main$C.sj"))
                .isPresent();
        assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "", "META-INF/sessionj/protocols/Main$S.sj"))
                .isPresent();
    }
}
