// class: move/into-outwhile-operand
// program: requester
// expected: rejected: the operand of outwhile(...) is evaluated before every decision, so its receive runs once per iteration and once more at the exit, not once
// runtime: the second evaluation receives where the type expects the loop decision (SJProtocolViolationException)
package escapes;

import org.sessionj.api.*;

public final class E04_OutwhileOperandRunsEveryTime {
    @Protocol("cbegin.?(int).![]*") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            int rounds = 0;
            while (s.outwhile(s.receiveInt() > rounds++)) {
            }
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            s.send(2);
            while (s.inwhile()) {
            }
        }
    }
}
