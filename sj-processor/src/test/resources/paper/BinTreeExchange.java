import org.sessionj.api.*;

/*
 * Paper 000, section 5.1 (the SJ code translated in Figure 13) and section 6.1 (benchmark type (1)):
 * the binary-tree exchange.  Client side printed as type (1); "the Server implements the direct
 * dual type".  The Server body is reconstructed.
 */

final class BinTree {
    int value;
    BinTree left, right;

    /** How a receiver creates one (a tree travels as its fields; SJ018 without it: adv15 A21). */
    private BinTree() {
    }

    BinTree(int depth) {
        if (depth > 0) {
            left = new BinTree(depth - 1);
            right = new BinTree(depth - 1);
        }
    }
}

@Protocol("cbegin.![!<BinTree>.?(BinTree)]*")
interface BinTreeClient {}

@Protocol("^(BinTreeClient)")
interface BinTreeServer {}

public class BinTreeExchange {

    /** Session of the given length (number of session-while iterations), noalias version. */
    static void client(String host, int port, int depth, int length) throws SJIOException {
        SJService c = SJService.create(BinTreeClient.class, host, port);
        @NoAlias BinTree t = new BinTree(depth);
        try (SJSocket s = c.request()) {
            int i = 0;
            while (s.outwhile(i++ < length)) {        // s.outwhile(...) {
                s.pass(t);                            //   s.send(t); // t is of type noalias T.
                t = s.receive();                      //   ... = s.receive();
            }                                         // }
        }
    }

    static void server(int port) throws SJIOException {
        try (SJServerSocket ss = SJServerSocket.create(BinTreeServer.class, port);
             SJSocket s = ss.accept()) {
            while (s.inwhile()) {
                @NoAlias BinTree t = s.receive();     // ?(BinTree)
                t.value++;                            // update the tree
                s.pass(t);                            // !<BinTree>
            }
        }
    }
}
