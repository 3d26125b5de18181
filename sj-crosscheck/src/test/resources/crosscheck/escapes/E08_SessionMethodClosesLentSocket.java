// class: insert/close/session-method
// program: requester
// expected: rejected: a @Session method is lent the socket for its part of the session only; closing it ends the caller's session too
// runtime: the close fails the session with !<int> left; the caller's next send meets a closed session (SJProtocolViolationException)
package escapes;

import org.sessionj.api.*;

public final class E08_SessionMethodClosesLentSocket {
    @Protocol("cbegin.!<int>.!<int>") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            first(s);
            s.send(2);
        }
    }

    static void first(@Session("!<int>") SJSocket s) {
        s.send(1);
        s.close();
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            int a = s.receiveInt();
            int b = s.receiveInt();
        }
    }
}
