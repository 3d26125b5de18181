package org.sessionj.examples.tally;

import java.util.ArrayList;
import java.util.List;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;

/** A client of {@link TallyServer}: adds its numbers one by one, then quits. */
public final class TallyClient {
    private TallyClient() {
    }

    /**
     * Runs one session that adds {@code numbers} in order.
     *
     * @return the running total the server answered after each addition
     */
    public static List<Integer> add(@Session(protocol = TallyProtocols.TallyClient.class) SJService service,
                                    int... numbers) {
        List<Integer> totals = new ArrayList<>(numbers.length);
        try (SJSocket s = service.request()) {
            for (int number : numbers) {
                s.outbranch("ADD");
                s.send(number);
                totals.add(s.receiveInt());
            }
            s.outbranch("QUIT");
        }
        return totals;
    }
}
