// class: wrap-range/TRY_SWALLOW/in-recursion
// program: requester
// expected: rejected (SJ020): the try is the whole round of rec X; its catch can be entered after the send and before the outbranch, and then falls through to the next round
// runtime: in round 3 check throws after the send; the next round sends where the type expects the outbranch (SJProtocolViolationException)
// note: with 'continue X' after the try instead of falling off the loop body the checker does reject it (SJ020, unknown state after an exception)
package escapes;

import org.sessionj.api.*;

public final class E02_TryCatchSplitsRecursionRound {
    @Protocol("cbegin.rec X[!<int>.!{MORE: #X, DONE: }]") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            int n = 0;
            X:
            while (true) {
                try {
                    s.send(n);
                    check(n);
                    if (n++ < 3) {
                        s.outbranch("MORE");
                    } else {
                        s.outbranch("DONE");
                        break X;
                    }
                } catch (IllegalStateException e) {
                    // swallowed: the next round starts although this one did not finish
                }
            }
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            X:
            while (true) {
                int n = s.receiveInt();
                switch (s.inbranch()) {
                    case "MORE" -> {
                        continue X;
                    }
                    case "DONE" -> {
                        break X;
                    }
                }
            }
        }
    }

    static void check(int n) {
        if (n == 2) {
            throw new IllegalStateException("no");
        }
    }
}
