package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * adv13 A14 and A3: the sender's monitor walks a value as its declared type says and refuses, before
 * anything is sent, a part that would not arrive as itself — a subclass of an open concrete class inside
 * a list, a record component or an array (it would arrive as the declared class, its own fields lost),
 * and in an {@code Object} position anything the wire's untyped form does not give back equal (a record
 * would arrive as a map, a small {@code Long} as an {@code Integer}). The refusal names the path to the
 * part; what is accepted arrives equal, over tcp and the default in-JVM connection alike. adv15 A3–A5:
 * an {@code AtomicReference} is looked into, an {@code Object} map key must be a string, and a value that
 * contains itself or is nested too deep is refused in a reason of a few hundred characters.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeepValuesTest {
    /** An open concrete class: its subclasses would arrive as it. */
    public static class Animal {
        public String name;

        public Animal() {
        }

        Animal(String name) {
            this.name = name;
        }
    }

    public static class Dog extends Animal {
        public int bark;

        public Dog() {
        }

        Dog(String name, int bark) {
            super(name);
            this.bark = bark;
        }
    }

    public record Pen(Animal a, List<Animal> others) {
    }

    public record Job(int n) {
    }

    @Protocol("cbegin.!<java.util.List<DeepValuesTest.Animal>>.!<DeepValuesTest.Pen>.!<DeepValuesTest.Animal[]>"
            + ".!<Object>.!<java.util.List<Object>>.!<java.util.Map<String,Object>>"
            + ".!<java.util.Optional<DeepValuesTest.Animal>>"
            + ".!<java.util.concurrent.atomic.AtomicReference<DeepValuesTest.Animal>>"
            + ".!<java.util.Map<Object,String>>.!<java.util.List<Object>>.!<int>")
    public interface Client {
    }

    @Protocol("^(Client)")
    public interface Server {
    }

    private static SJRuntime runtime(String transports) {
        return SJRuntime.create(transports.equals("default") ? SJRuntimeConfig.builder().build()
                : SJRuntimeConfig.builder().transports(transports).build());
    }

    private static void refused(Runnable send, String... fragments) {
        assertThatThrownBy(send::run).isInstanceOf(SJProtocolViolationException.class).hasMessageContainingAll(fragments);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "default"})
    void partsThatWouldNotArriveAsThemselvesAreRefusedWithTheirPath(String transports) throws Exception {
        SJRuntime runtime = runtime(transports);
        String dog = Dog.class.getName();
        String animal = Animal.class.getName();
        try (SJServerSocket server = runtime.serverSocket(Server.class, 0)) {
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(() -> server.accept(Duration.ofSeconds(30)));
            try (SJSocket c = runtime.service(Client.class, "localhost", server.port()).request();
                    SJSocket s = accepted.get(30, TimeUnit.SECONDS)) {
                Animal rex = new Dog("rex", 3);
                Animal cat = new Animal("cat");

                refused(() -> c.send(new ArrayList<>(List.of(cat, rex))), "at [1]: a " + dog + " would arrive as a " + animal);
                refused(() -> c.pass(new ArrayList<>(List.of(rex))), "at [0]: a " + dog);
                c.send(new ArrayList<>(List.of(cat)));

                refused(() -> c.send(new Pen(rex, List.of())), "at .a: a " + dog + " would arrive as a " + animal);
                refused(() -> c.send(new Pen(cat, List.of(cat, cat, rex))), "at .others[2]: a " + dog);
                c.send(new Pen(cat, List.of(cat)));

                refused(() -> c.send(new Animal[] {cat, rex}), "at [1]: a " + dog);
                c.send(new Animal[] {cat});

                refused(() -> c.send(new Job(1)), "a " + Job.class.getName() + " where the type is Object would "
                        + "arrive as a Map");
                refused(() -> c.pass(new Job(1)), "where the type is Object");
                refused(() -> c.send(Long.valueOf(5)), "a java.lang.Long where the type is Object would arrive as an "
                        + "Integer");
                refused(() -> c.send(new HashSet<>(List.of(1))), "would arrive as a List");
                c.send("text");

                refused(() -> c.send(new ArrayList<Object>(List.of("a", new Job(3)))), "at [1]: a " + Job.class.getName());
                c.send(new ArrayList<Object>(List.of("a", 1, List.of(true))));

                Map<String, Object> nested = new LinkedHashMap<>();
                nested.put("k", List.of(Map.of(7, "x")));
                refused(() -> c.send(nested), "at [k][0]: a map with a java.lang.Integer key");
                refused(() -> c.send(Map.of("when", java.time.Instant.EPOCH)), "at [when]: a java.time.Instant");
                c.send(Map.of("k", 1.5));

                refused(() -> c.send(Optional.of(rex)), "at .get(): a " + dog);
                c.send(Optional.of(cat));

                // adv15 A3: an AtomicReference is looked into like an Optional.
                refused(() -> c.send(new AtomicReference<Animal>(rex)), "at .get(): a " + dog + " would arrive as a " + animal);
                c.send(new AtomicReference<>(cat));

                // adv15 A4: an Object key arrives as a String, so only strings stand there.
                refused(() -> c.send(new HashMap<Object, String>(Map.of(1, "one"))), "a map key 1 (a java.lang.Integer) "
                        + "where the key type is Object would arrive as a String");
                c.send(new HashMap<Object, String>(Map.of("1", "one")));

                // adv15 A5: a value that contains itself is refused where it refers back up, in a few words
                // (the encoder's own failure named a chain of a thousand links, and the peer was sent all of it).
                List<Object> loop = new ArrayList<>(List.of(1));
                loop.add(loop);
                assertThatThrownBy(() -> c.send(loop)).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("at [1]: the value contains itself (this java.util.ArrayList")
                        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1000));
                List<Object> deep = new ArrayList<>();
                for (int i = 0; i < 3000; i++) {
                    deep = new ArrayList<>(List.of(deep));
                }
                List<Object> tooDeep = deep;
                assertThatThrownBy(() -> c.send(tooDeep)).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("nested deeper than 1000 levels").hasMessageContaining(" … ")
                        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1000));
                c.send(new ArrayList<Object>(List.of("fine")));
                c.send(9);

                List<Animal> list = s.receive();
                assertThat(list).singleElement().satisfies(a -> assertThat(a.getClass()).isEqualTo(Animal.class));
                Pen pen = s.receive();
                assertThat(pen.a().name).isEqualTo("cat");
                Animal[] array = s.receive();
                assertThat(array).hasSize(1);
                assertThat((Object) s.receive()).isEqualTo("text");
                assertThat((Object) s.receive()).isEqualTo(List.of("a", 1, List.of(true)));
                assertThat((Object) s.receive()).isEqualTo(Map.of("k", 1.5));
                Optional<Animal> optional = s.receive();
                assertThat(optional).hasValueSatisfying(a -> assertThat(a.name).isEqualTo("cat"));
                AtomicReference<Animal> reference = s.receive();
                assertThat(reference.get().name).isEqualTo("cat");
                assertThat((Object) s.receive()).isEqualTo(Map.of("1", "one"));
                assertThat((Object) s.receive()).isEqualTo(List.of("fine"));
                assertThat(s.receiveInt()).isEqualTo(9);
            }
        }
    }
}
