// Translated from the original SJ source tree: tests/src/typecaze/Test1.sj.
// A requested (client) session registered for input and told apart by a one-member typecase.
import org.sessionj.api.*;

class TypecaseRequester {
    @Protocol("?(String).!<int>") interface P {}
    @Protocol("cbegin.@(P)") interface PService {}

    void run() {
        SJService c = SJService.create(PService.class, "localhost", 8888);
        try (SJSelector selector = SJSelector.of(P.class)) {
            SJSocket s = c.request();
            selector.register(s);
            SJSocket s1 = selector.select();
            switch (selector.typecase(s1)) {
                case "P" -> {
                    String m = s1.receive();
                    s1.send(123);
                    s1.close();
                }
            }
        }
    }
}
