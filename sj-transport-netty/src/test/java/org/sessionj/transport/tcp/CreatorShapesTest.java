package org.sessionj.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * adv19 A5–A7: the shapes the load check (and SJ018) now accept arrive over tcp as what was sent — an
 * {@code EnumSet}, a {@code Map.Entry}, a class written as its {@code @JsonValue} and created back from it,
 * an enum written as an object with a {@code @JsonCreator} — and those they refuse do not start: a class
 * written as its {@code @JsonValue} with no creator from it (every receive failed before), an enum written
 * as an object with none, a {@code @JsonCreator} whose parameters are unnamed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CreatorShapesTest {
    public enum Color { RED, GREEN, BLUE }

    /** Travels as its text, created back from it. */
    public static final class Tag {
        private final String text;

        Tag(String text) {
            this.text = text;
        }

        @JsonValue
        String text() {
            return text;
        }
    }

    /** An enum written as an object, read back by its creator. */
    @JsonFormat(shape = JsonFormat.Shape.OBJECT)
    public enum Level {
        LOW, HIGH;

        public String getName() {
            return name();
        }

        @JsonCreator
        static Level of(@JsonProperty("name") String name) {
            return valueOf(name);
        }
    }

    @Protocol("cbegin.!<java.util.EnumSet<CreatorShapesTest.Color>>.!<java.util.Map.Entry<String, Integer>>"
            + ".!<CreatorShapesTest.Tag>.!<CreatorShapesTest.Level>")
    public interface Client {
    }

    @Protocol("^(Client)")
    public interface Server {
    }

    @Protocol("cbegin.!<java.util.Map.Entry<Object, Integer>>.!<java.util.Map.Entry<Object, Integer>>")
    public interface UntypedKey {
    }

    @Protocol("^(UntypedKey)")
    public interface UntypedKeyServer {
    }

    /** Travels as its text, and has no way to be created from one. */
    public static final class Mute {
        String text = "x";

        Mute() {
        }

        @JsonValue
        String text() {
            return text;
        }
    }

    @Protocol("sbegin.?(CreatorShapesTest.Mute)")
    public interface MuteServer {
    }

    @JsonFormat(shape = JsonFormat.Shape.OBJECT)
    public enum Opaque { A }

    @Protocol("sbegin.?(CreatorShapesTest.Opaque)")
    public interface OpaqueServer {
    }

    public static final class Point {
        final int x;
        final int y;

        @JsonCreator
        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    @Protocol("sbegin.?(CreatorShapesTest.Point)")
    public interface PointServer {
    }

    @Test
    void enumSetsEntriesSingleValuesAndObjectEnumsArriveAsSent() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        try (SJServerSocket server = runtime.serverSocket(Server.class, 0)) {
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> {
                try (SJSocket c = runtime.service(Client.class, "localhost", server.port()).request()) {
                    c.send(EnumSet.of(Color.RED, Color.BLUE));
                    c.send(Map.entry("best", 3));
                    c.send(new Tag("hello"));
                    c.send(Level.HIGH);
                }
            });
            try (SJSocket s = server.accept(Duration.ofSeconds(30))) {
                EnumSet<Color> colors = s.receive();
                Map.Entry<String, Integer> best = s.receive();
                Tag tag = s.receive();
                Level level = s.receive();
                assertThat(colors).isEqualTo(EnumSet.of(Color.RED, Color.BLUE));
                assertThat(best).isEqualTo(Map.entry("best", 3));
                assertThat(tag.text()).isEqualTo("hello");
                assertThat(level).isEqualTo(Level.HIGH);
            }
            client.get(30, TimeUnit.SECONDS);
        }
    }

    /** An entry is checked at the send as a map of one entry: an Object key arrives as a String. */
    @Test
    void anEntrysKeyIsCheckedAtTheSendAsAMapsKeyIs() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        try (SJServerSocket server = runtime.serverSocket(UntypedKeyServer.class, 0)) {
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(
                    () -> server.accept(Duration.ofSeconds(30)));
            try (SJSocket c = runtime.service(UntypedKey.class, "localhost", server.port()).request();
                    SJSocket s = accepted.get(30, TimeUnit.SECONDS)) {
                assertThatThrownBy(() -> c.send(Map.entry(7, 1))).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("a map key 7 (a java.lang.Integer) where the key type is Object");
                c.send(Map.entry("seven", 7));
                c.send(Map.entry("eight", 8));
                Map.Entry<Object, Integer> first = s.receive();
                Map.Entry<Object, Integer> second = s.receive();
                assertThat(first).isEqualTo(Map.entry("seven", 7));
                assertThat(second).isEqualTo(Map.entry("eight", 8));
            }
        }
    }

    @Test
    void shapesNoReceiverCreatesBackDoNotStart() {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("tcp").build());
        assertThatThrownBy(() -> runtime.serverSocket(MuteServer.class, 0)).isInstanceOf(SJException.class)
                .hasMessageContaining("travels as a single value (@JsonValue, String), but a receiver has no way to "
                        + "create one from that value");
        assertThatThrownBy(() -> runtime.serverSocket(OpaqueServer.class, 0)).isInstanceOf(SJException.class)
                .hasMessageContaining("is an enum written as an object");
        assertThatThrownBy(() -> runtime.serverSocket(PointServer.class, 0)).isInstanceOf(SJException.class)
                .hasMessageContaining("cannot be decoded by a receiver");
    }
}
