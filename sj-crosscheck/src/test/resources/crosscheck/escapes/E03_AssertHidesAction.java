// class: wrap/ASSERT
// program: requester
// expected: rejected: an assert statement does not run unless assertions are enabled (-ea), so a session action in it happens or not depending on a JVM flag
// runtime: with assertions off (the default) the receive never happens; the session closes with ?(boolean) left (SJProtocolViolationException)
package escapes;

import org.sessionj.api.*;

public final class E03_AssertHidesAction {
    @Protocol("cbegin.?(boolean)") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            assert s.receiveBoolean() : "the server said no";
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            s.send(true);
        }
    }
}
