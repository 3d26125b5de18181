package org.sessionj.runtime.internal.session;

/**
 * An in-JVM session REQUEST (the frame {@code LOCAL_REQUEST}, docs/negotiation.md "In one JVM"): passed
 * by reference on a {@link org.sessionj.runtime.spi.LocalConnection} instead of encoded. {@code type}
 * is the requester's canonical type text, the same String object for every session of its protocol,
 * so the accepter's verdict is found by identity (its hash, if needed, already computed): nothing is
 * encoded, decoded or hashed per session.
 *
 * @param type the requester's session type, as the text a REQUEST would carry
 */
public record LocalRequest(String type) {
}
