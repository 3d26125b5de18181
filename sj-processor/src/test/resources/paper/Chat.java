import org.sessionj.api.*;

import java.util.Scanner;

/*
 * Paper 000, section 4.1 and Figure 9: Chat.  Printed in the paper: the protocols of Fig. 9, the
 * service-passing lines of the Server (SJService.create(p_cs, serv, port); s_sc.send(c)), the
 * Client's receive of the service and request, and the Client's event-out-stream recursion.
 * Everything else (the rest of the Server, the Client's in-stream) is reconstructed around them.
 */

record UserJoinEvent(int userId, String userName) {}
record MessageEvent(int userId, String text) {}
record PrivateConversationEvent(int fromUserId, int toUserId) {}
record UserQuitEvent(int userId) {}

@Protocol("cbegin.!<String>.?(int).?(cbegin.@(EventInStream)).@(EventOutStream)")
interface ClientToServer {}

@Protocol("^(ClientToServer)")
interface ServerToClient {}

@Protocol("rec X[!{JOIN: !<UserJoinEvent>.#X, MESSAGE: !<MessageEvent>.#X, PRIVATE_CONVERSATION: !<PrivateConversationEvent>.?{ACCEPT: !<cbegin.@(ClientToClient)>, REJECT: }.#X, QUIT: !<UserQuitEvent>}]")
interface EventOutStream {}

@Protocol("^(EventOutStream)")
interface EventInStream {}

/** Not printed in the paper: "a simpler version of the first that excludes the JOIN and PRIVATE_CONVERSATION branch cases". */
@Protocol("rec X[!{MESSAGE: !<MessageEvent>.#X, QUIT: !<UserQuitEvent>}]")
interface ClientToClient {}

/** p_cs: the type of the SJService passed at (i). */
@Protocol("cbegin.@(EventInStream)")
interface P_cs {}

/** The Server's dynamic server socket for (i): "sbegin.@(eventOutStream), i.e. the dual session type to the type of c". */
@Protocol("sbegin.@(EventOutStream)")
interface P_ss {}

/** The type of the SJService passed at (ii). */
@Protocol("cbegin.@(ClientToClient)")
interface P_cc {}

public class Chat {

    // ------------------------------------------------------------------ Client

    static void client(String serverHost, int serverPort, String userName, String myHost, int p2pPort)
            throws SJIOException {
        SJService c_cs = SJService.create(ClientToServer.class, serverHost, serverPort);
        try (SJSocket s_cs = c_cs.request()) {                     // cbegin
            s_cs.send(userName);                                   // !<String>  Send user name.
            int userId = s_cs.receiveInt();                        // ?(int)     Receive user ID.
            SJService c = s_cs.receive();                          // ?(cbegin.@(eventInStream))  (i)
            Thread.ofVirtual().start(() -> {                       // the in stream runs concurrently
                try (SJSocket s_in = c.request()) {                // Initiate in stream.
                    receiveEvents(s_in);
                } catch (SJIOException e) {
                    System.err.println("[Client] in stream: " + e);
                }
            });

            Scanner input = new Scanner(System.in);
            // Start event out stream: @(eventOutStream)
            X:
            while (true) {                                         // s_cs.recursion(X) { // rec X[
                String line = input.nextLine();
                if (line.equals("/join")) {
                    s_cs.outbranch("JOIN");                        // !{ JOIN: ..
                    s_cs.send(new UserJoinEvent(userId, userName));// !<UserJoinEvent>
                    continue X;                                    // #X
                } else if (line.startsWith("/private ")) {         // Make request and...
                    s_cs.outbranch("PRIVATE_CONVERSATION");
                    s_cs.send(new PrivateConversationEvent(userId, Integer.parseInt(line.substring(9).trim())));
                    switch (s_cs.inbranch()) {                     // ...get response.
                        case "ACCEPT" -> {
                            // The private conversation is served by this Client (server socket not shown).
                            SJService p2p = SJService.create(P_cc.class, myHost, p2pPort);
                            s_cs.send(p2p);                        // !<cbegin.@(clientToClient)>  (ii)
                        }
                        case "REJECT" -> { }
                    }
                    continue X;                                    // #X
                } else if (line.equals("/quit")) {
                    s_cs.outbranch("QUIT");
                    s_cs.send(new UserQuitEvent(userId));          // !<UserQuitEvent>
                    break X;                                       // No recurse (stream end).
                } else {                                           // Sending a message.
                    s_cs.outbranch("MESSAGE");                     // !{ MESSAGE: ..
                    s_cs.send(new MessageEvent(userId, line));     // !<MessageEvent>
                    continue X;                                    // Recursive jump: #X
                }
            }                                                      // ] Recursion scope exit.
        }
    }

    /** Server-to-Client event stream, Client side: @(eventInStream). */
    static void receiveEvents(@Session("@(EventInStream)") SJSocket s_in) throws SJIOException {
        X:
        while (true) {
            switch (s_in.inbranch()) {
                case "JOIN" -> {
                    UserJoinEvent e = s_in.receive();
                    System.out.println(e.userName() + " joined");
                    continue X;
                }
                case "MESSAGE" -> {
                    MessageEvent e = s_in.receive();
                    System.out.println(e.userId() + ": " + e.text());
                    continue X;
                }
                case "PRIVATE_CONVERSATION" -> {
                    PrivateConversationEvent e = s_in.receive();
                    if (e.fromUserId() != e.toUserId()) {
                        s_in.outbranch("ACCEPT");
                        SJService peer = s_in.receive();           // ?(cbegin.@(clientToClient))
                        System.out.println("private conversation offered: " + peer);
                    } else {
                        s_in.outbranch("REJECT");
                    }
                    continue X;
                }
                case "QUIT" -> {
                    UserQuitEvent e = s_in.receive();
                    System.out.println(e.userId() + " quit");
                    break X;
                }
            }
        }
    }

    // ------------------------------------------------------------------ Server (reconstructed)

    static void server(String serv, int port, int eventPort) throws SJIOException {
        try (SJServerSocket ss = SJServerSocket.create(ServerToClient.class, port)) {
            int nextUserId = 1;
            while (true) {
                try (SJSocket s_sc = ss.accept()) {                        // sbegin
                    String userName = s_sc.receive();                      // ?(String)
                    final int userId = nextUserId++;
                    s_sc.send(userId);                                     // !<int>

                    // (i): open a fresh port, create the SJService for it and bind the server socket
                    // (the paper binds after the send; here before, so that the Client's request cannot
                    // arrive before the port is open).
                    SJService c = SJService.create(P_cs.class, serv, eventPort);
                    SJServerSocket ss_out = SJServerSocket.create(P_ss.class, eventPort);
                    Thread.ofVirtual().start(() -> {
                        try (ss_out; SJSocket s_out = ss_out.accept()) {   // accept, then close the port
                            sendEvents(s_out, userId, userName);
                        } catch (SJIOException e) {
                            System.err.println("[Server] out stream: " + e);
                        }
                    });
                    s_sc.send(c);                                          // !<cbegin.@(eventInStream)>

                    // Client-to-Server event stream, Server side: ^(eventOutStream)
                    X:
                    while (true) {
                        switch (s_sc.inbranch()) {
                            case "JOIN" -> {
                                UserJoinEvent e = s_sc.receive();
                                System.out.println(e.userName() + " joined");
                                continue X;
                            }
                            case "MESSAGE" -> {
                                MessageEvent e = s_sc.receive();
                                System.out.println(e.userId() + ": " + e.text());
                                continue X;
                            }
                            case "PRIVATE_CONVERSATION" -> {
                                PrivateConversationEvent e = s_sc.receive();
                                if (e.toUserId() > 0) {
                                    s_sc.outbranch("ACCEPT");
                                    SJService p2p = s_sc.receive();        // ?(cbegin.@(clientToClient))
                                    System.out.println("forwarding " + p2p + " to " + e.toUserId());
                                } else {
                                    s_sc.outbranch("REJECT");
                                }
                                continue X;
                            }
                            case "QUIT" -> {
                                UserQuitEvent e = s_sc.receive();
                                System.out.println(e.userId() + " quit");
                                break X;
                            }
                        }
                    }
                }
            }
        }
    }

    /** Server-to-Client event stream, Server side: @(eventOutStream) (a JOIN notice, then the stream ends). */
    static void sendEvents(@Session("@(EventOutStream)") SJSocket s_out, int userId, String userName)
            throws SJIOException {
        boolean announced = false;
        X:
        while (true) {
            if (!announced) {
                announced = true;
                s_out.outbranch("JOIN");
                s_out.send(new UserJoinEvent(userId, userName));
                continue X;
            } else {
                s_out.outbranch("QUIT");
                s_out.send(new UserQuitEvent(userId));
                break X;
            }
        }
    }
}
