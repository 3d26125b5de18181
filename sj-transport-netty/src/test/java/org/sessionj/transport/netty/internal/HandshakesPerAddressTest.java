package org.sessionj.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The per-address count of connections in a TLS handshake: the cap, per address, and what leaving gives back. */
class HandshakesPerAddressTest {
    private static InetAddress address(String text) throws Exception {
        return InetAddress.getByName(text);
    }

    @Test
    void eachAddressHoldsAtMostTheCapAndOthersAreNotAffected() throws Exception {
        HandshakesPerAddress counts = new HandshakesPerAddress(2);
        InetAddress flooder = address("127.0.0.2");
        InetAddress honest = address("127.0.0.1");
        assertThat(counts.tryEnter(flooder)).isTrue();
        assertThat(counts.tryEnter(flooder)).isTrue();
        assertThat(counts.tryEnter(flooder)).as("the third from one address").isFalse();
        assertThat(counts.tryEnter(flooder)).isFalse();
        assertThat(counts.refused()).isEqualTo(2);
        assertThat(counts.held(flooder)).as("refusals hold nothing").isEqualTo(2);
        assertThat(counts.tryEnter(honest)).as("another address").isTrue();
        assertThat(counts.addresses()).isEqualTo(2);

        counts.leave(flooder);
        assertThat(counts.tryEnter(flooder)).as("a slot given back").isTrue();
        counts.leave(flooder);
        counts.leave(flooder);
        counts.leave(honest);
        assertThat(counts.held(flooder)).isZero();
        assertThat(counts.addresses()).as("an address at zero is forgotten").isZero();
        counts.leave(honest); // a stray leave takes nothing below zero
        assertThat(counts.held(honest)).isZero();
        assertThat(counts.tryEnter(honest)).isTrue();
        assertThat(counts.held(honest)).isEqualTo(1);
    }

    @Test
    void threadsRacingForOneAddressNeverGetMoreThanTheCap() throws Exception {
        HandshakesPerAddress counts = new HandshakesPerAddress(5);
        InetAddress one = address("127.0.0.2");
        AtomicInteger entered = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int j = 0; j < 1000; j++) {
                    if (counts.tryEnter(one)) {
                        assertThat(entered.incrementAndGet()).isLessThanOrEqualTo(5);
                        entered.decrementAndGet();
                        counts.leave(one);
                    }
                }
            }));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(counts.held(one)).isZero();
        assertThat(counts.addresses()).isZero();
    }

    @Test
    void theCapMustBePositive() {
        assertThatThrownBy(() -> new HandshakesPerAddress(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sessionj.tls.maxHandshakesPerAddress must be positive, found 0");
    }
}
