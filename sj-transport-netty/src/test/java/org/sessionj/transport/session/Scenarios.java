package org.sessionj.transport.session;

import java.util.Arrays;
import org.sessionj.api.SJSocket;
import org.sessionj.transport.session.Protocols.Point;

/**
 * Both sides of the cross-process sessions, as plain code shared by the test JVM and the child JVM.
 * A wrong value throws {@link IllegalStateException} naming what was expected and what came.
 */
final class Scenarios {
    static final int ROUNDS = 100;
    static final int LINES = 5;

    private Scenarios() {
    }

    /** The requester of {@link Protocols.EverythingClient}, choosing {@code label} (SUM or ECHO). */
    static void everythingClient(SJSocket s, String label) {
        s.send(7);
        s.send(8L);
        s.send(9.5);
        s.send(10.25f);
        s.send(true);
        s.send((byte) 11);
        s.send((short) 12);
        s.send('x');
        s.send("héllo, wörld");
        s.send(new double[] {1.5, -2.5});
        s.send(new Point(3, 4));
        s.send(new Point[] {new Point(5, 6), null, new Point(Integer.MIN_VALUE, Integer.MAX_VALUE)});
        expect(s.receiveInt(), -7);
        expect(s.receiveLong(), Long.MIN_VALUE);
        expect(s.receiveDouble(), Math.PI);
        expect(s.receiveFloat(), -0.5f);
        expect(s.receiveBoolean(), false);
        expect(s.receiveByte(), (byte) -1);
        expect(s.receiveShort(), Short.MAX_VALUE);
        expect(s.receiveChar(), '\u00e9');
        expect(s.<String>receive(), "from the accepter");
        expect(Arrays.toString(s.<int[]>receive()), "[1, 2, 3]");
        expect(s.<Point>receive(), new Point(-1, 1));
        expect(Arrays.toString(s.<Point[]>receive()), "[]");
        int round = 0;
        while (s.outwhile(round < ROUNDS)) {
            s.send(round);
            expect(s.receiveInt(), 2 * round);
            round++;
        }
        int lines = 0;
        while (s.inwhile()) {
            expect(s.<String>receive(), "line " + lines++);
        }
        expect(lines, LINES);
        s.outbranch(label);
        if (label.equals("SUM")) {
            int[] values = new int[1000];
            Arrays.setAll(values, i -> i + 1);
            s.send(values);
            expect(s.receiveLong(), 500_500L);
        } else {
            s.send("echo me");
            expect(s.<String>receive(), "echo me!");
        }
    }

    /** The accepter of {@link Protocols.EverythingServer}; returns the label the requester chose. */
    static String everythingServer(SJSocket s) {
        expect(s.receiveInt(), 7);
        expect(s.receiveLong(), 8L);
        expect(s.receiveDouble(), 9.5);
        expect(s.receiveFloat(), 10.25f);
        expect(s.receiveBoolean(), true);
        expect(s.receiveByte(), (byte) 11);
        expect(s.receiveShort(), (short) 12);
        expect(s.receiveChar(), 'x');
        expect(s.<String>receive(), "héllo, wörld");
        expect(Arrays.toString(s.<double[]>receive()), "[1.5, -2.5]");
        expect(s.<Point>receive(), new Point(3, 4));
        expect(Arrays.toString(s.<Point[]>receive()),
                Arrays.toString(new Point[] {new Point(5, 6), null, new Point(Integer.MIN_VALUE, Integer.MAX_VALUE)}));
        s.send(-7);
        s.send(Long.MIN_VALUE);
        s.send(Math.PI);
        s.send(-0.5f);
        s.send(false);
        s.send((byte) -1);
        s.send(Short.MAX_VALUE);
        s.send('\u00e9');
        s.send("from the accepter");
        s.send(new int[] {1, 2, 3});
        s.send(new Point(-1, 1));
        s.send(new Point[0]);
        int rounds = 0;
        while (s.inwhile()) {
            s.send(2 * s.receiveInt());
            rounds++;
        }
        expect(rounds, ROUNDS);
        int line = 0;
        while (s.outwhile(line < LINES)) {
            s.send("line " + line++);
        }
        String label = s.inbranch();
        switch (label) {
            case "SUM" -> s.send(Arrays.stream(s.<int[]>receive()).asLongStream().sum());
            case "ECHO" -> s.send(s.<String>receive() + "!");
            default -> throw new IllegalStateException("unexpected label " + label);
        }
        return label;
    }

    /** The requester of {@link Protocols.PingClient}. */
    static void pingClient(SJSocket s) {
        s.send(41);
        expect(s.receiveInt(), 42);
    }

    /** The accepter of {@link Protocols.PingServer}. */
    static void pingServer(SJSocket s) {
        s.send(s.receiveInt() + 1);
    }

    /** The requester of {@link Protocols.WrongClient} (never gets past initiation with a ping server). */
    static void wrongClient(SJSocket s) {
        s.send("not an int");
        s.receiveInt();
    }

    private static void expect(Object actual, Object expected) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException("expected " + expected + " but received " + actual);
        }
    }
}
