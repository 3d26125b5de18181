package org.sessionj.runtime.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.sessionj.api.SJException;
import org.sessionj.runtime.TransportPreferences;
import org.sessionj.runtime.spi.Transport;

/**
 * Transports are made when first needed (issue 15, cold start): a runtime that names its transports
 * makes only those (built-in ones by class name, without the service loader; others with the ones
 * before them on the class path), and a list left to the defaults makes all of them.
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

    @Test
    void aBuiltInNameIsMadeByClassAndTheServiceLoaderIsNeverAsked() {
        InstalledTransports installed = new InstalledTransports(builtIns("shm", "ipc"), serviceLoaderNotAsked());
        assertThat(installed.isEmpty(List.of("shm"))).isFalse();
        assertThat(made).containsExactly("built-in shm");
        assertThat(installed.find("shm").name()).isEqualTo("shm");
        assertThat(installed.find("ipc").name()).isEqualTo("ipc");
        assertThat(made).as("each made once").containsExactly("built-in shm", "built-in ipc");
        assertThat(installed.complete()).isFalse();
    }

    @Test
    void aNameThatIsNotBuiltInAsksTheServiceLoaderOnlyThen() {
        InstalledTransports installed = new InstalledTransports(builtIns("shm"), offering(
                new InstalledTransports.Offered("org.example.CountingTransport", maker("counting")::next)));
        installed.find("shm");
        assertThat(made).containsExactly("built-in shm");
        assertThat(installed.find("counting").name()).isEqualTo("counting");
        assertThat(made).containsExactly("built-in shm", "counting");
    }

    @Test
    void aBuiltInNameWhoseClassIsNotOnTheClassPathIsLookedForByTheServiceLoader() {
        InstalledTransports installed = new InstalledTransports(builtIns(), offering(
                new InstalledTransports.Offered("org.example.Tcp", maker("tcp")::next)));
        assertThat(installed.isEmpty(List.of("tcp"))).as("the service loader has one").isFalse();
        assertThat(installed.find("tcp").name()).isEqualTo("tcp");
        assertThat(made).containsExactly("tcp");
        assertThat(installed.find("shm")).isNull();
    }

    @Test
    void theServiceLoadersEntryForABuiltInTransportMadeByNameIsNotMadeAgain() {
        InstalledTransports installed = new InstalledTransports(builtIns("shm"), offering(
                new InstalledTransports.Offered(BuiltInTransports.className("shm"), maker("shm again")::next),
                new InstalledTransports.Offered("org.example.Other", maker("other")::next)));
        Transport shm = installed.find("shm");
        assertThat(installed.all()).extracting(Transport::name).containsExactly("shm", "other");
        assertThat(installed.all()).contains(shm);
        assertThat(made).containsExactly("built-in shm", "other");
    }

    @Test
    void anotherTransportWithABuiltInNameYieldsToTheBuiltInOneWhenItsClassLoads() {
        InstalledTransports installed = new InstalledTransports(builtIns("tcp"), offering(
                new InstalledTransports.Offered("org.example.FakeTcp", maker("tcp")::next)));
        assertThat(installed.all()).extracting(Transport::name).containsExactly("tcp");
        assertThat(made).containsExactly("tcp", "built-in tcp");
        assertThat(installed.find("tcp")).isSameAs(installed.all().get(0));
        assertThat(installed.find("tcp").getClass()).isNotEqualTo(fake("tcp").getClass());
    }

    @Test
    void isEmptyAsksTheServiceLoaderWhenNoWantedNameIsABuiltInOneOnTheClassPath() {
        InstalledTransports none = new InstalledTransports(builtIns(), offering());
        assertThat(none.isEmpty(List.of("shm", "counting"))).isTrue();
        InstalledTransports some = new InstalledTransports(builtIns(), offering(
                new InstalledTransports.Offered("org.example.Counting", maker("counting")::next)));
        assertThat(some.isEmpty(List.of("shm"))).isFalse();
        assertThat(made).as("none made to answer").isEmpty();
    }

    @Test
    void aBuiltInClassIsMadeWithItsPublicConstructor() {
        ClassLoader loader = getClass().getClassLoader();
        assertThat(InstalledTransports.makeBuiltIn(Loadable.class.getName(), loader)).isInstanceOf(Loadable.class);
        assertThat(InstalledTransports.makeBuiltIn(null, loader)).isNull();
        assertThat(InstalledTransports.makeBuiltIn("org.example.NotOnTheClassPath", loader))
                .as("not on the class path").isNull();
        assertThat(InstalledTransports.makeBuiltIn(String.class.getName(), loader)).as("not a transport").isNull();
    }

    @Test
    void aBuiltInClassThatCannotBeMadeFailsAsAnSjExceptionNamingItAndTheCause() {
        ClassLoader loader = getClass().getClassLoader();
        assertThatThrownBy(() -> InstalledTransports.makeBuiltIn(Failing.class.getName(), loader))
                .isInstanceOf(SJException.class).hasMessageContaining("cannot be loaded")
                .hasMessageContaining(Failing.class.getName()).hasMessageContaining("no key material")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> InstalledTransports.makeBuiltIn(NoPublicConstructor.class.getName(), loader))
                .isInstanceOf(SJException.class).hasMessageContaining(NoPublicConstructor.class.getName())
                .hasCauseInstanceOf(NoSuchMethodException.class);
    }

    /** Makes the built-in transports {@code names} (recorded as "built-in NAME"); null for any other name. */
    private java.util.function.Function<String, Transport> builtIns(String... names) {
        List<String> known = List.of(names);
        return name -> {
            if (!known.contains(name)) {
                return null;
            }
            made.add("built-in " + name);
            return new Loadable(name);
        };
    }

    private static Supplier<Iterator<InstalledTransports.Offered>> serviceLoaderNotAsked() {
        return () -> {
            throw new AssertionError("the service loader was asked");
        };
    }

    private static Supplier<Iterator<InstalledTransports.Offered>> offering(InstalledTransports.Offered... offered) {
        return () -> List.of(offered).iterator();
    }

    /** A transport class a runtime can make by name (public, public no-argument constructor). */
    public static final class Loadable extends FakeTransport {
        /** As the service loader or a built-in look-up makes it. */
        public Loadable() {
            this("loadable");
        }

        Loadable(String name) {
            super(name);
        }
    }

    /** A transport class whose constructor fails. */
    public static final class Failing extends Forwarding {
        /** Fails, as a transport without its configuration might. */
        public Failing() {
            throw new IllegalStateException("no key material");
        }
    }

    /** A transport class without a public no-argument constructor. */
    public static final class NoPublicConstructor extends Forwarding {
        NoPublicConstructor(int unused) {
        }
    }

    /** A transport that does nothing (base of the classes above). */
    abstract static class Forwarding extends FakeTransport {
        Forwarding() {
            super("forwarding");
        }
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
