package org.sessionj.transport.http;

import java.util.HashMap;
import java.util.Map;

/** Configurations for tests: explicit property maps instead of system properties. */
final class TestConfigs {
    private TestConfigs() {
    }

    /** A configuration from {@code keyValues} (key, value, key, value ...). */
    static HttpConfig of(String... keyValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return new HttpConfig(map::get);
    }
}
