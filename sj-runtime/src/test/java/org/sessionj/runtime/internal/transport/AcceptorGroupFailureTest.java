package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An acceptor of a group that fails with an Error (here: a class of its own code that cannot be
 * loaded, as when the jar it runs from is rewritten under the running JVM) must fail the group's
 * {@code accept}, not leave it waiting out its timeout: the server's rank 0 of the demos waited
 * 600 s for ranks whose requests it could no longer accept ("only 1 of 3 ranks registered").
 */
@Timeout(60)
class AcceptorGroupFailureTest {
    /** Long enough that a group that loses its failure returns null instead of throwing. */
    private static final long WAIT = TimeUnit.SECONDS.toNanos(30);

    @Test
    void anErrorInAMembersAcceptFailsTheGroupsAcceptNamingIt() {
        NoClassDefFoundError error = new NoClassDefFoundError("org/sessionj/Simulated");
        try (AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.idle(),
                TestAcceptorGroups.throwing(error)))) {
            assertThatThrownBy(() -> group.accept(WAIT)).isInstanceOf(IOException.class)
                    .hasMessageContaining("the t1 acceptor of session port 1 failed")
                    .hasMessageContaining("NoClassDefFoundError: org/sessionj/Simulated")
                    .hasRootCause(error);
            // and every later accept fails the same way
            assertThatThrownBy(() -> group.accept(WAIT)).isInstanceOf(IOException.class).hasRootCause(error);
        }
    }

    @Test
    void anUncheckedExceptionInAMembersAcceptFailsTheGroupsAcceptToo() {
        IllegalStateException failure = new IllegalStateException("acceptor broke");
        try (AcceptorGroup group = TestAcceptorGroups.of(List.of(TestAcceptorGroups.throwing(failure),
                TestAcceptorGroups.idle()))) {
            assertThatThrownBy(() -> group.accept(WAIT)).isInstanceOf(IOException.class)
                    .hasMessageContaining("the t0 acceptor of session port 1 failed").hasRootCause(failure);
        }
    }
}
