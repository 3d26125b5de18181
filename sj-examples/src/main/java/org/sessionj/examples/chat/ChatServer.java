package org.sessionj.examples.chat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.examples.net.PartyRuntimes;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.TransportPreferences;

/**
 * The chat server of paper 000 §4.1: one global channel, the user list, and the relay of private
 * conversation requests. Each client's session ({@link ServerToClient}) is served on a virtual thread
 * of its own, and so is the client's event stream, which the client requests on a fresh port by the
 * service the server passes it at (i). The thread that accepts a client first starts the thread that
 * accepts the next one, so no session socket ever crosses threads. Clients come in on the session port
 * (tcp, tls, and http through the relay when one is configured) and, if the settings name one, on an
 * HTTP port of the server's own; a client's event stream is served the way the client came in.
 */
public final class ChatServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ChatServer.class.getName());
    /** How long a client has to request its event stream after it received the service. */
    private static final Duration STREAM_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** How long a client the per-address cap refuses has to send its name before it is told why (H21-2). */
    private static final Duration REFUSED_NAME_TIMEOUT = Duration.ofSeconds(2);
    /** How much of a failed client's reason the log keeps (a failure may quote a whole session type). */
    private static final int LOGGED_REASON = 300;

    private final SJRuntime runtime;
    private final ChatServerSettings settings;
    private final ChatRoom room;
    private final SJServerSocket listening;
    private final SJServerSocket httpListening;
    /** Sessions held per source address (transports that say where their peer is), for the per-address cap. */
    private final java.util.Map<InetAddress, Integer> perAddress = new java.util.HashMap<>();
    private volatile boolean closed;
    /**
     * One permit per client session whose serving has ended, with everything it held (its stream port)
     * freed: tests wait on it rather than polling the port.
     */
    final java.util.concurrent.Semaphore served = new java.util.concurrent.Semaphore(0);

    private ChatServer(SJRuntime runtime, ChatServerSettings settings) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.room = new ChatRoom(settings.maxUsers(), settings.floodBurst(), settings.floodPerSecond(),
                settings.joinTimeout(), System::nanoTime);
        this.listening = runtime.serverSocket(ServerToClient.class, settings.port(), settings.transports());
        this.httpListening = PartyRuntimes.httpPortNextTo(listening, runtime, ServerToClient.class, settings.httpPort());
    }

    /** Opens the server's session port (and HTTP port, if any) and starts accepting clients. */
    public static ChatServer start(SJRuntime runtime, ChatServerSettings settings) {
        ChatServer server = new ChatServer(runtime, settings);
        server.acceptNextOn(server.listening, settings.transports());
        if (server.httpListening != null) {
            server.acceptNextOn(server.httpListening, PartyRuntimes.httpServing());
        }
        return server;
    }

    /** The session port clients connect to. */
    public int port() {
        return listening.port();
    }

    /** The HTTP port clients may connect to over http (set up and run over http or https), or -1 if there is none. */
    public int httpPort() {
        return httpListening == null ? -1 : httpListening.port();
    }

    /** The names of the users in the global channel now, in joining order. */
    public java.util.List<String> users() {
        return room.names();
    }

    private void acceptNextOn(@Session(protocol = ServerToClient.class) SJServerSocket server, TransportPreferences way) {
        Thread.ofVirtual().name("chat-accept").start(() -> serveOne(server, way));
    }

    /**
     * Accepts one client, hands the accepting over to a fresh thread, and serves the client; its event
     * stream port takes {@code way}, the transports of the port the client came in on.
     */
    private void serveOne(@Session(protocol = ServerToClient.class) SJServerSocket server, TransportPreferences way) {
        Member member = null;
        SJServerSocket streamPort = null;
        InetAddress counted = null;
        try (SJSocket s_sc = server.accept()) {
            acceptNextOn(server, way);
            InetAddress from = s_sc.peerAddress();
            // Counted from the accept, and the name waited for in bounded time (H21-2): before, a client that
            // never sent its name was neither counted nor timed out, so one address held as many sessions as
            // it opened (a thread and a descriptor each), past the cap. One the cap refuses has a short
            // while to send its name (an honest client sends it with its request) before it is told why.
            boolean admitted = enter(from);
            if (admitted) {
                counted = from;
            }
            String userName = s_sc.receive(admitted ? settings.joinTimeout() : REFUSED_NAME_TIMEOUT); // ?(String)
            String refusal = null;
            if (!admitted) {
                refusal = "too many sessions from your address (" + settings.maxPerAddress() + ")";
            } else {
                member = room.register(userName == null ? "" : userName);
                if (member == null) {
                    refusal = "the chat is full (" + settings.maxUsers() + " users)";
                }
            }
            if (refusal != null) {
                // Told, rather than a bare close (hostile18 H8): the client shows it and tries again later.
                s_sc.outbranch("REFUSED");
                s_sc.send(refusal);                                   // ?(String)
                LOG.log(System.Logger.Level.INFO, "client (unnamed) refused: {0}", refusal);
                return;
            }
            member.address(from);
            s_sc.outbranch("WELCOME");
            s_sc.send(member.id());                                   // !<int>
            SJServerSocket port = runtime.serverSocket(EventOutServer.class, 0, way);
            streamPort = port;
            Member streamed = member;
            Thread.ofVirtual().name("chat-stream-" + member.id()).start(() -> streamEvents(port, streamed));
            // (i): the service for the server-to-client stream, on the fresh port.
            SJService c = SJService.create(EventInService.class, settings.advertisedHost(), port.port());
            s_sc.send(c);                                             // !<cbegin.@(eventInStream)>
            LOG.log(System.Logger.Level.INFO, "{0} connected", member);
            receiveEvents(s_sc, member);
        } catch (SJException e) {
            if (!closed) { // one line per client, whatever a peer made the reason say
                LOG.log(System.Logger.Level.INFO, "client {0}: {1}", member == null ? "(unnamed)" : member,
                        ChatText.clean(String.valueOf(e.getMessage()), LOGGED_REASON));
            }
        } finally {
            leave(counted);
            if (member != null) {
                room.leave(member);
                member.drop("the client's session ended");
            }
            if (streamPort != null) {
                // A client that is gone never asks for its stream: free the port now, not after the stream's
                // request timeout (its accept returns; closing a port the stream already took is a no-op).
                streamPort.close();
            }
            served.release();
        }
    }

    /**
     * Counts a session from {@code address} (null: its transport does not say, not counted); false when the
     * address holds {@code maxPerAddress} sessions already (hostile18 H8: one address filled the room).
     */
    private boolean enter(InetAddress address) {
        if (address == null) {
            return true;
        }
        synchronized (perAddress) {
            int held = perAddress.getOrDefault(address, 0);
            if (held >= settings.maxPerAddress()) {
                return false;
            }
            perAddress.put(address, held + 1);
            return true;
        }
    }

    /** How many sessions the per-address cap counts now, over all addresses (tests look at it). */
    int sessionsCounted() {
        synchronized (perAddress) {
            int held = 0;
            for (int n : perAddress.values()) {
                held += n;
            }
            return held;
        }
    }

    /** A session from {@code address} (counted by {@link #enter}) ended. */
    private void leave(InetAddress address) {
        if (address != null) {
            synchronized (perAddress) {
                perAddress.computeIfPresent(address, (a, held) -> held > 1 ? held - 1 : null);
            }
        }
    }

    /** The client's event out stream, from the server's side (eventInStream). */
    private void receiveEvents(@Session("@(EventInStream)") SJSocket s_sc, Member member) {
        X:
        while (true) {
            switch (s_sc.inbranch()) {
                case "JOIN" -> {
                    UserJoinEvent ignored = s_sc.receive();           // the server's own name and ID count
                    room.join(member);
                    continue X;
                }
                case "MESSAGE" -> {
                    MessageEvent message = s_sc.receive();
                    if (allowed(member)) {
                        room.say(member, message == null ? "" : message.text());
                    }
                    continue X;
                }
                case "PRIVATE_CONVERSATION" -> {
                    PrivateConversationEvent request = s_sc.receive();
                    Member invited = request == null || !allowed(member) ? null
                            : room.invitable(member, request.toUserName());
                    if (invited != null) {
                        s_sc.outbranch("ACCEPT");
                        SJService peer = s_sc.receive();              // ?(cbegin.@(clientToClient))  (ii)
                        // Passed on only to where the inviter is (hostile18 H9: an inviter made others connect to
                        // any host:port it named, their own localhost too).
                        String refusal = peer == null ? "it names no service"
                                : InvitationHosts.serverRefusal(peer.host(), member.address(), invited.address());
                        if (refusal == null) {
                            invited.offer(new Outgoing.Invitation(new PrivateConversationEvent(member.id(), member.name(),
                                    invited.name(), ChatText.clean(request.ticket(), 64)), peer));
                        } else {
                            room.notice(member, "your invitation to " + invited.name() + " was not passed on: "
                                    + ChatText.clean(refusal, 200));
                        }
                    } else {
                        s_sc.outbranch("REJECT");
                    }
                    continue X;
                }
                case "QUIT" -> {
                    UserQuitEvent quit = s_sc.receive();
                    room.leave(member);
                    member.finish(new Outgoing.Quit(new UserQuitEvent(member.id(), "you left the chat")));
                    break X;
                }
            }
        }
    }

    private boolean allowed(Member member) {
        if (member.flood().allow()) {
            return true;
        }
        if (member.flood().shouldWarn()) {
            room.notice(member, "flood control: you are sending too fast; messages are dropped");
        }
        return false;
    }

    /** Accepts the client's request for its event stream and sends it the events queued for it. */
    private void streamEvents(@Session(protocol = EventOutServer.class) SJServerSocket streamPort, Member member) {
        try (streamPort; SJSocket s_out = streamPort.accept(STREAM_REQUEST_TIMEOUT)) {
            streamPort.close();                                       // "can then close the dynamic server socket"
            sendEvents(s_out, member);
        } catch (SJException e) {
            LOG.log(System.Logger.Level.DEBUG, "stream of {0} ended: {1}", member, e.getMessage());
            room.leave(member);
            member.drop(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The server-to-client stream: @(eventOutStream). */
    private void sendEvents(@Session("@(EventOutStream)") SJSocket s_out, Member member) throws InterruptedException {
        X:
        while (true) {
            Outgoing next = member.next(Long.MAX_VALUE);
            switch (next) {
                case Outgoing.Join join -> {
                    s_out.outbranch("JOIN");
                    s_out.send(join.event());
                    continue X;
                }
                case Outgoing.Message message -> {
                    s_out.outbranch("MESSAGE");
                    s_out.send(message.event());
                    continue X;
                }
                case Outgoing.Invitation invitation -> {
                    s_out.outbranch("PRIVATE_CONVERSATION");
                    s_out.send(invitation.event());
                    switch (s_out.inbranch()) {
                        case "ACCEPT" -> s_out.send(invitation.service()); // !<cbegin.@(clientToClient)>  (ii)
                        case "REJECT" -> {
                        }
                    }
                    continue X;
                }
                case Outgoing.Quit quit -> {
                    s_out.outbranch("QUIT");
                    s_out.send(quit.event());
                    break X;
                }
                case Outgoing.Drop drop -> throw new SJIOException("stream dropped: " + drop.reason());
            }
        }
    }

    /** Stops accepting, ends every client's stream with QUIT and closes the session port. */
    @Override
    public void close() {
        closed = true;
        listening.close();
        if (httpListening != null) {
            httpListening.close();
        }
        room.closeAll("the server is shutting down");
    }
}
