package org.sessionj.runtime.testing.delegation;

import org.sessionj.api.Protocol;

/** The protocols of {@link StressScenario}, shared by every transport's delegation stress test. */
public final class StressProtocols {
    private StressProtocols() {
    }

    // The stress scenario: both directions stream; Carol delegates at a random point.
    @Protocol("cbegin.?[?(int)]*.![!<int>]*.?(int)")
    public interface StressAlice {
    }

    @Protocol("^(StressAlice)")
    public interface StressCarol {
    }

    @Protocol("cbegin.?(int).?(int).?{OUT: ?(![!<int>]*.?[?(int)]*.!<int>), IN: ?(?[?(int)]*.!<int>)}")
    public interface StressBob {
    }

    @Protocol("^(StressBob)")
    public interface StressCarolToBob {
    }
}
