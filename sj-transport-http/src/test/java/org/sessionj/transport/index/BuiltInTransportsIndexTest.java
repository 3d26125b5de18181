package org.sessionj.transport.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.internal.transport.BuiltInTransports;
import org.sessionj.runtime.spi.Transport;

/**
 * The runtime's index of SJ's own transports ({@link BuiltInTransports}, read before the service
 * loader: issue 15, cold start) agrees with the transports' service files. Every transport module
 * is on this module's test class path, so a transport renamed, moved or added without its index entry
 * fails here rather than silently falling back to the slower service look-up.
 */
class BuiltInTransportsIndexTest {

    @Test
    void everyTransportSjRegistersIsIndexedUnderItsOwnName() throws Exception {
        List<String> registered = registeredTransports();
        assertThat(registered).as("the transports the main jars register").hasSize(BuiltInTransports.names().size());
        for (String className : registered) {
            Transport transport = (Transport) Class.forName(className).getConstructor().newInstance();
            assertThat(BuiltInTransports.className(transport.name())).as("the index entry of %s", transport.name())
                    .isEqualTo(className);
            assertThat(BuiltInTransports.nameOf(className)).isEqualTo(transport.name());
        }
        assertThat(new TreeSet<>(BuiltInTransports.names())).as("every indexed name is registered")
                .containsExactlyInAnyOrderElementsOf(registered.stream().map(BuiltInTransports::nameOf).toList());
    }

    @Test
    void namesAndClassesOutsideTheIndexAreNotBuiltIn() {
        assertThat(BuiltInTransports.className("counting")).isNull();
        assertThat(BuiltInTransports.className("SHM")).as("names are exact").isNull();
        assertThat(BuiltInTransports.nameOf("org.example.ShmTransport")).isNull();
    }

    /** The transport classes the service files of SJ's main jars (not the tests' class directories) list. */
    private static List<String> registeredTransports() throws IOException {
        List<String> classes = new ArrayList<>();
        Enumeration<URL> files = BuiltInTransportsIndexTest.class.getClassLoader()
                .getResources("META-INF/services/" + Transport.class.getName());
        while (files.hasMoreElements()) {
            URL file = files.nextElement();
            if (file.toString().contains("test-classes") || file.toString().contains("-tests.jar")) {
                continue;
            }
            try (BufferedReader in = new BufferedReader(new InputStreamReader(file.openStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    String name = line.replaceAll("#.*", "").strip();
                    if (name.startsWith("org.sessionj.")) {
                        classes.add(name);
                    }
                }
            }
        }
        return classes;
    }
}
