// class: retype/send/null/primitive
// program: requester
// expected: rejected (SJ013): !<int> needs an int; a null Integer has none
// runtime: the monitor refuses !<null> where the type says !<int> (SJProtocolViolationException)
package escapes;

import org.sessionj.api.*;

public final class E05_NullSentAsPrimitive {
    @Protocol("cbegin.!<int>") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            Integer missing = seed > 0 ? null : 1;
            s.send(missing);
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            int x = s.receiveInt();
        }
    }
}
