package org.sessionj.examples.chat;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * One private conversation as a client sees it: the peer, the invitation's ticket, and the lines
 * waiting for this side's stream towards the peer (queued even before the conversation is open).
 */
final class Conversation {
    /** How many lines may wait for a conversation that is not open yet or whose peer reads slowly. */
    static final int BACKLOG = 256;

    /** What this side's private out stream sends next. */
    sealed interface Item {
    }

    /** A line of text. */
    record Line(String text) implements Item {
    }

    /** The normal end: QUIT. */
    record End(String reason) implements Item {
    }

    private final String peer;
    private final String ticket;
    private final boolean invitedByUs;
    private final BlockingQueue<Item> outgoing = new ArrayBlockingQueue<>(BACKLOG + 1);
    private volatile boolean open;
    private volatile boolean ended;

    Conversation(String peer, String ticket, boolean invitedByUs) {
        this.peer = peer;
        this.ticket = ticket;
        this.invitedByUs = invitedByUs;
    }

    String peer() {
        return peer;
    }

    String ticket() {
        return ticket;
    }

    boolean invitedByUs() {
        return invitedByUs;
    }

    boolean isOpen() {
        return open;
    }

    boolean isEnded() {
        return ended;
    }

    void markOpen() {
        open = true;
    }

    /** Queues a line; false when the conversation ended or too many lines wait. */
    boolean queue(String text) {
        return !ended && outgoing.size() < BACKLOG && outgoing.offer(new Line(text));
    }

    /** Ends this side's stream after the lines already queued; true the first time. */
    boolean end(String reason) {
        if (ended) {
            return false;
        }
        ended = true;
        outgoing.offer(new End(reason));               // room is kept for it: lines stop at BACKLOG
        return true;
    }

    /** The next item for the out stream, waiting for it. */
    Item next() throws InterruptedException {
        return outgoing.take();
    }

    /** How many lines were queued and not sent. */
    int undelivered() {
        return (int) outgoing.stream().filter(Line.class::isInstance).count();
    }
}
