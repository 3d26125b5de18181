package org.sessionj.transport.http.internal;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The long-polling link: plain HTTP/1.1 requests and responses that any proxy passes. Uploads are
 * POSTs of at most a segment ({@code .../up?offset=N}), one at a time on one kept-alive connection;
 * downloads are GETs held by the server until there is something or the poll interval passed
 * ({@code .../down?ack=N}), one at a time on a second connection. Each request says where in the
 * stream it stands, so a request that failed on the way (a proxy timeout, a dropped connection) is
 * repeated without losing or duplicating a byte; a peer unreachable for the vanish time breaks the
 * connection.
 */
final class LongPollLink implements TunnelConnection.Link {
    private static final long EXTRA_WAIT_MILLIS = 15_000;

    private final TunnelConnection connection;
    private final HttpClientChannel upChannel;
    private final HttpClientChannel downChannel;
    private final String upPath;
    private final String downPath;
    private final HttpSettings settings;
    private final CompletableFuture<Void> upDone = new CompletableFuture<>();
    private final Backoff upBackoff;
    private final Backoff downBackoff;
    // up state: on upChannel's loop
    private long acked;
    private boolean uploading;
    private boolean upWaiting;
    // down state: on downChannel's loop
    private long received;
    private boolean polling;
    private volatile boolean paused;
    private volatile boolean stopped;
    /** Runs the next upload on the upload loop once the session thread wrote (one object, not one per wait). */
    private final java.util.function.Consumer<Boolean> dataWaiter;

    LongPollLink(TunnelConnection connection, HttpClientChannel upChannel, HttpClientChannel downChannel, String token,
            HttpSettings settings) {
        this.connection = connection;
        this.upChannel = upChannel;
        this.dataWaiter = ready -> upChannel.loop().execute(this::uploadWoken);
        this.downChannel = downChannel;
        this.upPath = Wire.sessionPath(token, "up");
        this.downPath = Wire.sessionPath(token, "down");
        this.settings = settings;
        this.upBackoff = new Backoff(settings.vanishMillis());
        this.downBackoff = new Backoff(settings.vanishMillis());
    }

    @Override
    public String mode() {
        return "long-poll";
    }

    @Override
    public void start() {
        upChannel.loop().execute(this::upload);
        downChannel.loop().execute(this::poll);
    }

    @Override
    public void upReady() {
        upChannel.loop().execute(this::upload);
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
        downChannel.loop().execute(() -> {
            if (paused && !connection.readerBehind()) {
                paused = false;
                poll();
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
        downChannel.loop().execute(connection.assembler::release);
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
                    upChannel.loop().execute(this::upload);
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
        String uri = upPath + "?offset=" + chunk.offset() + (chunk.fin() ? "&fin=1&close=1" : "");
        upChannel.send(upChannel.request(HttpMethod.POST, uri, body), settings.pollMillis() + EXTRA_WAIT_MILLIS)
                .whenComplete((response, failure) -> {
                    uploading = false;
                    if (failure != null) {
                        retryUpload(failure.getMessage());
                        return;
                    }
                    try {
                        int status = response.status().code();
                        if (status / 100 == 2) {
                            upBackoff.reset();
                            acked = chunk.offset() + length;
                            if (chunk.fin()) {
                                upDone.complete(null);
                                return;
                            }
                            upload();
                        } else if (retryable(status)) {
                            retryUpload(describe(response));
                        } else {
                            broken("the peer refused an upload: " + describe(response));
                        }
                    } finally {
                        response.release();
                    }
                });
    }

    private void uploadWoken() {
        upWaiting = false;
        upload();
    }

    private void retryUpload(String why) {
        long delay = upBackoff.nextDelayMillis();
        if (delay < 0 || stopped) {
            broken("uploads failed for " + settings.vanishMillis() + " ms (" + why + ")");
            return;
        }
        upChannel.loop().schedule(this::upload, delay, TimeUnit.MILLISECONDS);
    }

    // ---- downloads ---------------------------------------------------------------------------

    private void poll() {
        if (polling || stopped) {
            return;
        }
        boolean behind = connection.readerBehind();
        polling = true;
        String uri = downPath + "?ack=" + received + (behind ? "&window=0" : "");
        downChannel.send(downChannel.request(HttpMethod.GET, uri, null), settings.pollMillis() + EXTRA_WAIT_MILLIS)
                .whenComplete((response, failure) -> {
                    polling = false;
                    if (failure != null) {
                        retryPoll(failure.getMessage());
                        return;
                    }
                    try {
                        handlePoll(response, behind);
                    } finally {
                        response.release();
                    }
                });
    }

    private void handlePoll(FullHttpResponse response, boolean behind) {
        int status = response.status().code();
        if (status == 200) {
            downBackoff.reset();
            long offset = headerLong(response, Wire.OFFSET);
            if (offset != received) {
                broken("the peer answered a poll at offset " + received + " with bytes from offset " + offset);
                return;
            }
            ByteBuf bytes = response.content();
            received += bytes.readableBytes();
            if (!connection.received(bytes.retain())) {
                stopped = true;
                return;
            }
            if ("1".equals(response.headers().get(Wire.FIN))) {
                connection.ended();
                // Acknowledge the end, so that the peer's close need not wait for it.
                downChannel.send(downChannel.request(HttpMethod.GET, downPath + "?ack=" + received + "&window=0", null),
                        settings.pollMillis()).whenComplete((r, f) -> {
                            if (r != null) {
                                r.release();
                            }
                        });
                return;
            }
        } else if (status == 204) {
            downBackoff.reset();
        } else if (retryable(status)) {
            retryPoll(describe(response));
            return;
        } else {
            broken(describe(response));
            return;
        }
        if (pauseIfBehind()) {
            // Keep telling the peer we are here while the reader catches up.
            downChannel.loop().schedule(() -> {
                if (paused) {
                    poll();
                }
            }, behind ? settings.pollMillis() / 2 : 0, TimeUnit.MILLISECONDS);
        } else {
            paused = false;
            poll();
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
        downChannel.loop().schedule(this::poll, delay, TimeUnit.MILLISECONDS);
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
