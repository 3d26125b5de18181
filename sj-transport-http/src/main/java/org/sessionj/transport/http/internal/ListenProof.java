package org.sessionj.transport.http.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The proof that a server registering at a relay holds the relay's listen key (docs/http-transport.md,
 * "Who may register a name at the relay"): an HMAC-SHA256, under the key, of a nonce the relay issued
 * and of everything the registration asks for (the server's id, its session port, its names in order).
 * Both sides compute it here, so they cannot drift apart. A nonce is single use and short-lived at the
 * relay, so a proof seen on the way cannot be replayed; the names and port are in it, so it cannot be
 * moved to a registration of other names.
 */
public final class ListenProof {
    /** The shortest key accepted, in characters: shorter ones are guessable. */
    public static final int MIN_KEY_CHARS = 16;
    private static final String ALGORITHM = "HmacSHA256";
    /** Keeps a proof for a listen request from being a valid MAC of anything else under the same key. */
    private static final String CONTEXT = "sessionj relay listen v1";

    private ListenProof() {
    }

    /**
     * The proof, 64 hex digits, of a registration of session port {@code port} under {@code names} by
     * the server with id {@code id}, answering {@code nonce}, under {@code key}.
     */
    public static String proof(byte[] key, String nonce, String id, long port, List<String> names) {
        StringBuilder text = new StringBuilder(CONTEXT).append('\n').append(nonce).append('\n').append(id)
                .append('\n').append(port);
        for (String name : names) {
            text.append('\n').append(name);
        }
        return HexFormat.of().formatHex(mac(key, text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code proof} is the proof of that registration under {@code key} (in constant time). */
    public static boolean matches(byte[] key, String proof, String nonce, String id, long port, List<String> names) {
        return MessageDigest.isEqual(proof(key, nonce, id, port, names).getBytes(StandardCharsets.US_ASCII),
                proof.getBytes(StandardCharsets.US_ASCII));
    }

    /** Keeps the relay's word for a requester's address from being a valid MAC of anything else under the key. */
    private static final String FROM_CONTEXT = "sessionj relay from v1";

    /**
     * The relay's word, 64 hex digits, that the relayed connection {@code token} came from {@code address}
     * (the text of the listen answer's {@code from} line), under the key the server registered with: the
     * server trusts the address only from a relay that holds its key (docs/http-transport.md, "The
     * requester's address through a relay"). The token is in it, so it cannot be moved to another connection.
     */
    public static String from(byte[] key, String token, String address) {
        return HexFormat.of().formatHex(mac(key, (FROM_CONTEXT + '\n' + token + '\n' + address)
                .getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code word} is {@link #from} of {@code token} and {@code address} under {@code key} (in constant time). */
    public static boolean vouches(byte[] key, String word, String token, String address) {
        return MessageDigest.isEqual(from(key, token, address).getBytes(StandardCharsets.US_ASCII),
                word.getBytes(StandardCharsets.US_ASCII));
    }

    /** HMAC-SHA256 of {@code data} under {@code key}. */
    public static byte[] mac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no " + ALGORITHM, e);
        }
    }

    /**
     * The keys in {@code file}: every line that is not blank and does not start with {@code #}, without
     * the spaces around it, each at least {@link #MIN_KEY_CHARS} characters.
     *
     * @throws IOException if the file cannot be read, holds no key, or a key is too short (the message
     *         names the file and the line, never the key)
     */
    public static List<byte[]> readKeys(Path file) throws IOException {
        List<byte[]> keys = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.length() < MIN_KEY_CHARS) {
                throw new IOException("the key on line " + (i + 1) + " of " + file + " has " + line.length()
                        + " characters; a listen key needs at least " + MIN_KEY_CHARS + " (make one with"
                        + " `openssl rand -hex 32`)");
            }
            keys.add(line.getBytes(StandardCharsets.UTF_8));
        }
        if (keys.isEmpty()) {
            throw new IOException(file + " holds no key (one per line; blank lines and lines starting with # are"
                    + " skipped)");
        }
        return keys;
    }
}
