package com.example.kv;

import org.sessionj.api.Protocol;

// The protocols of the key-value store, several in one file. Each is an empty interface whose
// @Protocol says, in SJ notation, what its side of a session sends (!) and receives (?), in order.

/** One PUT, from the client's side: send the entry, then hear whether it replaced a value. */
@Protocol("!<Entry>.?(boolean)")
interface PutEntry {
}

/** One GET, from the client's side: send the key, then hear FOUND and the value, or MISSING. */
@Protocol("!<String>.?{FOUND: ?(String), MISSING: }")
interface GetEntry {
}

/**
 * A whole session, from the client's side: it begins the session (cbegin), then, as often as it likes,
 * chooses PUT or GET (each followed by that exchange) and starts over (#SESSION), until it chooses QUIT.
 */
@Protocol("cbegin.rec SESSION[!{PUT: @(PutEntry).#SESSION, GET: @(GetEntry).#SESSION, QUIT: }]")
interface KvClientSide {
}

/** The server's side: the dual (^) of the client's, every send a receive and the other way round. */
@Protocol("^(KvClientSide)")
interface KvServerSide {
}
