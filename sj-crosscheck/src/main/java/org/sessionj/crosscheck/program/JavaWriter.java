package org.sessionj.crosscheck.program;

import java.util.List;
import org.sessionj.crosscheck.program.Stmt.Act;
import org.sessionj.crosscheck.program.Stmt.Arm;
import org.sessionj.crosscheck.program.Stmt.Wrap;

/**
 * Writes generated sides and their protocol file as Java source. Layout of a generated package:
 * {@code Proto} (message records, the label enum, the requester protocol {@code Req} and its dual
 * {@code Acc}) and one class per side, each with a static entry point ({@code requester(int port,
 * long seed)} or {@code accepter(SJServerSocket server, long seed)}), its session methods and the
 * helper methods mutations introduce.
 */
public final class JavaWriter {
    /** Loop iterations plus recursions a side may decide in one run (see {@link Ctl}). */
    public static final int BUDGET = 6;

    private final String pkg;
    private final StringBuilder helpers = new StringBuilder();

    private JavaWriter(String pkg) {
        this.pkg = pkg;
    }

    /** The protocol file of package {@code pkg}: requester type {@code cbegin.body}, accepter its dual. */
    public static String protocolFile(String pkg, String body) {
        return """
                package %s;

                import org.sessionj.api.Protocol;

                /** Messages and protocols of one generated session. */
                public final class Proto {
                    private Proto() {
                    }

                    public record Pt(int x, int y) {
                    }

                    public record Tagged(String key, int[] values) {
                    }

                    public enum Label { A, B, C, QUIT }

                    @Protocol("cbegin.%s")
                    public interface Req {
                    }

                    @Protocol("^(Req)")
                    public interface Acc {
                    }
                }
                """.formatted(pkg, body.replace("\\", "\\\\").replace("\"", "\\\""));
    }

    /** The class {@code name} of package {@code pkg} playing {@code side}. */
    public static String sideFile(String pkg, String name, Side side) {
        return new JavaWriter(pkg).write(name, side);
    }

    private String write(String name, Side side) {
        StringBuilder out = new StringBuilder();
        out.append("package ").append(pkg).append(";\n\n");
        out.append("import org.sessionj.api.*;\n");
        out.append("import org.sessionj.crosscheck.program.Ctl;\n");
        out.append("import ").append(pkg).append(".Proto.Label;\n");
        out.append("import ").append(pkg).append(".Proto.Pt;\n");
        out.append("import ").append(pkg).append(".Proto.Tagged;\n\n");
        out.append("public final class ").append(name).append(" {\n");
        out.append("    private ").append(name).append("() {\n    }\n\n");
        if (side.role() == Side.Role.REQUESTER) {
            out.append("    public static void requester(int port, long seed) {\n");
            out.append("        Ctl c = new Ctl(seed, ").append(BUDGET).append(");\n");
            out.append("        try (SJSocket s = SJService.create(Proto.Req.class, \"localhost\", port).request()) {\n");
        } else {
            out.append("    public static void accepter(@Session(protocol = Proto.Acc.class) SJServerSocket server, long seed) {\n");
            out.append("        Ctl c = new Ctl(seed, ").append(BUDGET).append(");\n");
            out.append("        try (SJSocket s = server.accept()) {\n");
        }
        block(out, side.body(), "s", 3);
        out.append("        }\n    }\n");
        for (Side.Method method : side.methods()) {
            out.append('\n');
            String session = method.wholeProtocol()
                    ? "@Session(protocol = Proto." + (side.role() == Side.Role.REQUESTER ? "Req" : "Acc") + ".class)"
                    : "@Session(\"" + method.sessionType() + "\")";
            out.append("    static void ").append(method.name()).append('(').append(session)
                    .append(" SJSocket s, Ctl c) {\n");
            block(out, method.body(), "s", 2);
            out.append("    }\n");
        }
        out.append(helpers);
        out.append("}\n");
        return out.toString();
    }

    private void block(StringBuilder out, List<Stmt> statements, String socket, int depth) {
        for (Stmt stmt : statements) {
            statement(out, stmt, socket, depth);
        }
    }

    private static void line(StringBuilder out, int depth, String text) {
        out.append("    ".repeat(depth)).append(text).append('\n');
    }

    private void statement(StringBuilder out, Stmt stmt, String s, int d) {
        switch (stmt) {
            case Act act -> act(out, act, s, d);
            case Stmt.Select select -> select(out, select, s, d);
            case Stmt.Branch branch -> branch(out, branch, s, d);
            case Stmt.OutLoop loop -> {
                String decision = "c.more()";
                if (!loop.inCondition().isEmpty()) {
                    StringBuilder inner = new StringBuilder();
                    block(inner, loop.inCondition(), s, d + 2);
                    decision = "switch (0) {\n" + "    ".repeat(d + 1) + "default -> {\n" + inner
                            + "    ".repeat(d + 2) + "yield c.more();\n" + "    ".repeat(d + 1) + "}\n"
                            + "    ".repeat(d) + "}";
                }
                line(out, d, loop.session() ? "while (" + s + ".outwhile(" + decision + ")) {" : "while (" + decision + ") {");
                block(out, loop.body(), s, d + 1);
                line(out, d, "}");
            }
            case Stmt.InLoop loop -> {
                line(out, d, "while (" + s + ".inwhile()) {");
                block(out, loop.body(), s, d + 1);
                line(out, d, "}");
            }
            case Stmt.Rec rec -> {
                line(out, d, rec.label() + ":");
                line(out, d, "while (true) {");
                block(out, rec.body(), s, d + 1);
                line(out, d, "}");
            }
            case Stmt.Jump jump -> {
                if (!jump.implicit()) {
                    line(out, d, (jump.recurse() ? "continue " : "break ") + jump.label() + ";");
                }
            }
            case Stmt.Call call -> line(out, d, call.method() + "(" + s + ", c);");
            case Wrap wrap -> wrap(out, wrap, s, d);
        }
    }

    private static void act(StringBuilder out, Act act, String s, int d) {
        int id = act.id();
        MessageType type = act.written();
        switch (act.kind()) {
            case SEND -> {
                switch (act.form()) {
                    case PLAIN -> line(out, d, s + ".send(" + type.literal() + ");");
                    case LOCAL -> {
                        line(out, d, type.java() + " a" + id + " = " + type.literal() + ";");
                        line(out, d, s + ".send(a" + id + ");");
                    }
                    case NOALIAS -> {
                        if (type.primitive()) {
                            line(out, d, s + ".pass(" + type.literal() + ");");
                        } else {
                            line(out, d, "@NoAlias " + type.java() + " a" + id + " = " + type.literal() + ";");
                            line(out, d, s + ".pass(a" + id + ");");
                        }
                    }
                    case BARE -> line(out, d, s + ".send((" + boxed(type) + ") null);");
                    default -> throw new IllegalStateException(act.toString());
                }
            }
            case RECEIVE -> {
                switch (act.form()) {
                    case PLAIN -> line(out, d, type.java() + " v" + id + " = " + s + "."
                            + (type.primitive() ? type.receiveMethod() : "receive") + "();");
                    case LOCAL -> line(out, d, type.java() + " v" + id + " = " + s + ".receive();");
                    case NOALIAS -> line(out, d, (type.primitive() ? "" : "@NoAlias ") + type.java() + " v" + id + " = "
                            + s + ".receive();");
                    case BARE -> line(out, d, type.primitive() ? s + "." + type.receiveMethod() + "();"
                            : type.java() + " v" + id + " = " + s + ".receive();");
                    default -> throw new IllegalStateException(act.toString());
                }
            }
            case OUTBRANCH -> line(out, d, act.form() == Stmt.Form.ENUM
                    ? s + ".outbranch(Label." + act.label() + ");" : s + ".outbranch(\"" + act.label() + "\");");
            case CLOSE -> line(out, d, s + ".close();");
        }
    }

    private static String boxed(MessageType type) {
        return switch (type.java()) {
            case "int" -> "Integer";
            case "long" -> "Long";
            case "double" -> "Double";
            case "boolean" -> "Boolean";
            case "char" -> "Character";
            default -> type.java();
        };
    }

    private void select(StringBuilder out, Stmt.Select select, String s, int d) {
        List<Arm> arms = select.arms();
        if (arms.size() == 1) {
            line(out, d, "{");
            block(out, arms.get(0).body(), s, d + 1);
            line(out, d, "}");
            return;
        }
        String choice = "c.choose(" + arms.size() + ", " + select.leaving() + ")";
        switch (select.style()) {
            case IF_CHAIN -> {
                String k = "k" + select.id();
                line(out, d, "int " + k + " = " + choice + ";");
                for (int i = 0; i < arms.size(); i++) {
                    boolean last = i == arms.size() - 1;
                    line(out, d, (i == 0 ? "if (" + k + " == 0) {" : last ? "} else {" : "} else if (" + k + " == " + i + ") {"));
                    block(out, arms.get(i).body(), s, d + 1);
                }
                line(out, d, "}");
            }
            case ARROW_SWITCH -> {
                line(out, d, "switch (" + choice + ") {");
                for (int i = 0; i < arms.size(); i++) {
                    line(out, d + 1, (i == arms.size() - 1 ? "default" : "case " + i) + " -> {");
                    block(out, arms.get(i).body(), s, d + 2);
                    line(out, d + 1, "}");
                }
                line(out, d, "}");
            }
            case COLON_SWITCH -> {
                line(out, d, "switch (" + choice + ") {");
                for (int i = 0; i < arms.size(); i++) {
                    line(out, d + 1, (i == arms.size() - 1 ? "default" : "case " + i) + ": {");
                    block(out, arms.get(i).body(), s, d + 2);
                    line(out, d + 1, "}");
                    if (Flow.completesNormally(arms.get(i).body())) {
                        line(out, d + 1, "break;");
                    }
                }
                line(out, d, "}");
            }
        }
    }

    private void branch(StringBuilder out, Stmt.Branch branch, String s, int d) {
        switch (branch.style()) {
            case ARROW_SWITCH, ENUM_LABEL -> {
                boolean enums = branch.style() == Stmt.BranchStyle.ENUM_LABEL;
                if (enums) {
                    line(out, d, "Label l" + branch.id() + " = " + s + ".inbranch(Label.class);");
                    line(out, d, "switch (l" + branch.id() + ") {");
                } else {
                    line(out, d, "switch (" + s + ".inbranch()) {");
                }
                for (Arm arm : branch.arms()) {
                    line(out, d + 1, "case " + (enums ? arm.label() : "\"" + arm.label() + "\"") + " -> {");
                    block(out, arm.body(), s, d + 2);
                    line(out, d + 1, "}");
                }
                line(out, d, "}");
            }
            case COLON_SWITCH -> {
                line(out, d, "switch (" + s + ".inbranch()) {");
                for (Arm arm : branch.arms()) {
                    line(out, d + 1, "case \"" + arm.label() + "\": {");
                    block(out, arm.body(), s, d + 2);
                    line(out, d + 1, "}");
                    if (Flow.completesNormally(arm.body())) {
                        line(out, d + 1, "break;");
                    }
                }
                line(out, d, "}");
            }
        }
    }

    private void wrap(StringBuilder out, Wrap wrap, String s, int d) {
        int id = wrap.id();
        String flag = "c.flag(" + wrap.flag() + ")";
        switch (wrap.kind()) {
            case LAMBDA -> {
                line(out, d, "((Runnable) () -> {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}).run();");
            }
            case ANONYMOUS_CLASS -> {
                line(out, d, "new Object() {");
                line(out, d + 1, "void run() {");
                block(out, wrap.body(), s, d + 2);
                line(out, d + 1, "}");
                line(out, d, "}.run();");
            }
            case LOCAL_CLASS -> {
                line(out, d, "class L" + id + " {");
                line(out, d + 1, "void run() {");
                block(out, wrap.body(), s, d + 2);
                line(out, d + 1, "}");
                line(out, d, "}");
                line(out, d, "new L" + id + "().run();");
            }
            case CATCH -> {
                line(out, d, "try {");
                line(out, d + 1, "c.boom(" + wrap.flag() + ");");
                line(out, d, "} catch (IllegalStateException e" + id + ") {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}");
            }
            case FINALLY -> {
                line(out, d, "try {");
                line(out, d + 1, "c.boom(false);");
                line(out, d, "} finally {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}");
            }
            case TRY_SWALLOW -> {
                line(out, d, "try {");
                List<Stmt> body = wrap.body();
                int at = body.size() > 1 ? 1 : 0;
                block(out, body.subList(0, at), s, d + 1);
                line(out, d + 1, "c.boom(" + wrap.flag() + ");");
                block(out, body.subList(at, body.size()), s, d + 1);
                line(out, d, "} catch (IllegalStateException e" + id + ") {");
                line(out, d, "}");
            }
            case ASSERT -> {
                line(out, d, "assert switch (0) {");
                line(out, d + 1, "default -> {");
                block(out, wrap.body(), s, d + 2);
                line(out, d + 2, "yield true;");
                line(out, d + 1, "}");
                line(out, d, "};");
            }
            case IF -> {
                line(out, d, "if (" + flag + ") {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}");
            }
            case FOR -> {
                line(out, d, "for (int i" + id + " = 0; i" + id + " < (" + flag + " ? 2 : 0); i" + id + "++) {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}");
            }
            case DO_ONCE -> {
                line(out, d, "do {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "} while (false);");
            }
            case SYNCHRONIZED -> {
                line(out, d, "synchronized (c) {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}");
            }
            case LABELED_BLOCK -> {
                line(out, d, "b" + id + ": {");
                block(out, wrap.body(), s, d + 1);
                line(out, d, "}");
            }
            case SWITCH_EXPRESSION -> {
                line(out, d, "int z" + id + " = switch (" + flag + " ? 0 : 1) {");
                line(out, d + 1, "case 0 -> {");
                block(out, wrap.body(), s, d + 2);
                line(out, d + 2, "yield 0;");
                line(out, d + 1, "}");
                line(out, d + 1, "default -> 1;");
                line(out, d, "};");
            }
            case CASE_GUARD -> {
                line(out, d, "switch ((Object) c) {");
                line(out, d + 1, "case Ctl q" + id + " when switch (0) {");
                line(out, d + 2, "default -> {");
                block(out, wrap.body(), s, d + 3);
                line(out, d + 3, "yield " + flag + ";");
                line(out, d + 2, "}");
                line(out, d + 1, "} -> {");
                line(out, d + 1, "}");
                line(out, d + 1, "default -> {");
                line(out, d + 1, "}");
                line(out, d, "}");
            }
            case INSTANCEOF_ALIAS -> {
                line(out, d, "if ((Object) " + s + " instanceof SJSocket t" + id + ") {");
                block(out, wrap.body(), "t" + id, d + 1);
                line(out, d, "}");
            }
            case PATTERN_ALIAS -> {
                line(out, d, "switch ((Object) " + s + ") {");
                line(out, d + 1, "case SJSocket t" + id + " -> {");
                block(out, wrap.body(), "t" + id, d + 2);
                line(out, d + 1, "}");
                line(out, d + 1, "default -> {");
                line(out, d + 1, "}");
                line(out, d, "}");
            }
            case GENERIC_METHOD -> {
                line(out, d, "g" + id + "(" + s + ", c);");
                StringBuilder method = new StringBuilder();
                method.append("\n    static <S extends SJSocket> void g").append(id).append("(S t, Ctl c) {\n");
                block(method, wrap.body(), "t", 2);
                method.append("    }\n");
                helpers.append(method);
            }
        }
    }
}
