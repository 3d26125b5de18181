// class: retype/receive/generic/primitive->primitive(widening)
// program: requester
// expected: rejected (SJ013): receive() returns the message as its box (Integer); assigning it to long unboxes a Long and fails, so Java's widening int -> long does not apply
// runtime: ClassCastException (Integer cannot be cast to Long) at the assignment
package escapes;

import org.sessionj.api.*;

public final class E06_GenericReceiveWidened {
    @Protocol("cbegin.?(int)") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            long x = s.receive();
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            s.send(7);
        }
    }
}
