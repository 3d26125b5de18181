// class: wrap-range/TRY_SWALLOW
// program: requester
// expected: rejected (SJ020): the catch can be entered before the send, so the try and its catch leave 's' at !<int> and at end
// runtime: check throws, the send is skipped, the session closes with !<int> left (SJProtocolViolationException)
package escapes;

import org.sessionj.api.*;

public final class E01_TryCatchSkipsAction {
    @Protocol("cbegin.!<int>") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            try {
                check(seed);
                s.send(1);
            } catch (IllegalStateException e) {
                // swallowed: the session goes on as if the send had happened
            }
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            int x = s.receiveInt();
        }
    }

    static void check(long seed) {
        if (seed > 0) {
            throw new IllegalStateException("no");
        }
    }
}
