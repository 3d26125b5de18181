// class: retype/receive/generic/boxed->primitive
// program: requester
// expected: rejected (SJ013): the message is an Integer; assigning receive() to double unboxes a Double and fails
// runtime: ClassCastException (Integer cannot be cast to Double) at the assignment
package escapes;

import org.sessionj.api.*;

public final class E07_GenericReceiveBoxUnboxedAsOtherPrimitive {
    @Protocol("cbegin.?(Integer)") interface Req {}
    @Protocol("^(Req)") interface Acc {}

    public static void requester(int port, long seed) {
        try (SJSocket s = SJService.create(Req.class, "localhost", port).request()) {
            double x = s.receive();
        }
    }

    public static void accepter(@Session(protocol = Acc.class) SJServerSocket server, long seed) {
        try (SJSocket s = server.accept()) {
            s.send(Integer.valueOf(7));
        }
    }
}
