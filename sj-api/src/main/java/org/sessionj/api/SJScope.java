package org.sessionj.api;

/**
 * A group of sessions that fail together, the library form of SJ's session-try scope: when one
 * member fails (its peer failed or vanished, an input timed out, it was closed before completing),
 * every other member is failed at once, so its peer learns of it and its own next action (or blocked
 * input) raises {@link SJIOException}. Closing the scope closes every member still open.
 *
 * <pre>{@code
 * try (SJScope scope = SJ.scope();
 *      SJSocket left = scope.add(leftService.request());
 *      SJSocket right = scope.add(rightService.request())) {
 *     ...
 * }
 * }</pre>
 */
public interface SJScope extends AutoCloseable {

    /** Makes {@code socket} a member and returns it. */
    SJSocket add(SJSocket socket);

    /** Closes every member not closed yet, last added first. */
    @Override
    void close();
}
