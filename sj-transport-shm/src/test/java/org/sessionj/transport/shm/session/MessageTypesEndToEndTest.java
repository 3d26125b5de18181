package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJProtocolViolationException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJService;
import org.sessionj.api.SJSocket;

/**
 * Everyday message contents beyond primitives, strings and flat records — java.time values,
 * {@code Optional}s, records holding them — travel as their declared types; a type no encoder can
 * write fails the session naming the type and the reason (with the cause), never as a "protocol
 * violation" that names the same type as expected and found.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MessageTypesEndToEndTest {
    public record Event(String name, Instant at, Optional<String> note) {
    }

    /**
     * A value Jackson cannot write: its only property holds itself. (The type itself decodes: a
     * protocol whose type could never be read back does not even load, see below.)
     */
    public static final class Selfish {
        public Object me = this;
    }

    /** A type whose getter writes a property no reader knows: the protocol does not load. */
    public static final class Computed {
        public Computed getMe() {
            return this;
        }
    }

    @Protocol("cbegin.!<MessageTypesEndToEndTest.Computed>")
    public interface ComputedClient {
    }

    @Protocol("cbegin.!<java.time.Instant>.!<java.time.LocalDate>.!<java.util.Optional<String>>"
            + ".!<java.util.Optional<String>>.!<MessageTypesEndToEndTest.Event>")
    public interface TimeClient {
    }

    @Protocol("^(TimeClient)")
    public interface TimeServer {
    }

    @Protocol("cbegin.!<MessageTypesEndToEndTest.Selfish>")
    public interface SelfishClient {
    }

    @Protocol("^(SelfishClient)")
    public interface SelfishServer {
    }

    @Protocol("cbegin.!<Object>")
    public interface AnyClient {
    }

    @Protocol("^(AnyClient)")
    public interface AnyServer {
    }

    @Test
    void javaTimeValuesOptionalsAndRecordsHoldingThemRoundTrip() throws Exception {
        Instant at = Instant.ofEpochSecond(5, 123_456_789);
        Event event = new Event("e", at, Optional.of("n"));
        try (SJServerSocket server = SJServerSocket.create(TimeServer.class, 0)) {
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> {
                try (SJSocket c = SJService.create(TimeClient.class, "localhost", server.port()).request()) {
                    c.send(at);
                    c.send(LocalDate.of(2026, 11, 28));
                    c.send(Optional.of("x"));
                    c.send(Optional.empty());
                    c.send(event);
                }
            });
            try (SJSocket s = server.accept(Duration.ofSeconds(10))) {
                assertThat((Instant) s.receive()).isEqualTo(at);
                assertThat((LocalDate) s.receive()).isEqualTo(LocalDate.of(2026, 11, 28));
                assertThat((Optional<String>) s.receive()).contains("x");
                assertThat((Optional<String>) s.receive()).isEmpty();
                assertThat((Event) s.receive()).isEqualTo(event);
            }
            client.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTypeNoEncoderCanWriteFailsTheSessionNamingTheTypeAndWhy() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(SelfishServer.class, 0)) {
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(
                    () -> server.accept(Duration.ofSeconds(10)));
            try (SJSocket c = SJService.create(SelfishClient.class, "localhost", server.port()).request();
                    SJSocket s = accepted.get(10, TimeUnit.SECONDS)) {
                assertThatThrownBy(() -> c.send(new Selfish())).isInstanceOf(SJIOException.class)
                        .isNotInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("cannot encode a message of type")
                        .hasMessageContaining("Selfish").hasMessageContaining("self-reference")
                        .hasCauseInstanceOf(com.fasterxml.jackson.databind.exc.InvalidDefinitionException.class);
                assertThatThrownBy(s::receive).isInstanceOf(SJIOException.class)
                        .hasMessageContaining("cannot encode a message of type");
            }
        }
    }

    /** adv11 A7: it used to compile and run, and fail at the receiver, mid-session. */
    @Test
    void aTypeNoReceiverCanDecodeFailsWhenTheServiceIsCreated() {
        assertThatThrownBy(() -> SJService.create(ComputedClient.class, "localhost", 1))
                .isInstanceOf(org.sessionj.api.SJException.class)
                .hasMessageContaining("cannot be decoded by a receiver")
                .hasMessageContaining("Computed writes the property 'me', which its reader does not know");
    }

    @Test
    void anApiObjectSentAsAPlainMessageIsAProtocolViolation() throws Exception {
        try (SJServerSocket server = SJServerSocket.create(AnyServer.class, 0)) {
            CompletableFuture<SJSocket> accepted = CompletableFuture.supplyAsync(
                    () -> server.accept(Duration.ofSeconds(10)));
            SJService service = SJService.create(AnyClient.class, "localhost", server.port());
            try (SJSocket c = service.request(); SJSocket s = accepted.get(10, TimeUnit.SECONDS)) {
                Object hidden = service; // unchecked code: the checker cannot see what an Object holds
                assertThatThrownBy(() -> c.send(hidden)).isInstanceOf(SJProtocolViolationException.class)
                        .hasMessageContaining("!<java.lang.Object>");
                Object socket = s;
                assertThatThrownBy(() -> c.send(socket)).isInstanceOf(SJProtocolViolationException.class);
                c.send("a plain value still goes");
                assertThat((Object) s.receive()).isEqualTo("a plain value still goes");
            }
        }
    }
}
