/**
 * The {@code tcp} transport: SJ frames (a 4-byte big-endian length, then the bytes) over TCP via
 * Netty, one session port per TCP port.
 *
 * <p>System properties: {@code sessionj.tcp.maxFrameBytes} (16 MiB), {@code sessionj.tcp.inboundHighBytes} /
 * {@code sessionj.tcp.inboundLowBytes} (stop / resume reading the socket when that much is received but
 * unread), {@code sessionj.tcp.outboundHighBytes} / {@code sessionj.tcp.outboundLowBytes} (block / release a
 * writer whose bytes do not leave), {@code sessionj.tcp.spins} (reader polls before parking),
 * {@code sessionj.netty.native} ({@code false} forces NIO) and {@code sessionj.netty.threads} (event loops).
 */
package org.sessionj.transport.tcp;
