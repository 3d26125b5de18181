package org.sessionj.crosscheck.program;

import java.util.List;

/**
 * One side of a generated session: its role, the statements of its session (inside the
 * try-with-resources that opens it) and its session methods.
 */
public record Side(Role role, List<Stmt> body, List<Method> methods) {

    /** Which end of the session a side is. */
    public enum Role { REQUESTER, ACCEPTER }

    public Side {
        body = List.copyOf(body);
        methods = List.copyOf(methods);
    }

    /**
     * A session method: {@code static void name(@Session(type) SJSocket s, Ctl c)}; {@code wholeProtocol}
     * when the type is the side's whole protocol, written {@code @Session(protocol = …)}.
     */
    public record Method(String name, String sessionType, boolean wholeProtocol, List<Stmt> body) {
        public Method {
            body = List.copyOf(body);
        }

        public Method withBody(List<Stmt> newBody) {
            return new Method(name, sessionType, wholeProtocol, newBody);
        }
    }

    public Side withBody(List<Stmt> newBody) {
        return new Side(role, newBody, methods);
    }

    public Side withMethods(List<Method> newMethods) {
        return new Side(role, body, newMethods);
    }

    /** The method called {@code name}; fails if there is none. */
    public Method method(String name) {
        return methods.stream().filter(m -> m.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no session method " + name));
    }
}
