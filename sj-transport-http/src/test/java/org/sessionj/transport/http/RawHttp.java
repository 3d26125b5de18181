package org.sessionj.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A hand-written HTTP/1.1 client for the servers' abuse tests: sends exactly the bytes it is given. */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** A response: status code (-1 when the connection closed first), headers, body. */
    public record Response(int status, Map<String, String> headers, String body) {
    }

    public RawHttp(int port, int timeoutMillis) throws IOException {
        this(new Socket("localhost", port), timeoutMillis);
    }

    /** A client whose connection to 127.0.0.1:{@code port} comes from {@code local} (such as 127.0.0.2: Linux routes all of 127/8 to lo). */
    public RawHttp(java.net.InetAddress local, int port, int timeoutMillis) throws IOException {
        this(new Socket(java.net.InetAddress.getLoopbackAddress(), port, local, 0), timeoutMillis);
    }

    private RawHttp(Socket connected, int timeoutMillis) throws IOException {
        socket = connected;
        socket.setSoTimeout(timeoutMillis);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    public RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** A request with a body (Content-Length set). */
    public Response exchange(String method, String uri, byte[] body) throws IOException {
        String head = method + " " + uri + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + body.length + "\r\n\r\n";
        send(head);
        send(body);
        return read();
    }

    public Response exchange(String method, String uri) throws IOException {
        return exchange(method, uri, new byte[0]);
    }

    /** Sets the socket's read timeout (for {@link #closedByServer}). */
    public void socketTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Reads one response; status -1 if the server closed the connection before one. */
    public Response read() throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            return new Response(-1, Map.of(), "");
        }
        Map<String, String> headers = new TreeMap<>();
        String header;
        while ((header = line()) != null && !header.isEmpty()) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    /** Whether the server closed the connection (EOF) before {@code timeout} of the socket. */
    public boolean closedByServer() throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
