// Translated from the original SJ source tree: tests/src/runtime/selector/server/Server.sj.
// The set { @(p_body), ?(String).!<int>.@(p_body) } has an anonymous second member: a typed selector
// names its members by their protocols, so it is declared as Rest. The original's s.recursion(X) body
// ends with registerInput(s), leaving the recursion: here the arm receives from the unfolded rec and
// hands the session back at Rest's type. registerAccept becomes accept then register. The original
// keeps each client's first number in a map keyed by s.getPort(); this API has no port query on a
// session, so the number is kept per server (one client at a time).
import org.sessionj.api.*;

class RecursionHandBack {
    @Protocol("rec X[?(int).?(String).!<int>.#X]") interface PBody {}
    @Protocol("sbegin.@(PBody)") interface PServer {}
    @Protocol("?(String).!<int>.@(PBody)") interface Rest {}

    private int first;

    void run(int port) {
        try (SJSelector sel = SJSelector.of(PBody.class, Rest.class);
             SJServerSocket ss = SJServerSocket.create(PServer.class, port)) {
            SJSocket accepted = ss.accept();
            sel.register(accepted);
            while (true) {
                SJSocket s = sel.select();
                switch (sel.typecase(s)) {
                    case "PBody" -> {
                        first = s.receiveInt();
                        sel.register(s);
                    }
                    case "Rest" -> {
                        String m = s.receive();
                        s.send(first * Integer.parseInt(m));
                        sel.register(s);
                    }
                }
            }
        }
    }
}
