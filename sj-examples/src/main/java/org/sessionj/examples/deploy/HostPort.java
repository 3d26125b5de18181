package org.sessionj.examples.deploy;

/**
 * A {@code HOST:PORT} address.
 *
 * @param host the host name or address
 * @param port the port, 1 to 65535
 */
public record HostPort(String host, int port) {

    /**
     * Parses {@code text}.
     *
     * @param what the option or variable it came from, for the message
     * @throws DeploymentException when it is not {@code HOST:PORT}
     */
    public static HostPort parse(String text, String what) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new DeploymentException("expected " + what + " as HOST:PORT but found '" + text + "'");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new DeploymentException("expected " + what + " as HOST:PORT with a numeric port but found '" + text + "'");
        }
        if (port < 1 || port > 65535) {
            throw new DeploymentException("expected a port from 1 to 65535 in " + what + " but found " + port);
        }
        return new HostPort(text.substring(0, colon), port);
    }
}
