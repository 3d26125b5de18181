package org.sessionj.runtime.internal.monitor;

import java.util.ArrayList;
import java.util.List;

/**
 * What a program in a named module (one with {@code module-info.java}) must write so that SJ can read its
 * message classes: the record encoding ({@code org.sessionj.runtime}) and Jackson
 * ({@code com.fasterxml.jackson.databind}) make their constructors and fields accessible reflectively, which
 * a module allows only for the packages it opens to them (adv13 A4). Jackson's own words for the failure
 * ("module com.app does not "exports com.app" to module com.fasterxml.jackson.databind") name neither the
 * fix nor the second reader.
 */
final class ModuleOpens {
    private static final Module RUNTIME = ModuleOpens.class.getModule();
    private static final Module JACKSON = com.fasterxml.jackson.databind.ObjectMapper.class.getModule();

    private ModuleOpens() {
    }

    /**
     * The directive to add ({@code opens P;}: the qualified form names modules that a build puts on javac's
     * module path only when the program requires them, and javac warns otherwise), and to which module, when {@code type} (or its array component) is in a package
     * of a named module that does not open it to both readers; null when nothing is closed to them (the class
     * path, an open module, {@code opens} already there).
     */
    static String advice(Class<?> type) {
        Class<?> element = type;
        while (element.isArray()) {
            element = element.getComponentType();
        }
        Module module = element.getModule();
        if (!module.isNamed() || element.isPrimitive()) {
            return null;
        }
        String pkg = element.getPackageName();
        List<String> closedTo = new ArrayList<>();
        for (Module reader : List.of(RUNTIME, JACKSON)) {
            if (!module.isOpen(pkg, reader)) {
                closedTo.add(reader.isNamed() ? reader.getName() : "ALL-UNNAMED");
            }
        }
        if (closedTo.isEmpty()) {
            return null;
        }
        return "module " + module.getName() + " does not open package " + pkg + " to " + String.join(" and ", closedTo)
                + ", which read message classes reflectively; add 'opens " + pkg + ";' to the module-info.java of "
                + module.getName() + " (or 'opens " + pkg + " to " + String.join(", ", closedTo) + ";', which javac"
                + " warns about unless those modules are on its module path)";
    }
}
