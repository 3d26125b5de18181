package org.sessionj.transport.netty.internal;

import org.sessionj.runtime.spi.support.Heartbeat;
import org.sessionj.runtime.spi.support.SystemSettings;
import org.sessionj.runtime.spi.support.UnfinishedFrames;

/**
 * Tunables of the Netty transports. The defaults come from system properties so that instances
 * created by {@link java.util.ServiceLoader} can be configured too.
 *
 * @param maxFrameBytes the largest frame either side may send or accept; a longer length prefix is an error
 * @param inboundHighBytes received-but-unread bytes above which the connection stops reading the socket
 * @param inboundLowBytes received-but-unread bytes below which it reads again
 * @param outboundHighBytes written-but-unsent bytes above which a writer blocks ({@code flush} waits)
 * @param outboundLowBytes written-but-unsent bytes below which a blocked writer continues
 * @param spins polls of the inbound queue before a reader parks (waking a parked thread costs tens of microseconds)
 * @param preferNative whether to use native epoll when it is available (NIO otherwise)
 * @param heartbeat the runtime heartbeats ({@code sessionj.heartbeat.*}, see {@link Heartbeat})
 * @param unfinished the rules for frames that have started and not finished ({@code sessionj.tcp.unfinishedFrameBytes},
 *        {@code frameTimeout}, {@code frameMinRate}; by default the process's {@link UnfinishedFrames#shared})
 * @param unsent the budget for bytes held by writers whose peer takes nothing ({@code sessionj.tcp.unsentBytes}; by
 *        default the process's {@link UnsentBytes#shared})
 * @param unread the budget for frames received and not yet read past each connection's share
 *        ({@code sessionj.tcp.unreadBytes}; by default the process's {@link UnreadBytes#shared})
 */
public record NettySettings(
        int maxFrameBytes,
        int inboundHighBytes,
        int inboundLowBytes,
        int outboundHighBytes,
        int outboundLowBytes,
        int spins,
        boolean preferNative,
        Heartbeat heartbeat,
        UnfinishedFrames unfinished,
        UnsentBytes unsent,
        UnreadBytes unread) {

    /** Validates the bounds. */
    public NettySettings {
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("maxFrameBytes must be positive, found " + maxFrameBytes);
        }
        if (inboundLowBytes < 0 || inboundLowBytes > inboundHighBytes) {
            throw new IllegalArgumentException("need 0 <= inboundLowBytes <= inboundHighBytes, found "
                    + inboundLowBytes + " and " + inboundHighBytes);
        }
        if (outboundLowBytes < 0 || outboundLowBytes > outboundHighBytes) {
            throw new IllegalArgumentException("need 0 <= outboundLowBytes <= outboundHighBytes, found "
                    + outboundLowBytes + " and " + outboundHighBytes);
        }
        java.util.Objects.requireNonNull(heartbeat, "heartbeat");
        java.util.Objects.requireNonNull(unfinished, "unfinished");
        java.util.Objects.requireNonNull(unsent, "unsent");
        java.util.Objects.requireNonNull(unread, "unread");
        if (spins < 0) {
            throw new IllegalArgumentException("spins must not be negative, found " + spins);
        }
    }

    /**
     * The settings from system properties: {@code sessionj.tcp.maxFrameBytes} (default 16 MiB),
     * {@code sessionj.tcp.inboundHighBytes}/{@code LowBytes} (1 MiB / 256 KiB),
     * {@code sessionj.tcp.outboundHighBytes}/{@code LowBytes} (512 KiB / 128 KiB), {@code sessionj.tcp.spins}
     * ({@link #defaultSpins()})
     * and {@code sessionj.netty.native} (true).
     */
    public static NettySettings fromSystemProperties() {
        SystemSettings settings = SystemSettings.system();
        return new NettySettings(
                settings.integer("tcp.maxFrameBytes", 16 << 20),
                settings.integer("tcp.inboundHighBytes", 1 << 20),
                settings.integer("tcp.inboundLowBytes", 256 << 10),
                settings.integer("tcp.outboundHighBytes", 512 << 10),
                settings.integer("tcp.outboundLowBytes", 128 << 10),
                settings.integer("tcp.spins", defaultSpins()),
                settings.flag("netty.native", true),
                Heartbeat.from(settings),
                UnfinishedFrames.shared(),
                UnsentBytes.shared(),
                UnreadBytes.shared());
    }

    /**
     * 200 polls (a few microseconds) with more than one CPU; none with one, where spinning only
     * delays the thread that would hand over the frame.
     */
    public static int defaultSpins() {
        return Runtime.getRuntime().availableProcessors() > 1 ? 200 : 0;
    }

    /** These settings with another maximum frame size. */
    public NettySettings withMaxFrameBytes(int bytes) {
        return new NettySettings(bytes, inboundHighBytes, inboundLowBytes, outboundHighBytes, outboundLowBytes,
                spins, preferNative, heartbeat, unfinished, unsent, unread);
    }

    /** These settings with native transports allowed or not. */
    public NettySettings withPreferNative(boolean allowed) {
        return new NettySettings(maxFrameBytes, inboundHighBytes, inboundLowBytes, outboundHighBytes,
                outboundLowBytes, spins, allowed, heartbeat, unfinished, unsent, unread);
    }

    /** These settings with other inbound and outbound limits. */
    public NettySettings withLimits(int inboundHigh, int inboundLow, int outboundHigh, int outboundLow) {
        return new NettySettings(maxFrameBytes, inboundHigh, inboundLow, outboundHigh, outboundLow, spins,
                preferNative, heartbeat, unfinished, unsent, unread);
    }

    /** These settings with other heartbeats ({@link Heartbeat#OFF}: none). */
    public NettySettings withHeartbeat(Heartbeat other) {
        return new NettySettings(maxFrameBytes, inboundHighBytes, inboundLowBytes, outboundHighBytes,
                outboundLowBytes, spins, preferNative, other, unfinished, unsent, unread);
    }

    /** These settings with other rules for unfinished frames (a test's small budget or deadline). */
    public NettySettings withUnfinishedFrames(UnfinishedFrames rules) {
        return new NettySettings(maxFrameBytes, inboundHighBytes, inboundLowBytes, outboundHighBytes,
                outboundLowBytes, spins, preferNative, heartbeat, rules, unsent, unread);
    }

    /** These settings with another budget for writers whose peer takes nothing (a test's small one). */
    public NettySettings withUnsentBytes(UnsentBytes budget) {
        return new NettySettings(maxFrameBytes, inboundHighBytes, inboundLowBytes, outboundHighBytes,
                outboundLowBytes, spins, preferNative, heartbeat, unfinished, budget, unread);
    }

    /** These settings with another budget for frames received and not yet read (a test's small one). */
    public NettySettings withUnreadBytes(UnreadBytes budget) {
        return new NettySettings(maxFrameBytes, inboundHighBytes, inboundLowBytes, outboundHighBytes,
                outboundLowBytes, spins, preferNative, heartbeat, unfinished, unsent, budget);
    }
}
