package org.sessionj.transport.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.sessionj.transport.http.internal.LeanDifferential.Outcome;

/**
 * Fuzzes the lean HTTP decoders differentially ({@link LeanDifferential}): whatever the bytes and
 * however they are cut, a server's pipeline with {@link LeanRequestDecoder} hands on the same requests
 * and writes the same refusals as with Netty's codec alone, and a client's pipeline with {@link
 * LeanResponseDecoder} the same answers; no buffer leaks. A lean decoder that took something Netty's
 * codec refuses, or decoded it differently, fails here.
 *
 * <p>Seeds: {@code src/test/resources/org/sessionj/transport/http/internal/LeanHttpFuzzTestInputs/}
 * (first byte: the size of the pieces the rest arrives in). {@code scripts/fuzz.sh 10m
 * sj-transport-http:LeanHttpFuzzTest} fuzzes them.
 */
class LeanHttpFuzzTest {

    @FuzzTest
    void requests(byte[] input) {
        check(input, true);
    }

    @FuzzTest
    void responses(byte[] input) {
        check(input, false);
    }

    private static void check(byte[] input, boolean requests) {
        if (input.length == 0) {
            return;
        }
        int cut = 1 + (input[0] & 0x3f);
        byte[] stream = Arrays.copyOfRange(input, 1, input.length);
        Outcome netty = requests ? LeanDifferential.requests(stream, cut, false) : LeanDifferential.responses(stream, cut, false);
        Outcome lean = requests ? LeanDifferential.requests(stream, cut, true) : LeanDifferential.responses(stream, cut, true);
        assertThat(lean.messages()).isEqualTo(netty.messages());
        assertThat(lean.written()).isEqualTo(netty.written());
        assertThat(lean.leaked()).as("a piece leaked").isFalse();
    }
}
