/** Internals of the http/https transports and the relay: the HTTP mapping, streams, links and servers. */
package org.sessionj.transport.http.internal;
