package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The negotiation's ids without SecureRandom: still well-formed random UUIDs, and distinct. */
class RandomIdsTest {

    @Test
    void idsAreVersionFourIetfUuidsAndDoNotRepeat() {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            UUID id = RandomIds.next();
            assertThat(id.version()).isEqualTo(4);
            assertThat(id.variant()).isEqualTo(2);
            assertThat(seen.add(id)).as("id %s repeated after %d", id, i).isTrue();
        }
    }

    @Test
    void theJvmIdAndEveryServerSocketsIdDiffer() {
        assertThat(RandomIds.next()).isNotEqualTo(TransportManager.RUNTIME_ID).isNotEqualTo(RandomIds.next());
    }
}
