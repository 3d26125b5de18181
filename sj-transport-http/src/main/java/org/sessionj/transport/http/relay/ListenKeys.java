package org.sessionj.transport.http.relay;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.sessionj.transport.http.internal.Exchange;
import org.sessionj.transport.http.internal.ListenProof;
import org.sessionj.transport.http.internal.Wire;

/**
 * The relay's listen keys ({@code ./sj relay --listen-key FILE}): a relay that has them registers only
 * servers that prove one of them ({@link ListenProof}) over a nonce it issued, so that a stranger who
 * reaches the relay can neither take a server's name nor keep the server out (hostile18 H3).
 *
 * <p>A nonce carries the time it was issued and a MAC under a secret of this relay process, so the
 * relay keeps no state for the nonces it hands out (anyone may ask for one); it is good for
 * {@link #NONCE_MILLIS} and once: the nonces of accepted proofs are remembered until they expire, so a
 * registration seen on the way and sent again is refused. The file is read again when it changes
 * (looked at on each registration that carries a proof), so keys are rotated without a restart: add the
 * new key, move the servers to it, remove the old one.
 */
public final class ListenKeys {
    private static final System.Logger LOG = System.getLogger(ListenKeys.class.getName());
    /** How long a nonce is good for: a server answers its challenge at once, this is for a loaded machine. */
    public static final long NONCE_MILLIS = 60_000;
    /** The most nonces remembered as used (accepted registrations in the last {@link #NONCE_MILLIS}). */
    static final int MAX_USED = 65_536;
    private static final int NONCE_BYTES = 8 + 8 + 16;

    private final Path file;
    private final LongSupplier millis;
    private final byte[] secret = new byte[32];
    /** Guarded by this: the keys, the file's state when read, the used nonces and their expiry. */
    private List<byte[]> keys;
    private FileTime modified;
    private long size;
    private final Map<String, Long> used = new HashMap<>();
    private final AtomicLong refused = new AtomicLong();

    private ListenKeys(Path file, List<byte[]> keys, LongSupplier millis) throws IOException {
        this.file = file;
        this.keys = keys;
        this.millis = millis;
        this.modified = Files.getLastModifiedTime(file);
        this.size = Files.size(file);
        new SecureRandom().nextBytes(secret);
    }

    /**
     * The keys in {@code file} (one per line, at least 16 characters; blank lines and {@code #} comments
     * skipped).
     *
     * @throws IOException if the file cannot be read or holds no valid key
     */
    public static ListenKeys fromFile(Path file) throws IOException {
        return fromFile(file, () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
    }

    /** As {@link #fromFile(Path)}, with the clock nonces are issued and checked by (tests drive it). */
    public static ListenKeys fromFile(Path file, LongSupplier millis) throws IOException {
        return new ListenKeys(file, ListenProof.readKeys(file), millis);
    }

    /** Registrations refused so far because their proof failed (see {@link HttpRelay#refusedRegistrations}). */
    long refused() {
        return refused.get();
    }

    /**
     * The key the registration {@code exchange} (server {@code id}, session port {@code port}, its
     * {@code name} parameters) proves, or null when it carries no valid proof: then it has been answered 401
     * with a fresh nonce (and, for a proof that failed, why, counted and logged). The relay vouches for its
     * requesters' addresses to that server under the key it proved ({@link ListenProof#from}).
     */
    byte[] admits(Exchange exchange, String id, long port) {
        String nonce = Wire.param(exchange.query(), "nonce");
        String proof = Wire.param(exchange.query(), "proof");
        List<String> names = exchange.query().parameters().getOrDefault("name", List.of());
        String why = null;
        if (nonce != null && proof != null) {
            Verdict verdict = verify(nonce, proof, id, port, names);
            if (verdict.key() != null) {
                return verdict.key();
            }
            why = verdict.why();
            long count = refused.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                String shown = String.valueOf(names);
                LOG.log(System.Logger.Level.WARNING, "relay: refused a registration from {0} of {1}: {2} ({3} refused so"
                        + " far; logged the first time and at each power of two)", exchange.source(),
                        shown.length() > 100 ? shown.substring(0, 100) + "..." : shown, why, count);
            }
        }
        FullHttpResponse challenge = Wire.text(exchange.version(), HttpResponseStatus.UNAUTHORIZED,
                "this relay registers only servers that prove its listen key (sessionj.http.relayKeyFile on the server,"
                        + " ./sj relay --listen-key)" + (why == null ? "" : ": " + why));
        challenge.headers().set(Wire.NONCE, nonce());
        exchange.respond(challenge);
        return null;
    }

    /** The file the keys are read from. */
    public Path file() {
        return file;
    }

    /** A fresh nonce (64 hex digits) for a server to prove a key with. */
    public String nonce() {
        ByteBuffer nonce = ByteBuffer.allocate(NONCE_BYTES);
        nonce.putLong(millis.getAsLong());
        // The salt only keeps two nonces of one millisecond apart; what makes a nonce the relay's is the MAC under
        // the secret, so it need not be unpredictable (and a SecureRandom may read /dev/urandom: a system call for
        // every registration anyone sends).
        nonce.putLong(ThreadLocalRandom.current().nextLong());
        nonce.put(ListenProof.mac(secret, java.util.Arrays.copyOf(nonce.array(), 16)), 0, 16);
        return HexFormat.of().formatHex(nonce.array());
    }

    /**
     * Checks a registration's proof.
     *
     * @return null when {@code proof} proves one of the keys over {@code nonce} for this registration and
     *         the nonce is this relay's, fresh and unused (it is used now); otherwise why not, for the
     *         answer
     */
    public String check(String nonce, String proof, String id, long port, List<String> names) {
        return verify(nonce, proof, id, port, names).why();
    }

    /** What {@link #verify} found: the key proven (and {@code why} null), or why not (and {@code key} null). */
    private record Verdict(String why, byte[] key) {
        static Verdict refused(String why) {
            return new Verdict(why, null);
        }
    }

    /** {@link #check}, and the key the proof proves. */
    private Verdict verify(String nonce, String proof, String id, long port, List<String> names) {
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(nonce);
        } catch (IllegalArgumentException e) {
            bytes = null;
        }
        if (bytes == null || bytes.length != NONCE_BYTES || !MessageDigest.isEqual(
                java.util.Arrays.copyOf(ListenProof.mac(secret, java.util.Arrays.copyOf(bytes, 16)), 16),
                java.util.Arrays.copyOfRange(bytes, 16, NONCE_BYTES))) {
            return Verdict.refused("the nonce is not one this relay issued (it restarted?); register again");
        }
        long now = millis.getAsLong();
        long issued = ByteBuffer.wrap(bytes).getLong();
        if (now - issued > NONCE_MILLIS || issued > now) {
            return Verdict.refused("the nonce is older than " + NONCE_MILLIS / 1000 + " s; register again");
        }
        synchronized (this) {
            reloadIfChanged();
            byte[] proven = null;
            for (byte[] key : keys) {
                if (ListenProof.matches(key, proof, nonce, id, port, names)) {
                    proven = key;
                }
            }
            if (proven == null) {
                return Verdict.refused("the proof matches no listen key of this relay (sessionj.http.relayKeyFile on"
                        + " the server must name a file with a key of the relay's --listen-key file)");
            }
            for (Iterator<Long> it = used.values().iterator(); it.hasNext();) {
                if (it.next() < now) {
                    it.remove();
                }
            }
            if (used.containsKey(nonce)) {
                return Verdict.refused("the nonce was used already: a registration is proven once (a replay?)");
            }
            if (used.size() >= MAX_USED) {
                return Verdict.refused("the relay accepted " + MAX_USED + " registrations in the last "
                        + NONCE_MILLIS / 1000 + " s; retry later");
            }
            used.put(nonce, issued + NONCE_MILLIS);
            return new Verdict(null, proven);
        }
    }

    /**
     * Reads the file again when its time or size changed; a file that became unreadable or lost its keys
     * keeps the old keys (a relay with none would refuse every server).
     */
    private void reloadIfChanged() {
        FileTime time;
        long length;
        try {
            time = Files.getLastModifiedTime(file);
            length = Files.size(file);
        } catch (IOException e) {
            return; // gone for now (a rename in progress): the keys read before serve
        }
        if (time.equals(modified) && length == size) {
            return;
        }
        modified = time;
        size = length;
        try {
            keys = ListenProof.readKeys(file);
            LOG.log(System.Logger.Level.INFO, "relay: read {0} listen key(s) again from {1}", keys.size(), file);
        } catch (IOException e) {
            // Once per change of the file, not per registration.
            LOG.log(System.Logger.Level.WARNING, "relay: cannot read the listen keys again ({0}); keeping the {1} read"
                    + " before until the file changes again", e.getMessage(), keys.size());
        }
    }
}
