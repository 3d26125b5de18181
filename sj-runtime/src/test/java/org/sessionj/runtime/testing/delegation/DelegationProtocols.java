package org.sessionj.runtime.testing.delegation;

import org.sessionj.api.Protocol;

/** Protocols of the delegation and service passing tests (resolved at run time). */
public final class DelegationProtocols {
    private DelegationProtocols() {
    }

    /** The labels of the branch protocols. */
    public enum Op { DOUBLE, NEGATE }

    // The paper's §6.2 shape, with ints: Alice is a client of Carol; Carol hands the loop to Bob.
    @Protocol("cbegin.![!<int>.?(int)]*")
    public interface AliceClient {
    }

    @Protocol("^(AliceClient)")
    public interface CarolServesAlice {
    }

    @Protocol("cbegin.?(?[?(int).!<int>]*)")
    public interface LoopTaker {
    }

    @Protocol("^(LoopTaker)")
    public interface LoopGiver {
    }

    // Delegated in the middle of an iteration: Carol received an int and hands over the answer.
    @Protocol("cbegin.?(!<int>.?[?(int).!<int>]*).?(int)")
    public interface MidLoopTaker {
    }

    @Protocol("^(MidLoopTaker)")
    public interface MidLoopGiver {
    }

    // Alice only streams: she finishes (and closes) without ever reading a DELEGATE.
    @Protocol("cbegin.![!<int>]*")
    public interface StreamAlice {
    }

    @Protocol("^(StreamAlice)")
    public interface CarolServesStream {
    }

    @Protocol("cbegin.?(?[?(int)]*)")
    public interface StreamTaker {
    }

    @Protocol("^(StreamTaker)")
    public interface StreamGiver {
    }

    // Alice streams large messages and only then reads: a delegation waits behind all of them (H21-3).
    @Protocol("cbegin.![!<byte[]>]*.?(int)")
    public interface BulkAlice {
    }

    @Protocol("^(BulkAlice)")
    public interface CarolServesBulk {
    }

    @Protocol("cbegin.?(?[?(byte[])]*.!<int>)")
    public interface BulkTaker {
    }

    @Protocol("^(BulkTaker)")
    public interface BulkGiver {
    }

    // Values passed by reference, still unconsumed when the session is delegated.
    @Protocol("cbegin.![!<StringBuilder>]*.?(int)")
    public interface PassingAlice {
    }

    @Protocol("^(PassingAlice)")
    public interface CarolServesPassing {
    }

    @Protocol("cbegin.?(?[?(StringBuilder)]*.!<int>)")
    public interface PassingTaker {
    }

    @Protocol("^(PassingTaker)")
    public interface PassingGiver {
    }

    @Protocol("cbegin.!{DOUBLE: ![!<int>.?(int)]*, NEGATE: ![!<int>.?(int)]*}")
    public interface BranchAlice {
    }

    @Protocol("^(BranchAlice)")
    public interface CarolServesBranch {
    }

    @Protocol("cbegin.?{DOUBLE: ?(?[?(int).!<int>]*), NEGATE: ?(?[?(int).!<int>]*)}")
    public interface BranchTaker {
    }

    @Protocol("^(BranchTaker)")
    public interface BranchGiver {
    }

    // A delegated type that does not fit.
    @Protocol("cbegin.?(?[?(String).!<int>]*)")
    public interface WrongLoopTaker {
    }

    @Protocol("^(WrongLoopTaker)")
    public interface WrongLoopGiver {
    }

    // Service passing.
    @Protocol("cbegin.!<int>.?(int)")
    public interface Increment {
    }

    @Protocol("^(Increment)")
    public interface IncrementServer {
    }

    @Protocol("cbegin.!<String>")
    public interface Other {
    }

    @Protocol("cbegin.?(cbegin.!<int>.?(int))")
    public interface ServiceTaker {
    }

    @Protocol("^(ServiceTaker)")
    public interface ServiceGiver {
    }

    // For a peer in another process: it ends with a receive, so it exits only after its last output was read.
    @Protocol("cbegin.![!<int>.?(int)]*.?(int)")
    public interface AliceWithTotal {
    }

    @Protocol("^(AliceWithTotal)")
    public interface CarolServesAliceWithTotal {
    }

    @Protocol("cbegin.?(?[?(int).!<int>]*.!<int>)")
    public interface LoopWithTotalTaker {
    }

    @Protocol("^(LoopWithTotalTaker)")
    public interface LoopWithTotalGiver {
    }
}
