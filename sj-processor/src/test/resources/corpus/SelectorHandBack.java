// Translated from the original SJ source tree: tests/src/selector/Test2.sj.
// The original selects a session on its accept event at p1 = !<int>.@(p2), which starts with an
// output; a selector here yields sessions whose input is ready, so a member starts with an input
// (SJ052 for p1). Choice: the accepted session does p1's output at once and is registered at p2, the
// point where it waits for input — the original's registerInput(s) in its p1 arm. The endless server
// loop of the original is kept.
import org.sessionj.api.*;

class SelectorHandBack {
    @Protocol("?(String)") interface P2 {}
    @Protocol("!<int>.@(P2)") interface P1 {}
    @Protocol("sbegin.@(P1)") interface P {}

    void serve() {
        try (SJSelector selector = SJSelector.of(P2.class);
             SJServerSocket ss = SJServerSocket.create(P.class, 8888)) {
            while (true) {
                SJSocket a = ss.accept();
                a.send(123);
                selector.register(a);
                SJSocket s = selector.select();
                switch (selector.typecase(s)) {
                    case "P2" -> {
                        String received = s.receive();
                        System.out.println("Received: " + received);
                        s.close();
                    }
                }
            }
        }
    }
}
