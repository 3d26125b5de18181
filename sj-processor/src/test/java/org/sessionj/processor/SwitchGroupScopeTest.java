package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/**
 * adv15 A9: a local declared by a statement of an old-style {@code case L:} group is in scope in the later
 * groups of the switch block (JLS 6.3), unassigned on a path that enters one of them directly. The checker
 * tracked it on its own group's path only, so a session begun in a later group, or a {@code @NoAlias} value
 * assigned there, went unchecked: now each later group starts with it unassigned, and it is checked to the
 * end of the switch block.
 */
class SwitchGroupScopeTest {
    private static String program(String cases) {
        return """
                import org.sessionj.api.*;
                class P {
                  @Protocol("cbegin.!<int>.?(String)") interface C {}
                  static void consume(@NoAlias int[] a) {}
                  static void run(@Session(protocol = C.class) SJService svc, int k) {
                    switch (k) {
                %s
                    }
                  }
                }
                """.formatted(cases);
    }

    @Test
    void aSessionBegunInALaterGroupIsChecked() {
        assertRejected("SJ013", 8, msg("[SJ013] session 's': expected !<int> but the program sends !<java.lang.String>"),
                program("""
                      case 1: SJSocket s = svc.request(); s.send(1); String r = s.receive(); s.close(); break;
                      case 2: s = svc.request(); s.send("two"); s.close(); break;"""));
        assertRejected("SJ013", 8, msg("expected !<int> but the program sends !<java.lang.String>"), program("""
                      case 1: SJSocket s; break;
                      case 2: s = svc.request(); s.send("wrong"); s.close(); break;"""));
        assertRejected("SJ012", 8, msg("expected !<int> but the program receives ?(java.lang.String)"), program("""
                      case 1: SJSocket s = null; break;
                      default: s = svc.request(); String r = s.receive(); s.close();"""));
    }

    @Test
    void aSessionALaterGroupLeavesOpenIsReportedWhereItLeavesTheBlock() {
        assertRejected("SJ024", 8, msg("session 's' is not complete when this break leaves its scope: ?(java.lang.String) "
                + "remains"), program("""
                      case 1: SJSocket s = svc.request(); s.send(1); String r = s.receive(); s.close(); break;
                      case 2: s = svc.request(); s.send(2); break;"""));
        assertRejected("SJ024", 7, msg("session 's' is not complete at the end of its scope"), program("""
                      case 1: SJSocket s = svc.request(); s.send(1); String r = s.receive(); s.close(); break;
                      default: s = svc.request(); s.send(2);"""));
    }

    @Test
    void aNoAliasValueAssignedInALaterGroupIsChecked() {
        assertRejected("SJ041", 8, msg("@NoAlias 'x' is used after its value was moved into a call of 'consume'"),
                program("""
                      case 1: @NoAlias int[] x = new int[1]; break;
                      case 2: x = new int[2]; consume(x); x[0] = 1; break;"""));
    }

    @Test
    void aLaterGroupThatUsesTheLocalCorrectlyAndFallThroughCompile() {
        assertAccepted(program("""
                      case 1: SJSocket s = svc.request(); s.send(1); String r = s.receive(); s.close(); break;
                      case 2: s = svc.request(); s.send(2); r = s.receive(); s.close(); break;
                      case 3: @NoAlias int[] x = new int[1]; consume(x); break;
                      case 4: x = new int[2]; consume(x); x = new int[3]; x[0] = 1; break;
                      case 5: int n = 1;
                      case 6: n = 2; s = svc.request(); s.send(n); s.receive(); s.close();"""));
    }
}
