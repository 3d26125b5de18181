/**
 * Netty plumbing shared by the {@code tcp} and {@code tls} transports; not an API. One event loop
 * group per JVM ({@link org.sessionj.transport.netty.internal.EventLoops}); each connection is a
 * {@link org.sessionj.transport.netty.internal.NettyConnection} fed by its
 * {@link org.sessionj.transport.netty.internal.ConnectionHandler}; what else goes into a pipeline is
 * a {@link org.sessionj.transport.netty.internal.ChannelSetup}.
 */
package org.sessionj.transport.netty.internal;
