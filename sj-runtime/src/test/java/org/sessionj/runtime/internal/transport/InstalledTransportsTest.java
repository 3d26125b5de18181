package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJException;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.spi.Transport;

/**
 * Transports are made when first needed (issue 15, cold start): a runtime that names its transports
 * makes only those (and the ones before them on the class path), and a list left to the defaults
 * makes all of them.
 */
class InstalledTransportsTest {
    private final List<String> made = new ArrayList<>();

    @Test
    void findingATransportByNameMakesOnlyThoseUpToIt() {
        InstalledTransports installed = new InstalledTransports(maker("sink", "shm", "tcp", "tls"));
        assertThat(installed.find("shm").name()).isEqualTo("shm");
        assertThat(made).containsExactly("sink", "shm");
        assertThat(installed.find("sink").name()).isEqualTo("sink");
        assertThat(made).as("already made: not made again").containsExactly("sink", "shm");
        assertThat(installed.complete()).isFalse();
    }

    @Test
    void allMakesEveryTransportOnceAndAnUnknownNameIsNullAfterThat() {
        InstalledTransports installed = new InstalledTransports(maker("shm", "tcp"));
        installed.find("shm");
        assertThat(installed.all()).extracting(Transport::name).containsExactly("shm", "tcp");
        assertThat(installed.complete()).isTrue();
        assertThat(installed.find("udp")).isNull();
        assertThat(made).containsExactly("shm", "tcp");
    }

    @Test
    void anUnknownNameMakesEveryTransportAndIsNull() {
        InstalledTransports installed = new InstalledTransports(maker("shm", "tcp"));
        assertThat(installed.find("udp")).isNull();
        assertThat(installed.complete()).isTrue();
    }

    @Test
    void theFirstOfTwoTransportsWithOneNameWins() {
        List<Transport> transports = List.of(fake("tcp"), fake("tcp"));
        InstalledTransports installed = InstalledTransports.of(transports);
        assertThat(installed.find("tcp")).isSameAs(transports.get(0));
        assertThat(installed.all()).containsExactly(transports.get(0));
    }

    @Test
    void emptinessIsKnownWithoutMakingATransport() {
        assertThat(InstalledTransports.of(List.of()).isEmpty()).isTrue();
        InstalledTransports installed = new InstalledTransports(maker("shm"));
        assertThat(installed.isEmpty()).isFalse();
        assertThat(made).isEmpty();
    }

    @Test
    void aTransportThatCannotBeMadeFailsAsAnSjExceptionNamingTheCause() {
        Iterator<Transport> broken = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Transport next() {
                throw new ServiceConfigurationError("org.example.BrokenTransport could not be instantiated");
            }
        };
        InstalledTransports installed = new InstalledTransports(broken);
        assertThatThrownBy(() -> installed.find("shm")).isInstanceOf(SJException.class)
                .hasMessageContaining("cannot be loaded").hasMessageContaining("org.example.BrokenTransport")
                .hasCauseInstanceOf(ServiceConfigurationError.class);
    }

    @Test
    void aManagerWithNamedTransportsMakesNoOthersAndADefaultListMakesAll() {
        TransportManager named = new TransportManager(new InstalledTransports(maker("sink", "shm", "tcp")),
                TransportPreferences.of(List.of("shm"), List.of("shm")));
        assertThat(named.defaults().setupNames()).containsExactly("shm");
        assertThat(made).containsExactly("sink", "shm");
        assertThat(named.isIndirect("tcp")).isFalse();
        assertThat(made).as("a name asked for later is made then").containsExactly("sink", "shm", "tcp");

        made.clear();
        TransportManager defaults = new TransportManager(new InstalledTransports(maker("shm", "tcp")),
                TransportPreferences.unset());
        assertThat(defaults.defaults().sessionNames()).containsExactlyInAnyOrder("shm", "tcp");
        assertThat(made).containsExactly("shm", "tcp");
    }

    /** Makes fakes named {@code names} in order, recording each as it is made. */
    private Iterator<Transport> maker(String... names) {
        Iterator<String> left = List.of(names).iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return left.hasNext();
            }

            @Override
            public Transport next() {
                String name = left.next();
                made.add(name);
                return fake(name);
            }
        };
    }

    private static Transport fake(String name) {
        return TestAcceptorGroups.named(name);
    }
}
