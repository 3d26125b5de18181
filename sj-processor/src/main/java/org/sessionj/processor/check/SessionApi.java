package org.sessionj.processor.check;

import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/** The session API types as javac sees them, and which of their uses are session operations. */
final class SessionApi {
    private final TypeElement socket;
    private final TypeElement service;
    private final TypeElement serverSocket;
    private final TypeElement multicast;
    private final TypeElement session;

    SessionApi(Elements elements) {
        this.socket = elements.getTypeElement("org.sessionj.api.SJSocket");
        this.service = elements.getTypeElement("org.sessionj.api.SJService");
        this.serverSocket = elements.getTypeElement("org.sessionj.api.SJServerSocket");
        this.multicast = elements.getTypeElement("org.sessionj.api.SJ");
        this.session = elements.getTypeElement("org.sessionj.api.Session");
    }

    /** Whether the session API is on the class path at all (if not, nothing to check). */
    boolean available() {
        return socket != null && service != null && serverSocket != null && multicast != null;
    }

    boolean isSocket(TypeMirror type) {
        return type != null && isSame(type, socket);
    }

    boolean isService(TypeMirror type) {
        return type != null && isSame(type, service);
    }

    boolean isServerSocket(TypeMirror type) {
        return type != null && isSame(type, serverSocket);
    }

    boolean isSocketClass(Element owner) {
        return socket.equals(owner);
    }

    boolean isServiceClass(Element owner) {
        return service.equals(owner);
    }

    boolean isServerSocketClass(Element owner) {
        return serverSocket.equals(owner);
    }

    boolean isMulticastClass(Element owner) {
        return multicast.equals(owner);
    }

    TypeElement sessionAnnotation() {
        return session;
    }

    private static boolean isSame(TypeMirror type, TypeElement element) {
        return type instanceof javax.lang.model.type.DeclaredType declared && declared.asElement().equals(element);
    }
}
