package org.sessionj.runtime.fuzz;

import java.util.List;
import java.util.Map;

/** Message classes the fuzz targets decode: flat records (raw layout) and classes Jackson Smile reads. */
public final class FuzzMessages {
    private FuzzMessages() {
    }

    /** A flat record with every component kind, and a nested flat record. */
    public record Point(int x, long y, double z, boolean flag, byte b, short s, char c, float f, String label,
                        Inner inner) {
    }

    /** A flat record nested in {@link Point}. */
    public record Inner(int id, String name) {
    }

    /** A record that is not flat (a list component): it travels as Smile. */
    public record Tree(String name, List<Tree> children, Map<String, Integer> weights) {
    }

    /** A bean Jackson reads through setters. */
    public static final class Bean {
        private String name;
        private int[] values;
        private Map<String, List<Long>> groups;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int[] getValues() {
            return values;
        }

        public void setValues(int[] values) {
            this.values = values;
        }

        public Map<String, List<Long>> getGroups() {
            return groups;
        }

        public void setGroups(Map<String, List<Long>> groups) {
            this.groups = groups;
        }
    }
}
