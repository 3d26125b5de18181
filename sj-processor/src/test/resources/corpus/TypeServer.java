// Translated from the original SJ source tree: tests/src/dimitris/benchmark/SJE/TypeServer.sj (and
// its benchmarkV2 and SJthread copies). The original's server type is sbegin.?(String).{!<int>,
// !<String>, !<Object>}: a set after a receive, resolved by which of three client protocols connected.
// Here a set is a whole protocol, not a part of a sequence (docs/session-types.md §8), so the literal
// translation names a set inside a sequence (SJ004). Choice: one server protocol per client type, each
// on its own server socket; the sessions go to one typed selector whose typecase tells which client
// type each is — the decision the original's typecase made. The original's nested try blocks that
// swallow every exception are left out.
import org.sessionj.api.*;

class TypeServer {
    @Protocol("?(String).!<int>") interface SInt {}
    @Protocol("?(String).!<String>") interface SStr {}
    @Protocol("?(String).!<Object>") interface SObj {}
    @Protocol("sbegin.@(SInt)") interface IntServer {}
    @Protocol("sbegin.@(SStr)") interface StrServer {}
    @Protocol("sbegin.@(SObj)") interface ObjServer {}

    private Object oparse(String str) {
        return new String(str);
    }

    private String sparse(String str) {
        return str.substring(7, str.indexOf(' ', 7));
    }

    private int iparse(String str) {
        return Integer.parseInt(str.substring(7, str.indexOf(' ', 7)));
    }

    void server(int port, int numClients) {
        try (SJSelector sel = SJSelector.of(SInt.class, SStr.class, SObj.class);
             SJServerSocket ints = SJServerSocket.create(IntServer.class, port);
             SJServerSocket strs = SJServerSocket.create(StrServer.class, port + 1);
             SJServerSocket objs = SJServerSocket.create(ObjServer.class, port + 2)) {
            for (int k = 0; k < numClients; k += 3) {
                SJSocket a = ints.accept();
                sel.register(a);
                SJSocket b = strs.accept();
                sel.register(b);
                SJSocket c = objs.accept();
                sel.register(c);
            }
            while (numClients-- > 0) {
                SJSocket s = sel.select();
                switch (sel.typecase(s)) {
                    case "SInt" -> {
                        String str = s.receive();
                        s.send(iparse(str));
                        s.close();
                    }
                    case "SStr" -> {
                        String str = s.receive();
                        s.send(sparse(str));
                        s.close();
                    }
                    case "SObj" -> {
                        String str = s.receive();
                        s.send(oparse(str));
                        s.close();
                    }
                }
            }
        }
    }
}
