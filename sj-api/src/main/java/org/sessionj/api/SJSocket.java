package org.sessionj.api;

import java.time.Duration;

/**
 * One end of a session. Every method is a session action and must follow the socket's protocol:
 * sj-processor checks that at compile time, and the runtime monitor checks it again at run time.
 *
 * <p>A socket is linear (implicitly {@link NoAlias}): it is never copied into another variable,
 * field, collection or lambda. Use it in a try-with-resources block; closing a session that has not
 * completed its type fails it on both sides.
 */
public interface SJSocket extends AutoCloseable {

    /** Sends a copy of {@code message} ({@code !<T>}); the caller may keep using its object. */
    void send(Object message);

    /** Sends an {@code int} ({@code !<int>}) without boxing. */
    void send(int message);

    /** Sends a {@code long} without boxing. */
    void send(long message);

    /** Sends a {@code double} without boxing. */
    void send(double message);

    /** Sends a {@code float} without boxing. */
    void send(float message);

    /** Sends a {@code boolean} without boxing. */
    void send(boolean message);

    /** Sends a {@code byte} without boxing. */
    void send(byte message);

    /** Sends a {@code short} without boxing. */
    void send(short message);

    /** Sends a {@code char} without boxing. */
    void send(char message);

    /**
     * Sends a {@link NoAlias} value ({@code !<T>}), transferring ownership: on a connection within
     * one JVM the reference itself is handed over (no copy); elsewhere it is serialized.
     */
    void pass(Object message);

    /** Receives the next message ({@code ?(T)}); its type is inferred from the assignment. */
    <T> T receive();

    /** Receives the next message, failing with {@link SJTimeoutException} after {@code timeout}. */
    <T> T receive(Duration timeout);

    /** Receives an {@code int}. */
    int receiveInt();

    /** Receives a {@code long}. */
    long receiveLong();

    /** Receives a {@code double}. */
    double receiveDouble();

    /** Receives a {@code float}. */
    float receiveFloat();

    /** Receives a {@code boolean}. */
    boolean receiveBoolean();

    /** Receives a {@code byte}. */
    byte receiveByte();

    /** Receives a {@code short}. */
    short receiveShort();

    /** Receives a {@code char}. */
    char receiveChar();

    /** Selects {@code label} of a {@code !{…}} choice (outbranch). */
    void outbranch(String label);

    /** Selects the label named by {@code label} (its {@link Enum#name()}). */
    void outbranch(Enum<?> label);

    /** Receives the label the peer selected in a {@code ?{…}} choice (inbranch). */
    String inbranch();

    /** Receives the selected label as a constant of {@code labels} (inbranch over an enum). */
    <E extends Enum<E>> E inbranch(Class<E> labels);

    /**
     * One test of a {@code ![S]*} loop, used only as a {@code while} condition: tells the peer
     * whether another iteration follows, and returns {@code condition}.
     */
    boolean outwhile(boolean condition);

    /** One test of a {@code ?[S]*} loop, used only as a {@code while} condition: the peer's decision. */
    boolean inwhile();

    /** Whether a message is ready, so the next input will not block. */
    boolean isInputReady();

    /** The protocol this socket follows, in canonical SJ notation, as of session start. */
    String protocol();

    /**
     * The address the peer's connection comes from, as this side's transport sees it (a peer behind a
     * proxy or NAT shows that hop's address), or {@code null} when the transport does not say: in-JVM and
     * {@code ipc} (the peer is on this host), and on {@code http} the client's end and both ends through a relay
     * (every peer there is the relay) — except the server's end through a relay that holds the server's listen
     * key, which names the address the relay vouches the requester came from (docs/http-transport.md);
     * {@code tcp} and {@code tls} name the peer on both ends, {@code http} direct on the server's end. Not an action: any time before the session moves away. A server uses it to
     * bound what one source may hold, such as the chat demo's sessions per address.
     */
    default java.net.InetAddress peerAddress() {
        return null;
    }

    /**
     * Ends the session. A session whose type is complete ends normally; one that is not is failed and
     * its peer gets an {@link SJIOException}. Idempotent.
     */
    @Override
    void close();
}
