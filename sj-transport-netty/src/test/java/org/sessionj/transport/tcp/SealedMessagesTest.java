package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * adv10 F13: a message type that names a supertype must give the receiver the value's own class on
 * every transport alike. Sealed hierarchies travel (the value's permitted class is written, the
 * receiver decodes that class); a value no receiver could decode as the class it was sent as is
 * refused by the sender's monitor, before anything is sent; and {@code pass} in one JVM hands over a
 * reference only where another JVM would decode the same class. Each case runs over tcp and over the
 * default in-JVM connection, with the same outcome.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SealedMessagesTest {
    public sealed interface Msg permits Put, Del, Many {
    }

    public record Put(String key, int value) implements Msg {
    }

    public record Del(String key) implements Msg {
    }

    public record Many(List<Msg> items) implements Msg {
    }

    public abstract static sealed class Shape permits Circle, Square {
        public int id;
    }

    public static final class Circle extends Shape {
        public double radius;
    }

    public static final class Square extends Shape {
        public double side;
    }

    /** A concrete class that is not final: its subclasses would arrive as it. */
    public static class Base {
        public int id;
    }

    public static class Derived extends Base {
        public int extra;
    }

    @Protocol("cbegin.!<SealedMessagesTest.Msg>.!<SealedMessagesTest.Msg>.!<SealedMessagesTest.Msg>"
            + ".!<SealedMessagesTest.Shape>.!<Object>.?(SealedMessagesTest.Msg)")
    public interface Client {
    }

    @Protocol("^(Client)")
    public interface Server {
    }

    @Protocol("cbegin.!<SealedMessagesTest.Base>.!<int>")
    public interface Refusals {
    }

    /** Compiled without sj-processor, which rejects it (SJ018): no peer can decode a Number. */
    @Protocol("cbegin.!<Number>")
    public interface NumberClient {
    }

    /** The side that only receives one: it has no send at which its monitor could refuse it. */
    @Protocol("sbegin.?(Number)")
    public interface NumberServer {
    }

    @Protocol("^(Refusals)")
    public interface RefusalsServer {
    }

    private static SJRuntime runtime(String transports) {
        return SJRuntime.create(transports.equals("default") ? SJRuntimeConfig.builder().build()
                : SJRuntimeConfig.builder().transports(transports).build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "default"})
    void sealedValuesArriveAsTheirOwnClassesSentOrPassed(String transports) throws Exception {
        SJRuntime runtime = runtime(transports);
        Circle circle = new Circle();
        circle.id = 7;
        circle.radius = 2.5;
        Many many = new Many(List.of(new Put("b", 2), new Del("c")));
        try (SJServerSocket server = runtime.serverSocket(Server.class, 0)) {
            CompletableFuture<Msg> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket c = runtime.service(Client.class, "localhost", server.port()).request()) {
                    c.send(new Put("a", 1));
                    c.pass(new Del("a"));
                    c.pass(many);
                    c.send(circle);
                    // !<Object> carries JSON-like values (a record there is refused: DeepValuesTest); passed, a
                    // copy in every transport, as another JVM decodes it
                    c.pass(Map.of("key", "x", "value", 9));
                    return c.receive();
                }
            });
            try (SJSocket s = server.accept(Duration.ofSeconds(30))) {
                Msg first = s.receive();
                Msg second = s.receive();
                Msg third = s.receive();
                Shape shape = s.receive();
                Object any = s.receive();
                assertThat(first).isEqualTo(new Put("a", 1));
                assertThat(second).isEqualTo(new Del("a"));
                assertThat(third).isEqualTo(many);
                assertThat(shape).isInstanceOf(Circle.class);
                assertThat(((Circle) shape).radius).isEqualTo(2.5);
                assertThat(shape.id).isEqualTo(7);
                assertThat(any).isInstanceOf(Map.class).isEqualTo(Map.of("key", "x", "value", 9));
                s.send(new Del("done"));
            }
            assertThat(client.get(30, TimeUnit.SECONDS)).isEqualTo(new Del("done"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "default"})
    void valuesNoReceiverDecodesAsTheirClassAreRefusedBeforeAnythingIsSent(String transports) throws Exception {
        SJRuntime runtime = runtime(transports);
        try (SJServerSocket server = runtime.serverSocket(RefusalsServer.class, 0)) {
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(
                    () -> server.accept(Duration.ofSeconds(30)));
            try (SJSocket c = runtime.service(Refusals.class, "localhost", server.port()).request();
                    SJSocket s = accepted.get(30, TimeUnit.SECONDS)) {
                Derived derived = new Derived();
                assertThatThrownBy(() -> c.send(derived)).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("would arrive as a " + Base.class.getName());
                Base base = new Base();
                base.id = 4;
                c.send(base);
                c.send(5);
                Base got = s.receive();
                assertThat(got.getClass()).isEqualTo(Base.class);
                assertThat(got.id).isEqualTo(4);
                assertThat(s.receiveInt()).isEqualTo(5);
            }
        }
    }

    /**
     * adv13 A10: a protocol naming {@code Number} as a message type does not start, on either side (a Long
     * sent as a Number would arrive as an Integer); it used to start, its sender's monitor refusing every
     * value and its receiver waiting for one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "default"})
    void aProtocolWhoseMessageTypeNoPeerDecodesDoesNotStartOnEitherSide(String transports) {
        SJRuntime runtime = runtime(transports);
        assertThatThrownBy(() -> runtime.serverSocket(NumberServer.class, 0)).isInstanceOf(SJException.class)
                .hasMessageContaining("message type java.lang.Number of the session type cannot be decoded by a "
                        + "receiver: java.lang.Number is an interface or abstract class that is not sealed");
        assertThatThrownBy(() -> runtime.service(NumberClient.class, "localhost", 1)).isInstanceOf(SJException.class)
                .hasMessageContaining("java.lang.Number is an interface or abstract class that is not sealed");
    }
}
