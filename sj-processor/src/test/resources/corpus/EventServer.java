// Translated from the original SJ source tree: tests/src/ecoop/bmarks/sj/server/Server.sj (the
// event-driven server of the ECOOP benchmarks; the aplas and ecoop bmarks2 servers have the same shape).
// One member per point at which the server waits for input; each arm takes the session one step and
// hands it back at the next member. The original's s.recursion(X) { s.inbranch() { … } } is one
// inbranch on the unfolded rec; registerAccept becomes accept then register; the benchmark's debug
// printing and counting are left out. ClientMessage and MyObject are the benchmark's message classes.
import java.io.Serializable;
import org.sessionj.api.*;

class EventServer {
    record ClientMessage(int size) implements Serializable {}
    record MyObject(int signal, int size) implements Serializable {}

    @Protocol("rec X[?{REC: ?(EventServer.ClientMessage).!<EventServer.MyObject>.#X, QUIT: }]")
    interface PRecursion {}
    @Protocol("?(EventServer.ClientMessage).!<EventServer.MyObject>.@(PRecursion)") interface PReceive {}
    @Protocol("sbegin.@(PRecursion)") interface PServer {}
    @Protocol("{@(PRecursion), @(PReceive)}") interface PSelector {}

    void run(int port, int numClients) {
        try (SJSelector sel = SJSelector.of(PSelector.class);
             SJServerSocket ss = SJServerSocket.create(PServer.class, port)) {
            for (int k = 0; k < numClients; k++) {
                SJSocket accepted = ss.accept();
                sel.register(accepted);
            }
            while (numClients != 0) {
                SJSocket s = sel.select();
                switch (sel.typecase(s)) {
                    case "PRecursion" -> {
                        switch (s.inbranch()) {
                            case "REC" -> sel.register(s);
                            case "QUIT" -> {
                                numClients--;
                                s.close();
                            }
                        }
                    }
                    case "PReceive" -> {
                        ClientMessage m = s.receive();
                        s.send(new MyObject(0, m.size()));
                        sel.register(s);
                    }
                }
            }
        }
    }
}
