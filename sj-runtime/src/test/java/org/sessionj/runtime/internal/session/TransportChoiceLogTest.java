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

/** The transport of a protocol's sessions is said once at INFO per side and transport, then at DEBUG. */
class TransportChoiceLogTest {

    @Test
    void oncePerProtocolSideAndTransportAtInfo() {
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
        try {
            SinkConnection connection = new SinkConnection();
            TransportChoiceLog.requested("test.Once", "example.org", 7000, connection);
            TransportChoiceLog.requested("test.Once", "example.org", 7000, connection);
            TransportChoiceLog.accepted("test.Once", connection);
            TransportChoiceLog.requested("test.Other", "example.org", 7001, connection);
        } finally {
            logger.removeHandler(handler);
            logger.setLevel(before);
        }
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

    private static String text(LogRecord record) {
        return record.getParameters() == null ? record.getMessage()
                : MessageFormat.format(record.getMessage(), record.getParameters());
    }
}
