/** The relay server of the http/https transports: pairs connections by session and moves their bytes, bounded. */
package org.sessionj.transport.http.relay;
