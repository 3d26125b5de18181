// Translated from the original SJ source tree: tests/functional/.../valid/Selector.sj (a "valid" test).
// Choices: registerAccept(ss) becomes accept() then register(s) (this API has no accept events; the
// session is registered at the member its server protocol starts with); typecase (s) { when (@(P)) }
// becomes switch (sel.typecase(s)) { case "P" -> }; each arm closes its completed session.
import org.sessionj.api.*;

class SelectorTwoServers {
    @Protocol("?(int)") interface From2 {}
    @Protocol("cbegin.^(From2)") interface PClient2 {}
    @Protocol("?(boolean)") interface From3 {}
    @Protocol("cbegin.^(From3)") interface PClient3 {}
    @Protocol("{@(From2), @(From3)}") interface PSel {}
    @Protocol("sbegin.@(From2)") interface PServer2 {}
    @Protocol("sbegin.@(From3)") interface PServer3 {}

    void peer1(int port) {
        try (SJSelector sel = SJSelector.of(PSel.class);
             SJServerSocket ss1 = SJServerSocket.create(PServer2.class, port);
             SJServerSocket ss2 = SJServerSocket.create(PServer3.class, port + 1)) {
            SJSocket a = ss1.accept();
            sel.register(a);
            SJSocket b = ss2.accept();
            sel.register(b);
            int i = 0;
            boolean flag;
            int j;
            while (i < 2) {
                SJSocket s = sel.select();
                switch (sel.typecase(s)) {
                    case "From2" -> {
                        j = s.receiveInt();
                        s.close();
                    }
                    case "From3" -> {
                        flag = s.receiveBoolean();
                        s.close();
                    }
                }
                i++;
            }
        }
    }

    void peer2(int port) {
        try (SJSocket s = SJService.create(PClient2.class, "", port).request()) {
            s.send(42);
        }
    }

    void peer3(int port) {
        try (SJSocket s = SJService.create(PClient3.class, "", port + 1).request()) {
            s.send(false);
        }
    }
}
