package org.sessionj.transport.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;
import org.sessionj.runtime.internal.transport.Negotiation;
import org.sessionj.runtime.spi.support.ByteBufFrame;

/**
 * hostile H7 (adv16): three lies a peer told that the runtime took silently, each now refused with what
 * was expected and found, over tcp with the finding's raw bytes — text that is not UTF-8 (it became
 * U+FFFD and the session went on), a key twice in one Smile object (the last won: a proxy reading the
 * first saw another value than the program), and bytes after the REQUEST in the requester's first frame
 * (dropped without a word). A legitimate HELLO·REQUEST frame is still accepted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WireLiesTest {
    @Protocol("cbegin.!<String>.?(int)")
    public interface TextClient {
    }

    @Protocol("^(TextClient)")
    public interface TextServer {
    }

    @Protocol("cbegin.!<java.util.Map<String, Integer>>.?(int)")
    public interface CountsClient {
    }

    @Protocol("^(CountsClient)")
    public interface CountsServer {
    }

    private final List<Socket> raw = new ArrayList<>();

    @AfterEach
    void closeRawSockets() throws IOException {
        for (Socket s : raw) {
            s.close();
        }
    }

    private static SJRuntime runtime() {
        return SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").initiationTimeout(Duration.ofSeconds(10))
                .build());
    }

    private Socket connect(int port) throws IOException {
        Socket s = new Socket();
        raw.add(s);
        s.connect(new InetSocketAddress("localhost", port), 5_000);
        s.setSoTimeout(20_000);
        return s;
    }

    /** HELLO (session over tcp, the request follows) · REQUEST of {@code type} · {@code after}, as one frame. */
    private static byte[] helloAndRequest(String type, byte[] after) {
        ByteBuf frame = Unpooled.buffer();
        Negotiation.writeHello(new ByteBufFrame(frame), new Negotiation.Hello(Negotiation.R2_UNNECESSARY,
                UUID.randomUUID(), "", List.of("tcp")));
        byte[] text = type.getBytes(StandardCharsets.UTF_8);
        frame.writeByte(0x40).writeByte('S').writeByte('J').writeByte(2).writeInt(text.length).writeBytes(text);
        frame.writeBytes(after);
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        return bytes;
    }

    private static void writeFrame(Socket s, byte[] body) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(new byte[] {(byte) (body.length >>> 24), (byte) (body.length >>> 16), (byte) (body.length >>> 8),
            (byte) body.length});
        out.write(body);
        out.flush();
    }

    private static byte[] answer(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        return in.readNBytes(in.readInt());
    }

    /** A raw requester of {@code type} whose handshake was accepted (the verdict's last byte is ACCEPT). */
    private Socket accepted(int port, String type) throws IOException {
        Socket s = connect(port);
        writeFrame(s, helloAndRequest(type, new byte[0]));
        byte[] verdict = answer(s);
        assertThat(verdict[verdict.length - 1]).as("ACCEPT").isEqualTo((byte) 0x41);
        return s;
    }

    @Test
    void textThatIsNotUtf8IsRefusedNamingTheByte() throws Exception {
        try (SJServerSocket server = runtime().serverSocket(TextServer.class, 0)) {
            Socket peer = accepted(server.port(), "cbegin.!<java.lang.String>.?(int)");
            writeFrame(peer, new byte[] {0x10, 0, 0, 0, 4, (byte) 0xFF, (byte) 0xFE, (byte) 0xC0, (byte) 0x80});
            try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("text that is not UTF-8: byte 0 of 4 (0xFF) starts no UTF-8 character");
            }
        }
    }

    @Test
    void aKeyTwiceInOneObjectIsRefused() throws Exception {
        ByteArrayOutputStream smile = new ByteArrayOutputStream();
        try (JsonGenerator out = new SmileFactory().createGenerator(smile)) {
            out.writeStartObject();
            out.writeNumberField("k", 1);
            out.writeNumberField("k", 2); // the finding: {"k":1,"k":2}, read as k = 2
            out.writeEndObject();
        }
        byte[] value = smile.toByteArray();
        ByteBuf item = Unpooled.buffer().writeByte(0x20).writeInt(value.length).writeBytes(value);
        try (SJServerSocket server = runtime().serverSocket(CountsServer.class, 0)) {
            Socket peer = accepted(server.port(), "cbegin.!<java.util.Map<java.lang.String,java.lang.Integer>>.?(int)");
            writeFrame(peer, java.util.Arrays.copyOf(item.array(), item.writerIndex()));
            try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("Duplicate field 'k'");
            }
        }
    }

    @Test
    void bytesAfterTheRequestInItsFrameAreRefused() throws Exception {
        byte[][] afters = {"JUNK".getBytes(StandardCharsets.US_ASCII), {0x10, 0, 0, 0, 1, 'x'}}; // junk; a whole item
        try (SJServerSocket server = runtime().serverSocket(TextServer.class, 0)) {
            for (byte[] after : afters) {
                Socket peer = connect(server.port());
                writeFrame(peer, helloAndRequest("cbegin.!<java.lang.String>.?(int)", after));
                String verdict = new String(answer(peer), StandardCharsets.ISO_8859_1);
                assertThat(verdict).as("REJECT, refused, with the reason")
                        .contains("\u0042\u0002")
                        .contains(after.length + " bytes after the session request in its frame, where nothing may "
                                + "follow the requester's type");
                assertThat(peer.getInputStream().read()).as("closed after the REJECT").isEqualTo(-1);
            }
            // The legitimate first frame — HELLO and REQUEST pipelined, nothing after — is still accepted.
            Socket peer = accepted(server.port(), "cbegin.!<java.lang.String>.?(int)");
            writeFrame(peer, new byte[] {0x10, 0, 0, 0, 2, 'o', 'k'});
            try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                assertThat(s.<String>receive()).isEqualTo("ok");
            }
        }
    }
}
