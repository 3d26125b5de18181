package org.sessionj.examples.chat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sessionj.api.SJException;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;
import org.sessionj.api.Session;
import org.sessionj.runtime.SJRuntime;

/**
 * A chat client (paper 000 §4.1): its session with the server runs the client's event out stream
 * (fed by what the user types), a virtual thread runs the server-to-client event stream it requests
 * with the service the server passed at (i), and private conversations run directly between clients.
 * When the server goes away the client says so and reconnects, waiting longer after each failure,
 * until the user quits; private conversations go on meanwhile.
 *
 * <p>User input ({@link #input(String)}): a line of text goes to everyone; {@code /msg USER TEXT}
 * privately to USER; {@code /close USER} ends the private conversation; {@code /users} lists who is
 * in the chat; {@code /help}; {@code /quit} leaves.
 */
public final class ChatClient implements AutoCloseable {
    private final SJRuntime runtime;
    private final ChatClientSettings settings;
    private final ChatDisplay display;
    private final PrivateChats privates;
    private final BlockingQueue<Command> commands = new LinkedBlockingQueue<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final CountDownLatch quitSignal = new CountDownLatch(1);
    private final Object state = new Object();
    private final Map<Integer, String> users = new LinkedHashMap<>();
    private volatile boolean quitting;
    private volatile boolean connected;
    private volatile int generation;
    private volatile String myName;
    private volatile int myId;

    private ChatClient(SJRuntime runtime, ChatClientSettings settings, ChatDisplay display) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.display = Objects.requireNonNull(display, "display");
        this.privates = new PrivateChats(runtime, settings, display);
    }

    /** Starts a client: it connects (and reconnects) to the server on a thread of its own. */
    public static ChatClient start(SJRuntime runtime, ChatClientSettings settings, ChatDisplay display) {
        ChatClient client = new ChatClient(runtime, settings, display);
        Thread.ofVirtual().name("chat-client-" + settings.name()).start(client::run);
        return client;
    }

    /** Handles one line the user typed; false once the user has quit. */
    public boolean input(String line) {
        String text = ChatText.message(line).strip();
        if (quitting) {
            return false;
        }
        if (text.isEmpty()) {
            return true;
        }
        if (!text.startsWith("/")) {
            say(text);
            return true;
        }
        String[] words = text.split("\\s+", 3);
        switch (words[0]) {
            case "/msg" -> {
                if (words.length < 3) {
                    display.show("! usage: /msg USER TEXT");
                } else if (words[1].equalsIgnoreCase(myName)) {
                    display.show("! that is you");
                } else {
                    privates.send(ChatText.name(words[1]), words[2], conversation -> invite(conversation));
                }
            }
            case "/close" -> {
                if (words.length < 2 || !privates.close(ChatText.name(words[1]))) {
                    display.show("! usage: /close USER, with USER someone you talk to privately");
                } else {
                    display.show("* private conversation with " + ChatText.name(words[1]) + " closed");
                }
            }
            case "/users" -> display.show(userList());
            case "/help" -> {
                display.show("* TEXT: to everyone · /msg USER TEXT: privately · /close USER: end a private conversation");
                display.show("* /users: who is here · /quit: leave");
            }
            case "/quit" -> {
                quit();
                return false;
            }
            default -> display.show("! unknown command " + words[0] + " (/help lists them)");
        }
        return true;
    }

    /** Leaves the chat: QUIT to the server and to every private conversation. Idempotent. */
    public void quit() {
        if (quitting) {
            return;
        }
        quitting = true;
        privates.closeAll();
        commands.add(new Command.Quit());
        quitSignal.countDown();
    }

    /** Waits until the client has left (after {@link #quit()}); false on timeout. */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    /** Whether the client is connected to the server now. */
    public boolean isConnected() {
        return connected;
    }

    /** Quits and waits a little for the goodbyes to go out. */
    @Override
    public void close() {
        quit();
        try {
            finished.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void say(String text) {
        if (!connected) {
            display.show("! not connected to the server; not sent");
            return;
        }
        commands.add(new Command.Say(text));
    }

    private void invite(Conversation conversation) {
        if (!connected) {
            privates.refused(conversation);
            return;
        }
        commands.add(new Command.Invite(conversation));
    }

    // ------------------------------------------------------------------ the connection

    private void run() {
        long delay = settings.reconnectDelay().toMillis();
        try {
            SJService server = runtime.service(ClientToServer.class, settings.serverHost(), settings.serverPort(),
                    settings.serverTransports());
            while (!quitting) {
                try {
                    converse(server);
                    return;                                              // the user quit
                } catch (SJException e) {
                    if (quitting) {
                        return;
                    }
                    boolean wasConnected = connected;
                    connected = false;
                    display.show("! " + (e instanceof Refused ? "the server refused this client" : wasConnected
                            ? "lost the connection to the server" : "cannot reach the server at "
                            + settings.serverHost() + ":" + settings.serverPort()) + " (" + reason(e)
                            + "); retrying in " + (delay >= 1000 ? delay / 1000 + " s" : delay + " ms") + " (/quit to leave)");
                    if (wasConnected) {
                        delay = settings.reconnectDelay().toMillis();
                    }
                }
                if (quitSignal.await(delay, TimeUnit.MILLISECONDS)) {
                    return;
                }
                delay = Math.min(delay * 2, settings.maxReconnectDelay().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connected = false;
            display.show("* bye");
            finished.countDown();
        }
    }

    /** One session with the server: the paper's clientToServer, until the user quits or it breaks. */
    private void converse(@Session(protocol = ClientToServer.class) SJService server) throws InterruptedException {
        try (SJSocket s_cs = server.request()) {
            s_cs.send(settings.name());                                  // !<String>  Send user name.
            switch (s_cs.inbranch()) {                                   // Admitted, or told why not.
                case "WELCOME" -> {
                }
                case "REFUSED" -> {
                    String why = s_cs.receive();
                    throw new Refused(ChatText.clean(String.valueOf(why), 200));
                }
            }
            int userId = s_cs.receiveInt();                              // ?(int)     Receive user ID.
            SJService passed = s_cs.receive();                           // ?(cbegin.@(eventInStream))  (i)
            // Requested the way this client reaches the server (only over http, for one behind a
            // firewall): the same service, with this client's transports for the server.
            SJService c = runtime.service(EventInService.class, passed.host(), passed.port(), settings.serverTransports());
            int current = ++generation;
            synchronized (state) {
                users.clear();
                myId = userId;
                myName = null;
            }
            Thread.ofVirtual().name("chat-in-" + settings.name()).start(() -> receiveEvents(c, current));
            connected = true;
            s_cs.outbranch("JOIN");                                      // !{JOIN: !<UserJoinEvent>.#X ...
            s_cs.send(new UserJoinEvent(userId, settings.name(), true));
            X:
            while (true) {                                               // s_cs.recursion(X) { // rec X[
                Command command = commands.take();
                while (command instanceof Command.ServerGone gone && gone.generation() != current) {
                    command = commands.take();                           // from an earlier connection
                }
                switch (command) {
                    case Command.Say say -> {                            // Sending a message.
                        s_cs.outbranch("MESSAGE");                       // !{ MESSAGE:..
                        s_cs.send(new MessageEvent(userId, settings.name(), say.text())); // !<MessageEvent>
                        continue X;                                      // Recursive jump: #X
                    }
                    case Command.Invite invite -> {
                        Conversation conversation = invite.conversation();
                        s_cs.outbranch("PRIVATE_CONVERSATION");          // Make request and...
                        s_cs.send(new PrivateConversationEvent(userId, settings.name(), conversation.peer(),
                                conversation.ticket()));
                        switch (s_cs.inbranch()) {                       // ...get response.
                            case "ACCEPT" -> {
                                SJServerSocket port = privates.openPort();
                                s_cs.send(privates.serviceFor(port));    // !<cbegin.@(clientToClient)>  (ii)
                                privates.host(port, conversation);
                            }
                            case "REJECT" -> privates.refused(conversation);
                        }
                        continue X;
                    }
                    case Command.Quit quit -> {
                        s_cs.outbranch("QUIT");
                        s_cs.send(new UserQuitEvent(userId, "left the chat")); // No recurse (stream end).
                        break X;
                    }
                    case Command.ServerGone gone -> throw new SJIOException(gone.reason());
                }
            }                                                            // ] Recursion scope exit.
        }
    }

    /** The server-to-client event stream: @(eventInStream), requested with the passed service. */
    private void receiveEvents(@Session(protocol = EventInService.class) SJService c, int current) {
        String ending = "the server closed the event stream";
        try (SJSocket s_in = c.request()) {                              // Initiate in stream.
            X:
            while (true) {
                switch (s_in.inbranch()) {
                    case "JOIN" -> {
                        UserJoinEvent event = s_in.receive();
                        membership(event);
                        continue X;
                    }
                    case "MESSAGE" -> {
                        MessageEvent event = s_in.receive();
                        if (event != null) {
                            display.show(event.userId() == ChatRoom.SERVER_ID ? "! server: " + ChatText.message(event.text())
                                    : "<" + ChatText.name(event.userName()) + "> " + ChatText.message(event.text()));
                        }
                        continue X;
                    }
                    case "PRIVATE_CONVERSATION" -> {
                        PrivateConversationEvent invitation = s_in.receive();
                        if (privates.mayJoin(invitation)) {
                            s_in.outbranch("ACCEPT");
                            SJService peer = s_in.receive();             // ?(cbegin.@(clientToClient))  (ii)
                            privates.join(peer, invitation);
                        } else {
                            s_in.outbranch("REJECT");
                        }
                        continue X;
                    }
                    case "QUIT" -> {
                        UserQuitEvent quit = s_in.receive();
                        ending = ChatText.clean(quit == null ? "" : quit.reason(), 200);
                        break X;
                    }
                }
            }
        } catch (SJException e) {
            ending = e.getMessage();
        }
        if (!quitting) {
            commands.add(new Command.ServerGone(current, ending));
        }
    }

    /** The server refused this client, with the reason it gave (the room is full, say): shown, then tried again later. */
    private static final class Refused extends SJIOException {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason);
        }
    }

    /** The failure, without the session type the runtime adds for programmers. */
    private static String reason(SJException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int cut = message.indexOf(" while this side expected");
        return ChatText.clean(cut < 0 ? message : message.substring(0, cut), 200);
    }

    private void membership(UserJoinEvent event) {
        if (event == null) {
            return;
        }
        String name = ChatText.name(event.userName());
        String line;
        synchronized (state) {
            if (event.present()) {
                users.put(event.userId(), name);
            } else {
                users.remove(event.userId());
            }
            if (event.userId() == myId) {
                myName = name;
                List<String> others = others();
                line = "* joined the chat as " + name + (others.isEmpty() ? "; nobody else is here"
                        : "; also here: " + String.join(", ", others));
            } else if (myName == null) {
                return;                                                  // the user list before our own JOIN
            } else {
                line = "* " + name + (event.present() ? " joined" : " left");
            }
        }
        display.show(line);
    }

    private String userList() {
        synchronized (state) {
            if (!connected) {
                return "! not connected to the server";
            }
            if (myName == null) {
                return "! joining the chat, try again in a moment";
            }
            List<String> names = new ArrayList<>();
            names.add(myName + " (you)");
            names.addAll(others());
            return "* users: " + String.join(", ", names);
        }
    }

    private List<String> others() {
        return users.entrySet().stream().filter(e -> e.getKey() != myId).map(Map.Entry::getValue).toList();
    }

    /** This client's name in the chat once joined (the server may have changed the one asked for), else null. */
    public String name() {
        return myName;
    }
}
