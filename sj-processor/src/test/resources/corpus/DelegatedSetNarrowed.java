// Translated from the original SJ source tree: tests/functional/.../valid/SessionSetTypes.sj.
// The original receives a delegated session at a set type, cbegin.?({!<int>, !<boolean>}), and
// typecases it. Here a set is a whole protocol, never a message payload (docs/session-types.md §8),
// and typecase applies to a selector's sessions; the literal translation is SJ001. Choice: the
// receiver's type is narrowed to the member the middle peer delegates — the original's own
// commented-out alternative, cbegin.?(!<int>) — and the typecase becomes that member's code.
import org.sessionj.api.*;

class DelegatedSetNarrowed {
    @Protocol("sbegin.?(int)") interface StartServer {}
    @Protocol("cbegin.!<int>") interface MiddleClient {}
    @Protocol("sbegin.!<!<int>>") interface MiddleServer {}
    @Protocol("cbegin.?(!<int>)") interface EndClient {}

    void peer1(int port) {
        try (SJServerSocket ss = SJServerSocket.create(StartServer.class, port);
             SJSocket s = ss.accept()) {
            int i = s.receiveInt();
        }
    }

    void peer2(int port) {
        SJService chan = SJService.create(MiddleClient.class, "", port);
        try (SJServerSocket ss = SJServerSocket.create(MiddleServer.class, port + 1);
             SJSocket sServer = ss.accept();
             SJSocket sClient = chan.request()) {
            sServer.send(sClient);
        }
    }

    void peer3(int port) {
        SJService chan = SJService.create(EndClient.class, "", port + 1);
        try (SJSocket s1 = chan.request();
             SJSocket s2 = s1.receive()) {
            s2.send(42);
        }
    }
}
