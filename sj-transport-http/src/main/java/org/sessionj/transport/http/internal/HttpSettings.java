package org.sessionj.transport.http.internal;

import java.util.function.UnaryOperator;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Tunables of the http/https transports and the relay, read from system properties (so that
 * ServiceLoader-made transports can be configured), each with a default that suits an ordinary
 * reverse proxy with its stock settings (nginx: 60 s read timeout, 1 MiB request bodies).
 *
 * @param pollMillis how long a long poll is held open when there is nothing to send
 *        ({@code sessionj.http.pollMillis}, 20 s: well under nginx's 60 s {@code proxy_read_timeout});
 *        also the WebSocket ping interval
 * @param segmentBytes the most bytes one upload (POST body or WebSocket message) carries
 *        ({@code sessionj.http.segmentBytes}, 256 KiB, under nginx's 1 MiB {@code client_max_body_size})
 * @param responseBytes the most bytes one poll response carries ({@code sessionj.http.responseBytes}, 1 MiB)
 * @param streamBytes bytes buffered per direction before a writer waits ({@code sessionj.http.streamBytes}, 1 MiB)
 * @param vanishMillis a side with no request in flight for this long has vanished
 *        ({@code sessionj.http.vanishMillis}, 15 s); a client retrying a failed request gives up after it too,
 *        and a server registering at a relay waits for it at most
 * @param websocket whether clients try a WebSocket upgrade before falling back to long polling
 *        ({@code sessionj.http.websocket}, true)
 * @param maxFrameBytes the largest frame ({@code sessionj.tcp.maxFrameBytes}, shared with tcp: 16 MiB)
 * @param uploadAnswers whether a long-polling client lets its uploads be answered with the bytes waiting
 *        for it when the server speaks wire 2 ({@code sessionj.http.uploadAnswers}, true): an exchange then
 *        takes one request instead of an upload and a poll; false keeps wire 1's separate polls
 * @param leanCodec whether servers and long-polling clients decode and encode the transport's own
 *        requests and answers with the lean codec ({@code sessionj.http.leanCodec}, true), handing anything
 *        else to Netty's HTTP codec; false: Netty's codec for everything (the same bytes on the wire)
 * @param unfinished the rules for frames that have started and not finished, shared with tcp
 *        ({@code sessionj.tcp.unfinishedFrameBytes}, {@code frameTimeout}, {@code frameMinRate}; by default the
 *        process's {@link UnfinishedFrames#shared})
 */
public record HttpSettings(int pollMillis, int segmentBytes, int responseBytes, int streamBytes, int vanishMillis,
        boolean websocket, int maxFrameBytes, boolean uploadAnswers, boolean leanCodec, UnfinishedFrames unfinished) {

    /** Settings under the process's rules for unfinished frames. */
    public HttpSettings(int pollMillis, int segmentBytes, int responseBytes, int streamBytes, int vanishMillis,
            boolean websocket, int maxFrameBytes, boolean uploadAnswers, boolean leanCodec) {
        this(pollMillis, segmentBytes, responseBytes, streamBytes, vanishMillis, websocket, maxFrameBytes, uploadAnswers,
                leanCodec, UnfinishedFrames.shared());
    }

    /** Settings with upload answers on (wire 2 where the server speaks it) and the lean codec. */
    public HttpSettings(int pollMillis, int segmentBytes, int responseBytes, int streamBytes, int vanishMillis,
            boolean websocket, int maxFrameBytes) {
        this(pollMillis, segmentBytes, responseBytes, streamBytes, vanishMillis, websocket, maxFrameBytes, true);
    }

    /** Settings with the lean codec. */
    public HttpSettings(int pollMillis, int segmentBytes, int responseBytes, int streamBytes, int vanishMillis,
            boolean websocket, int maxFrameBytes, boolean uploadAnswers) {
        this(pollMillis, segmentBytes, responseBytes, streamBytes, vanishMillis, websocket, maxFrameBytes, uploadAnswers,
                true);
    }

    /** Checks the bounds. */
    public HttpSettings {
        positive("pollMillis", pollMillis);
        positive("segmentBytes", segmentBytes);
        positive("responseBytes", responseBytes);
        positive("streamBytes", streamBytes);
        positive("vanishMillis", vanishMillis);
        positive("maxFrameBytes", maxFrameBytes);
        java.util.Objects.requireNonNull(unfinished, "unfinished");
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("sessionj.http." + name + " must be positive, found " + value);
        }
    }

    /** The settings from system properties. */
    public static HttpSettings fromSystemProperties() {
        return from(SystemSettings.system(), true);
    }

    /** The settings from {@code properties} (full property names; missing keys take their defaults). */
    public static HttpSettings fromProperties(UnaryOperator<String> properties) {
        return from(SystemSettings.of(properties), false);
    }

    private static HttpSettings from(SystemSettings settings, boolean system) {
        return new HttpSettings(
                settings.integer("http.pollMillis", 20_000),
                settings.integer("http.segmentBytes", 256 << 10),
                settings.integer("http.responseBytes", 1 << 20),
                settings.integer("http.streamBytes", 1 << 20),
                settings.integer("http.vanishMillis", 15_000),
                settings.flag("http.websocket", true),
                settings.integer("tcp.maxFrameBytes", 16 << 20),
                settings.flag("http.uploadAnswers", true),
                settings.flag("http.leanCodec", true),
                system ? UnfinishedFrames.shared() : UnfinishedFrames.of(settings));
    }


    /** These settings with WebSocket upgrades allowed or not. */
    public HttpSettings withWebsocket(boolean allowed) {
        return new HttpSettings(pollMillis, segmentBytes, responseBytes, streamBytes, vanishMillis, allowed, maxFrameBytes,
                uploadAnswers, leanCodec, unfinished);
    }

    /** These settings with another poll interval and vanish time. */
    public HttpSettings withTimes(int poll, int vanish) {
        return new HttpSettings(poll, segmentBytes, responseBytes, streamBytes, vanish, websocket, maxFrameBytes,
                uploadAnswers, leanCodec, unfinished);
    }

    /** These settings with the lean codec on or off. */
    public HttpSettings withLeanCodec(boolean lean) {
        return new HttpSettings(pollMillis, segmentBytes, responseBytes, streamBytes, vanishMillis, websocket,
                maxFrameBytes, uploadAnswers, lean, unfinished);
    }

    /** These settings with other rules for unfinished frames (a test's small budget or deadline). */
    public HttpSettings withUnfinishedFrames(UnfinishedFrames rules) {
        return new HttpSettings(pollMillis, segmentBytes, responseBytes, streamBytes, vanishMillis, websocket,
                maxFrameBytes, uploadAnswers, leanCodec, rules);
    }

    /** The largest request a server aggregates: a segment and some slack. */
    public int maxRequestBytes() {
        return segmentBytes + 4096;
    }

}
