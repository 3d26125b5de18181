package org.sessionj.transport.delegation;

import java.util.ArrayList;
import java.util.List;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.testing.delegation.DelegationProtocols.AliceWithTotal;

/**
 * Alice in a second JVM: requests Carol's service at {@code args[0]:args[1]}, runs {@code args[2]}
 * request-replies, receives the total and prints {@code replies <list> total <n> <transport at start>
 * <transport at end>}. Carol
 * delegates her end to Bob in the first JVM, who reconnects to this process.
 */
public final class DelegationAliceProcess {
    private DelegationAliceProcess() {
    }

    public static void main(String[] args) {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder()
                .initiationTimeout(java.time.Duration.ofSeconds(30)).build());
        int rounds = Integer.parseInt(args[2]);
        try (SJSocket s = runtime.service(AliceWithTotal.class, args[0], Integer.parseInt(args[1])).request()) {
            String before = SJRuntime.transportOf(s);
            List<Integer> replies = new ArrayList<>();
            for (int i = 1; i <= rounds; i++) {
                s.outwhile(true);
                s.send(i);
                replies.add(s.receiveInt());
            }
            s.outwhile(false);
            int total = s.receiveInt(); // the last action is an input: everything Alice sent has arrived
            System.out.println("replies " + replies.toString().replace(" ", "") + " total " + total + " " + before + " "
                    + SJRuntime.transportOf(s));
        }
    }
}
