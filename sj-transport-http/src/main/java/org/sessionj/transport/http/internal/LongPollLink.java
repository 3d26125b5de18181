package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The long-polling link: plain HTTP/1.1 requests and responses that any proxy passes. Uploads are
 * POSTs of at most a segment ({@code .../up?offset=N}), one at a time on one kept-alive connection;
 * downloads are GETs held by the server until there is something or the poll interval passed
 * ({@code .../down?ack=N}), one at a time on a second connection. Each request says where in the
 * stream it stands, so a request that failed on the way (a proxy timeout, a dropped connection) is
 * repeated without losing or duplicating a byte; a peer unreachable for the vanish time breaks the
 * connection.
 *
 * <p>With a wire-2 server ({@link Wire#VERSION}) and {@code sessionj.http.uploadAnswers}, the two
 * connections are interchangeable and an upload may also be the poll: when no poll is out, the upload
 * carries {@code ack=N} and the server holds it until there are bytes for this side, answering them in
 * its response. After an answer that carried bytes the link does not poll at once: the session thread
 * will either write (its upload is the next poll) or wait for input ({@link #readerWaiting}, which polls
 * then). A request-response exchange then costs one HTTP request and one response instead of an upload,
 * its answer, a poll's answer and the next poll. A poll that is held while the link has more to upload
 * releases the held upload (the server answers it when the poll arrives), so a stream of uploads is never
 * stuck behind one held for bytes that do not come; and a timer polls anyway after a second without one,
 * so that the server never takes this side for vanished.
 */
final class LongPollLink implements TunnelConnection.Link {
    private static final long EXTRA_WAIT_MILLIS = 15_000;
    /** A deferred link polls after this long anyway (a reader busy elsewhere; the server's vanish time). */
    private static final long DEFER_MILLIS = 1_000;

    private final TunnelConnection connection;
    private final HttpClientChannel upChannel;
    private final HttpClientChannel downChannel;
    private final String upPath;
    private final String downPath;
    private final HttpSettings settings;
    private final boolean answers;
    private final CompletableFuture<Void> upDone = new CompletableFuture<>();
    private final Backoff upBackoff;
    private final Backoff downBackoff;
    // state on the loop both channels share
    private long acked;
    private boolean uploading;
    private boolean upWaiting;
    private boolean upBusy;
    private boolean downBusy;
    private long received;
    private boolean polling;
    private boolean deferTimer;
    /** The upload in flight carries ack=N: it is also the poll. Read by the session thread (flushed). */
    private volatile boolean uploadHeld;
    /** The stream offset after the held upload's bytes: bytes written beyond it need the upload released. */
    private volatile long heldEnd;
    /** Nothing is out to the server: the next write or wait for input polls. */
    private volatile boolean deferred;
    private volatile boolean paused;
    private volatile boolean stopped;
    private boolean finReceived;
    private final AtomicBoolean wakeQueued = new AtomicBoolean();
    private final AtomicBoolean writerWakeQueued = new AtomicBoolean();
    /** Runs the next upload on the loop once the session thread wrote (one object, not one per wait). */
    private final java.util.function.Consumer<Boolean> dataWaiter;
    private final Runnable wakeFromDeferral = this::wakeFromDeferral;
    /** {@link #uploadWoken()}, made once: a method reference made per wake was an allocation per message. */
    private final Runnable uploadWoken = this::uploadWoken;
    /** For tests: run once on the loop between reading the next held upload's chunk and marking it held. */
    private volatile Runnable afterHeldChunk;

    LongPollLink(TunnelConnection connection, HttpClientChannel upChannel, HttpClientChannel downChannel, String token,
            HttpSettings settings, boolean answers) {
        if (upChannel.loop() != downChannel.loop()) {
            throw new IllegalArgumentException("a long-polling link's channels share one event loop");
        }
        this.connection = connection;
        this.upChannel = upChannel;
        this.dataWaiter = ready -> upChannel.loop().execute(uploadWoken);
        this.downChannel = downChannel;
        this.upPath = Wire.sessionPath(token, "up");
        this.downPath = Wire.sessionPath(token, "down");
        this.settings = settings;
        this.answers = answers;
        this.upBackoff = new Backoff(settings.vanishMillis());
        this.downBackoff = new Backoff(settings.vanishMillis());
        // Deferred from the start: a reader that waits before start() has run on the loop asks for a poll
        // (readerWaiting) instead of waiting for the deferral timer (a second per relayed session set-up).
        this.deferred = answers;
    }

    @Override
    public String mode() {
        return "long-poll";
    }

    /** Whether uploads are answered with the bytes for this side (wire 2), for logs and tests. */
    boolean uploadAnswers() {
        return answers;
    }

    /**
     * For tests: runs {@code hook} once, on the loop, between reading the chunk of the next upload that is
     * also the poll and marking it held (a writer appending then is the race {@link #upload()} closes).
     */
    void afterHeldChunk(Runnable hook) {
        this.afterHeldChunk = hook;
    }

    @Override
    public void start() {
        loop().execute(() -> {
            upload();
            if (answers) {
                if (!uploading) {
                    defer(); // the first read or write polls
                }
            } else {
                poll();
            }
        });
    }

    private io.netty.channel.EventLoop loop() {
        return upChannel.loop();
    }

    @Override
    public void upReady() {
        loop().execute(() -> {
            releaseHeldUpload();
            upload();
        });
    }

    /** The session thread flushed: bytes beyond a held upload must not wait for that upload's answer. */
    @Override
    public void flushed() {
        if (uploadHeld && connection.out.written() > heldEnd) {
            loop().execute(this::releaseHeldUpload);
        }
    }

    /**
     * The session thread found nothing to read (or waits for readiness): if nothing is out to the server,
     * poll. One task at a time, and nothing at all while a request is out.
     */
    @Override
    public void readerWaiting() {
        if (deferred && !connection.inbound.isReadable() && wakeQueued.compareAndSet(false, true)) {
            loop().execute(wakeFromDeferral);
        }
    }

    /** The session thread waits for room to write: the peer may wait for us to take its bytes. */
    @Override
    public void writerWaiting() {
        if (answers && writerWakeQueued.compareAndSet(false, true)) {
            loop().execute(() -> {
                writerWakeQueued.set(false);
                if (!polling && !paused) {
                    poll();
                }
            });
        }
    }

    private void wakeFromDeferral() {
        wakeQueued.set(false);
        if (!deferred || stopped) {
            return;
        }
        upload(); // bytes to send: the upload is the poll
        if (deferred) {
            poll();
        }
    }

    /**
     * Called after every read of the session thread: hands work to the poll loop only when polling is
     * paused, so that reading a frame does not wake that loop each time (a hand-off per message).
     */
    @Override
    public void downResume() {
        if (!paused) {
            return;
        }
        loop().execute(() -> {
            if (paused && !connection.readerBehind()) {
                paused = false;
                if (!polling && !uploadHeld) {
                    poll();
                }
            }
        });
    }

    @Override
    public CompletableFuture<Void> upDone() {
        return upDone;
    }

    @Override
    public void close() {
        stopped = true;
        upChannel.close();
        downChannel.close();
        loop().execute(connection.assembler::release);
    }

    /** A free channel, preferring {@code preferred} (with one upload and one poll out at most, one is free). */
    private HttpClientChannel take(HttpClientChannel preferred) {
        HttpClientChannel other = preferred == upChannel ? downChannel : upChannel;
        HttpClientChannel chosen = !busy(preferred) ? preferred : other;
        setBusy(chosen, true);
        return chosen;
    }

    private boolean busy(HttpClientChannel channel) {
        return channel == upChannel ? upBusy : downBusy;
    }

    private void setBusy(HttpClientChannel channel, boolean busy) {
        if (channel == upChannel) {
            upBusy = busy;
        } else {
            downBusy = busy;
        }
    }

    // ---- uploads -----------------------------------------------------------------------------

    private void upload() {
        if (uploading || stopped || upDone.isDone()) {
            return;
        }
        ByteStream.Chunk chunk = connection.out.read(acked, settings.segmentBytes());
        if (chunk == null) {
            if (!upWaiting) {
                upWaiting = true;
                if (!connection.out.awaitData(dataWaiter)) {
                    upWaiting = false;
                    loop().execute(this::upload);
                }
            }
            return;
        }
        if (chunk.failure() != null) {
            upDone.completeExceptionally(new IOException(chunk.failure()));
            return;
        }
        uploading = true;
        ByteBuf body = chunk.bytes();
        int length = body.readableBytes();
        // The upload is the poll when none is out (and the reader has room): it is answered with our bytes.
        boolean held = answers && !polling && !chunk.fin() && !paused && !connection.readerBehind();
        String uri = upPath + "?offset=" + chunk.offset() + (chunk.fin() ? "&fin=1&close=1" : "")
                + (held ? "&ack=" + received : "");
        Runnable hook = afterHeldChunk;
        if (held && hook != null) {
            afterHeldChunk = null;
            hook.run();
        }
        if (held) {
            heldEnd = chunk.offset() + length;
            uploadHeld = true;
            deferred = false;
        }
        HttpClientChannel channel = take(upChannel);
        channel.send(channel.request(HttpMethod.POST, uri, body), settings.pollMillis() + EXTRA_WAIT_MILLIS)
                .whenComplete((response, failure) -> {
                    uploading = false;
                    setBusy(channel, false);
                    if (held) {
                        uploadHeld = false;
                    }
                    if (failure != null) {
                        retryUpload(failure.getMessage());
                        if (held) {
                            afterAnswer(Received.NOTHING, false);
                        }
                        return;
                    }
                    try {
                        uploaded(response, chunk, length, held, channel);
                    } finally {
                        response.release();
                    }
                });
        if (held && uploadHeld && !polling && connection.out.written() > heldEnd) {
            // A writer that appended after the chunk was read may have looked at uploadHeld before it was
            // set (flushed()), and then asked for nothing: its bytes would wait behind this upload until
            // the peer sends or the server's poll interval passes. Marked held, then checked here;
            // appended, then checked there: one of the two sees the other.
            poll();
        }
    }

    private void uploaded(FullHttpResponse response, ByteStream.Chunk chunk, int length, boolean held,
            HttpClientChannel channel) {
        int status = response.status().code();
        if (status / 100 == 2) {
            upBackoff.reset();
            acked = chunk.offset() + length;
            Received got = held && status == 200 ? receive(response, channel) : Received.NOTHING;
            if (got == Received.BROKEN) {
                return;
            }
            if (chunk.fin()) {
                upDone.complete(null);
            } else {
                upload();
            }
            if (held) {
                afterAnswer(got, false);
            }
        } else if (retryable(status)) {
            retryUpload(describe(response));
            if (held) {
                afterAnswer(Received.NOTHING, false);
            }
        } else {
            broken("the peer refused an upload: " + describe(response));
        }
    }

    private void uploadWoken() {
        upWaiting = false;
        upload();
    }

    /** Bytes wait beyond the held upload: a poll makes the server answer it, so the next one can go. */
    private void releaseHeldUpload() {
        if (uploadHeld && !polling && !stopped) {
            poll();
        }
    }

    private void retryUpload(String why) {
        long delay = upBackoff.nextDelayMillis();
        if (delay < 0 || stopped) {
            broken("uploads failed for " + settings.vanishMillis() + " ms (" + why + ")");
            return;
        }
        loop().schedule(this::upload, delay, TimeUnit.MILLISECONDS);
    }

    // ---- downloads ---------------------------------------------------------------------------

    private void poll() {
        if (polling || stopped) {
            return;
        }
        boolean behind = connection.readerBehind();
        polling = true;
        deferred = false;
        String uri = downPath + "?ack=" + received + (behind ? "&window=0" : "");
        HttpClientChannel channel = take(downChannel);
        channel.send(channel.request(HttpMethod.GET, uri, null), settings.pollMillis() + EXTRA_WAIT_MILLIS)
                .whenComplete((response, failure) -> {
                    polling = false;
                    setBusy(channel, false);
                    if (failure != null) {
                        retryPoll(failure.getMessage());
                        return;
                    }
                    try {
                        handlePoll(response, behind, channel);
                    } finally {
                        response.release();
                    }
                });
    }

    /** What an answer brought. */
    private enum Received { NOTHING, BYTES, PART, END, BROKEN }

    private void handlePoll(FullHttpResponse response, boolean behind, HttpClientChannel channel) {
        int status = response.status().code();
        Received got = Received.NOTHING;
        if (status == 200) {
            downBackoff.reset();
            got = receive(response, channel);
        } else if (status == 204) {
            downBackoff.reset();
        } else if (retryable(status)) {
            retryPoll(describe(response));
            return;
        } else {
            broken(describe(response));
            return;
        }
        afterAnswer(got, behind);
    }

    /**
     * Takes a 200 answer's bytes (a poll's, or a held upload's): skips what arrived already (an answer
     * overtaken by a newer one names an offset before ours), and acknowledges the stream's end at once.
     */
    private Received receive(FullHttpResponse response, HttpClientChannel channel) {
        long offset = headerLong(response, Wire.OFFSET);
        if (offset < 0 || offset > received) {
            broken("the peer answered at offset " + received + " with bytes from offset " + offset);
            return Received.BROKEN;
        }
        ByteBuf bytes = response.content();
        long end = offset + bytes.readableBytes();
        boolean fin = "1".equals(response.headers().get(Wire.FIN));
        boolean fresh = end > received;
        if (fresh) {
            bytes.skipBytes((int) (received - offset));
            received = end;
            if (answers && !fin) {
                // Set before the reader can see the bytes: once it has taken them and waits for more, it
                // sees the flag and asks for a poll (the loop may decide otherwise in afterAnswer).
                deferred = true;
            }
            if (!connection.received(bytes.retain())) {
                stopped = true;
                return Received.BROKEN;
            }
            if (connection.assembler.partialBytes() > 0) {
                // Part of a frame: the reader waits for the rest and will not ask, so poll on at once
                // (deferring here cost a second per response of a large frame).
                return Received.PART;
            }
        }
        if (fin && end == received && !finReceived) {
            finReceived = true;
            connection.ended();
            // Acknowledge the end, so that the peer's close need not wait for it.
            HttpClientChannel free = !busy(channel) ? channel : channel == upChannel ? downChannel : upChannel;
            if (!busy(free)) {
                setBusy(free, true);
                free.send(free.request(HttpMethod.GET, downPath + "?ack=" + received + "&window=0", null),
                        settings.pollMillis()).whenComplete((r, f) -> {
                            setBusy(free, false);
                            if (r != null) {
                                r.release();
                            }
                        });
            }
            return Received.END;
        }
        return fresh ? Received.BYTES : Received.NOTHING;
    }

    /**
     * After a poll's or held upload's answer: poll again, unless a request is out already (it is the
     * poll) or the answer brought bytes with upload answers on (the session thread's next write or wait
     * for input polls; see the class comment).
     */
    private void afterAnswer(Received got, boolean behindAtSend) {
        if (stopped || got == Received.END || got == Received.BROKEN) {
            return;
        }
        if (uploadHeld && !polling && connection.out.written() > heldEnd) {
            // Bytes wait behind the held upload, and the poll sent to release it was answered instead of
            // it (it reached the server before the upload did, and the upload took its place): ask again.
            deferred = false;
            poll();
            return;
        }
        if (polling || uploadHeld) {
            deferred = false; // a request is out: it is the poll
            return;
        }
        if (pauseIfBehind()) {
            deferred = false;
            // Keep telling the peer we are here while the reader catches up.
            loop().schedule(() -> {
                if (paused && !polling) {
                    poll();
                }
            }, behindAtSend ? settings.pollMillis() / 2 : 0, TimeUnit.MILLISECONDS);
            return;
        }
        paused = false;
        if (answers && got == Received.BYTES) {
            defer();
            return;
        }
        poll();
    }

    private void defer() {
        deferred = true;
        if (!deferTimer) {
            deferTimer = true;
            loop().schedule(() -> {
                deferTimer = false;
                wakeFromDeferral();
            }, Math.min(DEFER_MILLIS, settings.pollMillis() / 2 + 1), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Pauses polling if the reader is behind. The flag is set before the second look, and the reader
     * looks at the flag after taking a frame, so that one of the two always sees the other's change.
     */
    private boolean pauseIfBehind() {
        if (!connection.readerBehind()) {
            return false;
        }
        paused = true;
        if (connection.readerBehind()) {
            return true;
        }
        paused = false;
        return false;
    }

    private void retryPoll(String why) {
        long delay = downBackoff.nextDelayMillis();
        if (delay < 0 || stopped) {
            broken("polls failed for " + settings.vanishMillis() + " ms (" + why + ")");
            return;
        }
        loop().schedule(this::poll, delay, TimeUnit.MILLISECONDS);
    }

    private void broken(String reason) {
        if (stopped) {
            return;
        }
        stopped = true;
        connection.failed(reason);
        upDone.completeExceptionally(new IOException(reason));
    }

    /** Statuses a proxy or an overloaded relay gives that say nothing about the connection itself. */
    static boolean retryable(int status) {
        return status == 408 || status == 429 || status == 502 || status == 503 || status == 504;
    }

    static String describe(FullHttpResponse response) {
        String body = response.content().toString(StandardCharsets.UTF_8).strip();
        return response.status() + (body.isEmpty() ? "" : ": " + TunnelConnection.abbreviate(body));
    }

    private static long headerLong(FullHttpResponse response, String name) {
        String value = response.headers().get(name);
        try {
            return value == null ? -1 : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
