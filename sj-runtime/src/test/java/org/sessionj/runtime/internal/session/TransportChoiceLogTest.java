package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.LocalConnection;

/**
 * The transport of a protocol's sessions is said once per side and transport, at INFO when it leaves
 * the JVM and at DEBUG when it is the in-JVM one, then at DEBUG per session.
 */
class TransportChoiceLogTest {

    @Test
    void oncePerProtocolSideAndTransportAtInfo() {
        List<LogRecord> records = captured(() -> {
            SinkConnection connection = new SinkConnection();
            TransportChoiceLog.requested("test.Once", "example.org", 7000, connection);
            TransportChoiceLog.requested("test.Once", "example.org", 7000, connection);
            TransportChoiceLog.accepted("test.Once", connection);
            TransportChoiceLog.requested("test.Other", "example.org", 7001, connection);
        });
        List<String> info = records.stream().filter(r -> r.getLevel() == Level.INFO).map(TransportChoiceLogTest::text).toList();
        assertThat(info).containsExactly(
                "test.Once: requested sessions run over sink (first one: with example.org:7000); said once per"
                        + " protocol and transport, every session at DEBUG",
                "test.Once: accepted sessions run over sink; said once per protocol and transport, every session at DEBUG",
                "test.Other: requested sessions run over sink (first one: with example.org:7001); said once per"
                        + " protocol and transport, every session at DEBUG");
        assertThat(records.stream().filter(r -> r.getLevel() == Level.FINE).map(TransportChoiceLogTest::text))
                .singleElement().asString().startsWith("test.Once: requested session over sink (");
    }

    @Test
    void theInJvmTransportIsSaidAtDebugOnly() {
        List<LogRecord> records = captured(() -> {
            InJvm connection = new InJvm();
            TransportChoiceLog.requested("test.Local", "localhost", 7002, connection);
            TransportChoiceLog.requested("test.Local", "localhost", 7002, connection);
            TransportChoiceLog.accepted("test.Local", connection);
        });
        assertThat(records).noneMatch(r -> r.getLevel().intValue() >= Level.INFO.intValue());
        assertThat(records.stream().filter(r -> r.getLevel() == Level.FINE).map(TransportChoiceLogTest::text)).containsExactly(
                "test.Local: requested sessions run over shm (first one: with localhost:7002); said once per"
                        + " protocol and transport, every session at DEBUG",
                "test.Local: requested session over shm (in-JVM test connection)",
                "test.Local: accepted sessions run over shm; said once per protocol and transport, every session at DEBUG");
    }

    /** The records of the transport logger, at every level, while {@code body} runs. */
    private static List<LogRecord> captured(Runnable body) {
        Logger logger = Logger.getLogger(TransportChoiceLog.LOGGER);
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level before = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
        // java.util.logging configured in code is not seen by a logger not yet created (LazyLogger):
        // create it, as the first INFO line of a run would.
        TransportChoiceLog.LOG.isLoggable(System.Logger.Level.INFO);
        try {
            body.run();
        } finally {
            logger.removeHandler(handler);
            logger.setLevel(before);
        }
        return records;
    }

    /** A connection whose peer is in this JVM, as the in-JVM transport's. */
    private static final class InJvm extends SinkConnection implements LocalConnection {
        @Override
        public void writeReference(Object reference) {
        }

        @Override
        public Object readReference() {
            return null;
        }

        @Override
        public String transportName() {
            return "shm";
        }

        @Override
        public String toString() {
            return "in-JVM test connection";
        }
    }

    private static String text(LogRecord record) {
        return record.getParameters() == null ? record.getMessage()
                : MessageFormat.format(record.getMessage(), record.getParameters());
    }
}
