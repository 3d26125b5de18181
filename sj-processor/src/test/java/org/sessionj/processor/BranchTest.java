package org.sessionj.processor;

import static org.sessionj.processor.CompilerHarness.assertAccepted;
import static org.sessionj.processor.CompilerHarness.assertRejected;
import static org.sessionj.processor.CompilerHarness.msg;

import org.junit.jupiter.api.Test;

/** outbranch, inbranch (string and enum labels), and merging at if/else and switch arms. */
class BranchTest {
    static final String PROTOCOLS = """
            package demo;
            import org.sessionj.api.Protocol;
            public interface Shop {
                enum Choice { BUY, QUIT }
                @Protocol("cbegin.!{BUY: !<String>.?(double), QUIT: }.!<int>") interface Client {}
                @Protocol("^(Client)") interface Server {}
            }
            """;

    private static String client(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Buyer {
                    void run(boolean buy, String item) {
                        SJService c = SJService.create(Shop.Client.class, "h", 1);
                        try (SJSocket s = c.request()) {
                %s
                        }
                    }
                }
                """.formatted(body);
    }

    private static String server(String body) {
        return """
                package demo;
                import org.sessionj.api.*;
                class Seller {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Shop.Server.class, 0);
                             SJSocket s = ss.accept()) {
                %s
                        }
                    }
                }
                """.formatted(body);
    }

    @Test
    void outbranchInBothArmsOfAnIfMergesAfterTheChoice() {
        assertAccepted(PROTOCOLS, client("""
                            if (buy) {
                                s.outbranch("BUY");
                                s.send(item);
                                double price = s.receiveDouble();
                                System.out.println(price);
                            } else {
                                s.outbranch(Shop.Choice.QUIT);
                            }
                            s.send(0);
                """));
    }

    @Test
    void inbranchSwitchOnStringsAndOnAnEnum() {
        assertAccepted(PROTOCOLS, server("""
                            switch (s.inbranch()) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    s.send(item.length() * 1.5);
                                }
                                case "QUIT" -> { }
                            }
                            int code = s.receiveInt();
                            System.out.println(code);
                """), """
                package demo;
                import org.sessionj.api.*;
                class EnumSeller {
                    void run() {
                        try (SJServerSocket ss = SJServerSocket.create(Shop.Server.class, 0);
                             SJSocket s = ss.accept()) {
                            switch (s.inbranch(Shop.Choice.class)) {
                                case BUY:
                                    String item = s.receive();
                                    s.send(2.0);
                                    break;
                                case QUIT:
                                    break;
                            }
                            s.receiveInt();
                        }
                    }
                }
                """);
    }

    @Test
    void unknownOutbranchLabel() {
        assertRejected("SJ014", 7, msg("session 's': label 'SELL' is not one of the labels BUY, QUIT of the choice !{BUY: "), client("""
                            s.outbranch("SELL");
                """), PROTOCOLS);
    }

    @Test
    void nonConstantOutbranchLabel() {
        assertRejected("SJ015", 7, msg("session 's': the label of outbranch must be a string constant or an enum "
                + "constant, found 'item'"), client("""
                            s.outbranch(item);
                """), PROTOCOLS);
    }

    @Test
    void missingInbranchCase() {
        assertRejected("SJ016", 7, msg("no case for label QUIT of ?{BUY: ?(java.lang.String).!<double>, QUIT: }"),
                server("""
                            switch (s.inbranch()) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    s.send(1.0);
                                }
                            }
                            s.receiveInt();
                """), PROTOCOLS);
    }

    @Test
    void inbranchCaseNotOffered() {
        assertRejected("SJ014", 13, msg("label 'SELL' is not one of the labels BUY, QUIT of the choice ?{BUY:"), server("""
                            switch (s.inbranch()) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    s.send(1.0);
                                }
                                case "QUIT" -> { }
                                case "SELL" -> { }
                            }
                            s.receiveInt();
                """), PROTOCOLS);
    }

    @Test
    void inbranchArmsMustEndInTheSameState() {
        assertRejected("SJ020", 7, msg("session 's': the cases of this switch leave the session in different states: "
                        + "one path has done !<double> and another has not; both then continue with ?(int)"), server("""
                            switch (s.inbranch()) {
                                case "BUY" -> {
                                    String item = s.receive();
                                }
                                case "QUIT" -> { }
                            }
                            s.receiveInt();
                """), PROTOCOLS);
    }

    @Test
    void ifArmsMustEndInTheSameState() {
        assertRejected("SJ020", 7, msg("the branches of this if leave the session in different states"), client("""
                            if (buy) {
                                s.outbranch("BUY");
                                s.send(item);
                            } else {
                                s.outbranch("QUIT");
                            }
                            s.send(0);
                """), PROTOCOLS);
    }

    @Test
    void inbranchOutsideASwitchIsMisplaced() {
        assertRejected("SJ017", 7, msg("inbranch() must be the selector of a switch"), server("""
                            String label = s.inbranch();
                """), PROTOCOLS);
    }

    @Test
    void labelReceivedIntoALocalAndSwitchedOnRightAfter() {
        assertAccepted(PROTOCOLS, server("""
                            Shop.Choice choice = s.inbranch(Shop.Choice.class);
                            switch (choice) {
                                case BUY:
                                    String item = s.receive();
                                    s.send(item.length() * 1.5);
                                    break;
                                case QUIT:
                                    System.out.println("quit");
                                    break;
                            }
                            s.receiveInt();
                            System.out.println(choice);
                """));
    }

    @Test
    void labelReceivedIntoALocalIsCheckedLikeTheInbranchSwitch() {
        assertRejected("SJ016", 8, msg("no case for label QUIT of ?{BUY:"), server("""
                            String label = s.inbranch();
                            switch (label) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    s.send(1.0);
                                }
                                default -> { }
                            }
                            s.receiveInt();
                """), PROTOCOLS);
    }

    @Test
    void labelReceivedIntoALocalMustBeSwitchedOnInTheNextStatement() {
        assertRejected("SJ017", 7, msg("inbranch() must be the selector of a switch"), server("""
                            String label = s.inbranch();
                            System.out.println(label);
                            switch (label) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    s.send(1.0);
                                }
                                case "QUIT" -> { }
                            }
                            s.receiveInt();
                """), PROTOCOLS);
    }

    @Test
    void actionInOnlyOneShortCircuitOperand() {
        assertRejected("SJ020", 7, msg("session 'f': the short-circuit paths of this && leave the session in "
                + "different states: ?(boolean) on one path, end on another"), """
                package demo;
                import org.sessionj.api.*;
                class Flags {
                    @Protocol("cbegin.?(boolean)") interface Flag {}
                    void run(boolean local) {
                        try (SJSocket f = SJService.create(Flag.class, "h", 1).request()) {
                            if (local && f.receiveBoolean()) {
                                System.out.println("both");
                            }
                        }
                    }
                }
                """);
    }

    @Test
    void inbranchAsASwitchExpressionWithYield() {
        assertAccepted(PROTOCOLS, server("""
                            double price = switch (s.inbranch()) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    s.send(2.5);
                                    yield 2.5;
                                }
                                case "QUIT" -> 0.0;
                                default -> throw new IllegalStateException("not offered");
                            };
                            s.receiveInt();
                """));
    }

    @Test
    void switchExpressionArmsMustAgree() {
        assertRejected("SJ020", 7, msg("session 's': the cases of this switch leave the session in different states"),
                server("""
                            double price = switch (s.inbranch()) {
                                case "BUY" -> {
                                    String item = s.receive();
                                    yield 2.5;
                                }
                                case "QUIT" -> 0.0;
                                default -> throw new IllegalStateException("not offered");
                            };
                            s.receiveInt();
                """), PROTOCOLS);
    }
}
