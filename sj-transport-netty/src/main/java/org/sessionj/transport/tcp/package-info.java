/**
 * The {@code tcp} transport: SJ frames (a 4-byte big-endian length, then the bytes) over TCP via
 * Netty, one session port per TCP port.
 *
 * <p>System properties: {@code sj.tcp.maxFrameBytes} (16 MiB), {@code sj.tcp.inboundHighBytes} /
 * {@code sj.tcp.inboundLowBytes} (stop / resume reading the socket when that much is received but
 * unread), {@code sj.tcp.outboundHighBytes} / {@code sj.tcp.outboundLowBytes} (block / release a
 * writer whose bytes do not leave), {@code sj.tcp.spins} (reader polls before parking),
 * {@code sj.netty.native} ({@code false} forces NIO) and {@code sj.netty.threads} (event loops).
 */
package org.sessionj.transport.tcp;
