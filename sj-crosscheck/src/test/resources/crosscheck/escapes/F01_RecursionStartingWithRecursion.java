// class: rec-body-starts-with-rec
// program: requester
// expected: accepted: well typed; rec X[rec Y[...].!{...}] is well formed and the labelled loops follow it exactly
// runtime: runs to the end on both sides
package escapes;

import org.sessionj.api.*;

public final class F01_RecursionStartingWithRecursion {
    @Protocol("cbegin.rec X[rec Y[!{MORE: !<int>.#Y, DONE: }].!{AGAIN: #X, STOP: }]") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            int n = 0;
            X:
            while (true) {
                Y:
                while (true) {
                    if (n++ % 3 != 2) {
                        s.outbranch("MORE");
                        s.send(n);
                        continue Y;
                    }
                    s.outbranch("DONE");
                    break Y;
                }
                if (n < 6) {
                    s.outbranch("AGAIN");
                    continue X;
                }
                s.outbranch("STOP");
                break X;
            }
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            X:
            while (true) {
                Y:
                while (true) {
                    switch (s.inbranch()) {
                        case "MORE" -> {
                            int n = s.receiveInt();
                            continue Y;
                        }
                        case "DONE" -> {
                            break Y;
                        }
                    }
                }
                switch (s.inbranch()) {
                    case "AGAIN" -> {
                        continue X;
                    }
                    case "STOP" -> {
                        break X;
                    }
                }
            }
        }
    }
}
