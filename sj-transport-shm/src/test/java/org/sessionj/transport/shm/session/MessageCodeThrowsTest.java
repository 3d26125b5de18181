package org.sessionj.transport.shm.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJIOException;
import org.sessionj.api.SJServerSocket;
import org.sessionj.api.SJSocket;
import org.sessionj.api.SJTimeoutException;
import org.sessionj.runtime.SJRuntime;
import org.sessionj.runtime.SJRuntimeConfig;

/**
 * A message whose own code throws while it is written (a getter) or made again on the other
 * side (a record's constructor that validates): the action fails its session like any failed action,
 * with the exception as the cause, and the peer learns of it at once instead of waiting for ever
 * (adv12 A5: on the sending side the exception escaped raw and the session stayed open; the receiving
 * side already failed its session, kept here so that it stays so).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageCodeThrowsTest {
    /** Whether {@link Reading}'s accessor throws. */
    static volatile boolean accessorThrows;
    /** The thread on which {@link Reading}'s constructor refuses its value (the receiving one), or null. */
    static volatile Thread refusingThread;

    /** A message whose accessor and constructor may throw. */
    public record Reading(int value) {
        /** Refuses when the test says so. */
        public Reading {
            if (Thread.currentThread() == refusingThread) {
                throw new IllegalArgumentException("constructor refuses " + value);
            }
        }

        @Override
        public int value() {
            if (accessorThrows) {
                throw new IllegalStateException("accessor refuses");
            }
            return value;
        }
    }

    /**
     * A message class whose getter may throw: the codec calls a class's getters while it writes it (a
     * record travels as its fields, adv15 A22: its accessors are not called).
     */
    public static final class Gauge {
        private int value;

        public Gauge() {
        }

        Gauge(int value) {
            this.value = value;
        }

        public int getValue() {
            if (accessorThrows) {
                throw new IllegalStateException("accessor refuses");
            }
            return value;
        }

        public void setValue(int value) {
            this.value = value;
        }
    }

    @Protocol("cbegin.!<MessageCodeThrowsTest.Gauge>.?(String)")
    public interface SendGauge {
    }

    @Protocol("^(SendGauge)")
    public interface TakeGauge {
    }

    /** The client's side: a reading, then a word back. */
    @Protocol("cbegin.!<MessageCodeThrowsTest.Reading>.?(String)")
    public interface SendReading {
    }

    /** The server's side. */
    @Protocol("^(SendReading)")
    public interface TakeReading {
    }

    @AfterEach
    void reset() {
        accessorThrows = false;
        refusingThread = null;
    }

    @Test
    @SuppressWarnings("sessionj") // the client's session is left by the failed send's exception, on purpose
    void anAccessorThatThrowsFailsTheSendAndThePeerLearnsOfIt() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket server = runtime.serverSocket(TakeGauge.class, 0)) {
            Gauge gauge = new Gauge(7);
            accessorThrows = true;
            CompletableFuture<Throwable> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(SendGauge.class, "localhost", server.port()).request()) {
                    s.send(gauge);
                    String word = s.receive();
                    return new AssertionError("sent and received " + word);
                } catch (RuntimeException e) {
                    return e;
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSocket s = server.accept(Duration.ofSeconds(20));
            assertThatThrownBy(() -> s.<Gauge>receive(Duration.ofSeconds(20)))
                    .isInstanceOf(SJIOException.class).isNotInstanceOf(SJTimeoutException.class);
            assertThat(client.get(20, TimeUnit.SECONDS)).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("at .value: the message's own code threw java.lang.IllegalStateException: "
                            + "accessor refuses")
                    .hasRootCauseInstanceOf(IllegalStateException.class);
        }
    }

    /** adv15 A22: a record travels as its fields, so an accessor that throws (or computes) is never called. */
    @Test
    void aRecordsAccessorIsNotCalledWhileItIsWritten() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket server = runtime.serverSocket(TakeReading.class, 0)) {
            accessorThrows = true;
            CompletableFuture<String> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(SendReading.class, "localhost", server.port()).request()) {
                    s.send(new Reading(7));
                    return s.receive();
                }
            }, r -> Thread.ofVirtual().start(r));
            try (SJSocket s = server.accept(Duration.ofSeconds(20))) {
                Reading reading = s.receive(Duration.ofSeconds(20));
                accessorThrows = false;
                assertThat(reading.value()).isEqualTo(7);
                s.send("got it");
            }
            assertThat(client.get(20, TimeUnit.SECONDS)).isEqualTo("got it");
        }
    }

    @Test
    @SuppressWarnings("sessionj") // the server's session is left by the failed receive's exception, on purpose
    void aConstructorThatRefusesFailsTheReceiveAndThePeerLearnsOfIt() throws Exception {
        SJRuntime runtime = SJRuntime.create(SJRuntimeConfig.builder().transports("shm").build());
        try (SJServerSocket server = runtime.serverSocket(TakeReading.class, 0)) {
            CompletableFuture<Throwable> client = CompletableFuture.supplyAsync(() -> {
                try (SJSocket s = runtime.service(SendReading.class, "localhost", server.port()).request()) {
                    s.send(new Reading(7));
                    String word = s.receive(Duration.ofSeconds(20));
                    return new AssertionError("received " + word);
                } catch (RuntimeException e) {
                    return e;
                }
            }, r -> Thread.ofVirtual().start(r));
            SJSocket s = server.accept(Duration.ofSeconds(20));
            refusingThread = Thread.currentThread(); // the value is made again on the thread that receives it
            assertThatThrownBy(() -> s.<Reading>receive(Duration.ofSeconds(20))).isInstanceOf(SJIOException.class)
                    .hasMessageContaining("refused by the constructor").hasMessageContaining("constructor refuses 7");
            assertThat(client.get(20, TimeUnit.SECONDS)).isInstanceOf(SJIOException.class)
                    .isNotInstanceOf(SJTimeoutException.class);
        }
    }
}
