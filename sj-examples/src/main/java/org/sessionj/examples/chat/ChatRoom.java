package org.sessionj.examples.chat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The server's global channel: who is connected, under which unique name, and the fan-out of events
 * to every member's queue. All changes happen under one lock, so every member sees joins, leaves and
 * messages in the same order, and a joining member gets the user list before anything else.
 */
final class ChatRoom {
    /** The sender ID of the server's own notices. */
    static final int SERVER_ID = 0;
    /** The sender name of the server's own notices. */
    static final String SERVER_NAME = "server";

    private final int maxMembers;
    private final int floodBurst;
    private final int floodPerSecond;
    private final long joinTimeoutNanos;
    private final LongSupplier clock;
    private final Map<Integer, Member> members = new LinkedHashMap<>();
    private int nextId = 1;

    ChatRoom(int maxMembers, int floodBurst, int floodPerSecond, Duration joinTimeout, LongSupplier clock) {
        this.maxMembers = maxMembers;
        this.floodBurst = floodBurst;
        this.floodPerSecond = floodPerSecond;
        this.joinTimeoutNanos = joinTimeout.toNanos();
        this.clock = clock;
    }

    /**
     * A new member with a fresh ID and a unique, cleaned version of {@code wanted} ("guest" if nothing is
     * left of it; "bob2", "bob3" … if taken), or null when the room is full. Members that have not joined
     * within the join timeout are dropped first: they do not keep a room full (hostile18 H8: 1,000 members
     * that never joined kept every real user out).
     */
    synchronized Member register(String wanted) {
        long now = clock.getAsLong();
        if (members.size() >= maxMembers) {
            for (Member late : new ArrayList<>(members.values())) {
                if (!late.joined() && now - late.registeredNanos() >= joinTimeoutNanos) {
                    members.remove(late.id());
                    late.drop("did not join the chat within " + joinTimeoutNanos / 1_000_000_000 + " s");
                }
            }
        }
        if (members.size() >= maxMembers) {
            return null;
        }
        String base = ChatText.name(wanted);
        if (base.isEmpty() || base.equalsIgnoreCase(SERVER_NAME)) {
            base = "guest";
        }
        String name = base;
        for (int suffix = 2; find(name) != null; suffix++) {
            String tail = Integer.toString(suffix);
            name = base.substring(0, Math.min(base.length(), ChatText.MAX_NAME - tail.length())) + tail;
        }
        Member member = new Member(nextId++, name, new FloodLimit(floodBurst, floodPerSecond), now);
        members.put(member.id(), member);
        return member;
    }

    /** {@code member} joins the channel: it gets the user list, everyone (itself included) its JOIN. */
    synchronized void join(Member member) {
        if (member.joined() || member.closed() || !members.containsKey(member.id())) {
            return;
        }
        for (Member other : members.values()) {
            if (other.joined()) {
                member.offer(new Outgoing.Join(new UserJoinEvent(other.id(), other.name(), true)));
            }
        }
        member.markJoined();
        broadcast(new Outgoing.Join(new UserJoinEvent(member.id(), member.name(), true)));
    }

    /** {@code member} says {@code text} on the channel (cleaned; ignored before it joined). */
    synchronized void say(Member member, String text) {
        if (member.joined() && !member.closed()) {
            broadcast(new Outgoing.Message(new MessageEvent(member.id(), member.name(), ChatText.message(text))));
        }
    }

    /** Removes {@code member}; the others are told it left. Idempotent. */
    synchronized void leave(Member member) {
        if (members.remove(member.id()) != null && member.joined()) {
            broadcast(new Outgoing.Join(new UserJoinEvent(member.id(), member.name(), false)));
        }
    }

    /** The joined member named {@code name} (case-insensitive) other than {@code asking}, or null. */
    synchronized Member invitable(Member asking, String name) {
        Member found = find(ChatText.name(name));
        return found == null || found == asking || !found.joined() || found.closed() ? null : found;
    }

    /** Sends a notice from the server to {@code member} alone. */
    void notice(Member member, String text) {
        member.offer(new Outgoing.Message(new MessageEvent(SERVER_ID, SERVER_NAME, text)));
    }

    /** Ends every member's stream with QUIT (the server is closing). */
    synchronized void closeAll(String reason) {
        for (Member member : new ArrayList<>(members.values())) {
            member.finish(new Outgoing.Quit(new UserQuitEvent(member.id(), reason)));
        }
        members.clear();
    }

    /** The names of the joined members, in joining order. */
    synchronized List<String> names() {
        return members.values().stream().filter(Member::joined).map(Member::name).toList();
    }

    private void broadcast(Outgoing event) {
        for (Member member : new ArrayList<>(members.values())) {
            if (member.joined() && !member.offer(event)) {
                leave(member);
            }
        }
    }

    private Member find(String name) {
        for (Member member : members.values()) {
            if (member.name().equalsIgnoreCase(name)) {
                return member;
            }
        }
        return null;
    }
}
