package org.sessionj.examples.chat;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.sessionj.api.SJException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.runtime.SJRuntime;

/**
 * A client's private conversations. Each one is two streams set up by service passing, directly
 * between the two clients: the inviting client opens a port and passes its service through the
 * server (ii); the invited client requests it, presents the invitation's ticket, and receives a
 * second service for the stream in the other direction ({@link ClientToClient}). The inviting
 * client's ports accept the transports it demands, so a client that demands {@code tls} talks only
 * to clients that can do TLS: with any other the negotiation finds no common transport and both
 * users are told.
 */
final class PrivateChats {
    /** How many private conversations a client keeps at once. */
    static final int MAX_CONVERSATIONS = 16;
    private static final SecureRandom TICKETS = new SecureRandom();

    private final SJRuntime runtime;
    private final ChatClientSettings settings;
    private final ChatDisplay display;
    private final Map<String, List<Conversation>> byPeer = new LinkedHashMap<>();

    PrivateChats(SJRuntime runtime, ChatClientSettings settings, ChatDisplay display) {
        this.runtime = runtime;
        this.settings = settings;
        this.display = display;
    }

    /**
     * Sends {@code text} to {@code peer}: on an open (or opening) conversation, else on a new one, for
     * which {@code invite} is called with the invitation to send through the server.
     */
    void send(String peer, String text, Consumer<Conversation> invite) {
        Conversation conversation;
        boolean fresh = false;
        synchronized (this) {
            conversation = current(peer);
            if (conversation == null) {
                if (count() >= MAX_CONVERSATIONS) {
                    display.show("! too many private conversations (" + MAX_CONVERSATIONS + "); /close one first");
                    return;
                }
                conversation = new Conversation(peer, newTicket(), true);
                add(conversation);
                fresh = true;
            }
        }
        if (!conversation.queue(text)) {
            display.show("! private conversation with " + peer + ": too many lines waiting; not sent");
            return;
        }
        display.show("[to " + peer + "] " + text);
        if (fresh) {
            invite.accept(conversation);
        }
    }

    /** Ends the conversations with {@code peer}; false if there were none. */
    boolean close(String peer) {
        List<Conversation> ended;
        synchronized (this) {
            ended = byPeer.remove(key(peer));
        }
        if (ended == null) {
            return false;
        }
        ended.forEach(c -> c.end("closed the private conversation"));
        return true;
    }

    /** Ends every conversation (the user quits). */
    void closeAll() {
        List<Conversation> all = new ArrayList<>();
        synchronized (this) {
            byPeer.values().forEach(all::addAll);
            byPeer.clear();
        }
        all.forEach(c -> c.end("left the chat"));
    }

    /**
     * Whether to accept an invitation from {@code from}: at most one conversation per inviter, opening or
     * open (hostile18 H9: one inviter's invitations each made this client connect somewhere).
     */
    synchronized boolean mayJoin(PrivateConversationEvent invitation) {
        return settings.acceptInvitations() && invitation != null && count() < MAX_CONVERSATIONS
                && !ChatText.name(invitation.fromUserName()).isEmpty()
                && current(ChatText.name(invitation.fromUserName())) == null;
    }

    /** The server refused an invitation: there is no such user (any more). */
    void refused(Conversation conversation) {
        forget(conversation);
        conversation.end("refused");
        display.show("! private conversation with " + conversation.peer() + " refused: there is no user "
                + conversation.peer() + " in the chat (/users lists them)");
    }

    // ------------------------------------------------------------------ the inviting side

    /** A port for an invitation the server accepted to pass on, serving the transports this client demands. */
    SJServerSocket openPort() {
        return runtime.serverSocket(PrivateServer.class, 0, settings.privateTransports());
    }

    /** The service for {@code port}, as the invited client will request it. */
    SJService serviceFor(SJServerSocket port) {
        return SJService.create(PrivateService.class, settings.advertisedHost(), port.port());
    }

    /** Waits on {@code port} for the invited client, then runs the conversation. */
    void host(@Session(protocol = PrivateServer.class) SJServerSocket port, Conversation conversation) {
        // accept() waits on past a refused request; only the invited client is expected, so its refusal
        // (no transport both sides accept, say) ends the wait with its reason.
        java.util.concurrent.atomic.AtomicReference<String> refusal = new java.util.concurrent.atomic.AtomicReference<>();
        SJRuntime.onFailedHandshake(port, reason -> {
            refusal.compareAndSet(null, reason.getMessage());
            port.close();
        });
        Thread.ofVirtual().name("chat-private-host").start(() -> {
            try (port; SJSocket s = port.accept(settings.inviteTimeout())) {
                port.close();
                String ticket = s.receive();                                  // ?(String)
                if (!conversation.ticket().equals(ticket)) {
                    throw new SJException("the client that connected presented a wrong ticket");
                }
                SJServerSocket streamPort = runtime.serverSocket(PrivateOutServer.class, 0, settings.privateTransports());
                Thread.ofVirtual().name("chat-private-out").start(() -> acceptStream(streamPort, conversation));
                s.send(SJService.create(PrivateInService.class, settings.advertisedHost(), streamPort.port()));
                opened(conversation);
                receiveStream(s, conversation);
            } catch (org.sessionj.api.SJTimeoutException e) {
                failed(conversation, conversation.peer() + " did not connect within " + seconds(settings.inviteTimeout()));
            } catch (SJException e) {
                failed(conversation, refusal.get() != null ? refusal.get() : e.getMessage());
            }
        });
    }

    private void acceptStream(@Session(protocol = PrivateOutServer.class) SJServerSocket streamPort,
            Conversation conversation) {
        try (streamPort; SJSocket s = streamPort.accept(settings.inviteTimeout())) {
            streamPort.close();
            sendStream(s, conversation);
        } catch (SJException e) {
            failed(conversation, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ the invited side

    /** Joins the conversation {@code invitation} offers, at the inviting client's {@code peer} service. */
    void join(@Session(protocol = PrivateService.class) SJService peer, PrivateConversationEvent invitation) {
        String from = ChatText.name(invitation.fromUserName());
        String refusal = peer == null ? "it names no service" : InvitationHosts.clientRefusal(peer.host(), settings.serverHost());
        if (refusal != null) {
            display.show("! private conversation with " + from + " not joined: the invitation leads to "
                    + (peer == null ? "nothing" : ChatText.clean(peer.host(), 100) + ":" + peer.port()) + ", and "
                    + ChatText.clean(refusal, 200));
            return;
        }
        Conversation conversation = new Conversation(from, ChatText.clean(invitation.ticket(), 64), false);
        synchronized (this) {
            add(conversation);
        }
        Thread.ofVirtual().name("chat-private-join").start(() -> {
            try (SJSocket s = peer.request()) {
                s.send(conversation.ticket());                                 // !<String>
                SJService back = s.receive();                                  // ?(cbegin.@(PrivateInStream))
                opened(conversation);
                Thread.ofVirtual().name("chat-private-in").start(() -> requestStream(back, conversation));
                sendStream(s, conversation);
            } catch (SJException e) {
                failed(conversation, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private void requestStream(@Session(protocol = PrivateInService.class) SJService back, Conversation conversation) {
        try (SJSocket s = back.request()) {
            receiveStream(s, conversation);
        } catch (SJException e) {
            failed(conversation, e.getMessage());
        }
    }

    // ------------------------------------------------------------------ both sides

    /** This side's stream towards the peer: the queued lines, then QUIT. */
    private void sendStream(@Session("@(PrivateOutStream)") SJSocket s, Conversation conversation)
            throws InterruptedException {
        X:
        while (true) {
            switch (conversation.next()) {
                case Conversation.Line line -> {
                    s.outbranch("MESSAGE");
                    s.send(new MessageEvent(0, "", line.text()));
                    continue X;
                }
                case Conversation.End end -> {
                    s.outbranch("QUIT");
                    s.send(new UserQuitEvent(0, end.reason()));
                    break X;
                }
            }
        }
    }

    /** The peer's stream towards this side, shown as it comes; its QUIT ends ours too. */
    private void receiveStream(@Session("@(PrivateInStream)") SJSocket s, Conversation conversation) {
        X:
        while (true) {
            switch (s.inbranch()) {
                case "MESSAGE" -> {
                    MessageEvent message = s.receive();
                    display.show("[" + conversation.peer() + "] " + ChatText.message(message == null ? "" : message.text()));
                    continue X;
                }
                case "QUIT" -> {
                    UserQuitEvent quit = s.receive();
                    if (forget(conversation) && conversation.end("the peer left")) {
                        display.show("* private conversation with " + conversation.peer() + " ended: "
                                + conversation.peer() + " " + ChatText.clean(quit == null ? "" : quit.reason(), 80));
                    }
                    break X;
                }
            }
        }
    }

    private void opened(Conversation conversation) {
        conversation.markOpen();
        display.show("* private conversation with " + conversation.peer() + " open");
    }

    private void failed(Conversation conversation, String reason) {
        if (!forget(conversation) || !conversation.end("failed")) {
            return;                                                       // already ended on purpose
        }
        int lost = conversation.undelivered();
        String verb = conversation.isOpen() ? "ended" : conversation.invitedByUs() ? "failed" : "refused";
        display.show("! private conversation with " + conversation.peer() + " " + verb + ": "
                + ChatText.clean(reason, 300) + hint(reason) + (lost > 0 ? " (" + lost + " lines not delivered)" : ""));
    }

    private static String hint(String reason) {
        return reason != null && reason.contains("no session transport both sides accept")
                ? " — one side demands a transport (such as tls) that the other cannot use" : "";
    }

    // ------------------------------------------------------------------ bookkeeping

    private synchronized Conversation current(String peer) {
        List<Conversation> list = byPeer.get(key(peer));
        if (list == null) {
            return null;
        }
        for (Conversation c : list) {
            if (c.isOpen() && !c.isEnded()) {
                return c;
            }
        }
        return list.stream().filter(c -> !c.isEnded()).findFirst().orElse(null);
    }

    private void add(Conversation conversation) {
        byPeer.computeIfAbsent(key(conversation.peer()), k -> new ArrayList<>()).add(conversation);
    }

    /** Removes {@code conversation}; true if it was there. */
    private synchronized boolean forget(Conversation conversation) {
        List<Conversation> list = byPeer.get(key(conversation.peer()));
        if (list == null || !list.remove(conversation)) {
            return false;
        }
        if (list.isEmpty()) {
            byPeer.remove(key(conversation.peer()));
        }
        return true;
    }

    private int count() {
        return byPeer.values().stream().mapToInt(List::size).sum();
    }

    private static String key(String peer) {
        return peer.toLowerCase(Locale.ROOT);
    }

    private static String newTicket() {
        byte[] bytes = new byte[16];
        TICKETS.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static String seconds(Duration duration) {
        return duration.toSeconds() + " s";
    }
}
