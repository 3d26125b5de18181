package org.sessionj.runtime.internal.session;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.sessionj.api.SJException;
import org.sessionj.api.SJScope;
import org.sessionj.api.SJSocket;

/** Sessions that fail together: the failure of one member fails every other member. */
public final class SessionScope implements SJScope {
    private final List<SessionSocket> members = new CopyOnWriteArrayList<>();

    @Override
    public SJSocket add(SJSocket socket) {
        if (!(socket instanceof SessionSocket session)) {
            throw new IllegalArgumentException("not a socket of this runtime: " + socket);
        }
        members.add(session);
        session.scope(this);
        if (session.hasFailed()) {
            memberFailed(session, "a session added to the scope had already failed");
        }
        return socket;
    }

    /** Called by a member that just failed: fails the others. */
    void memberFailed(SessionSocket failed, String reason) {
        for (SessionSocket member : members) {
            if (member != failed) {
                member.failFromElsewhere("another session in its scope failed: " + reason);
            }
        }
    }

    @Override
    public void close() {
        List<SessionSocket> reversed = new ArrayList<>(members);
        java.util.Collections.reverse(reversed);
        SJException first = null;
        for (SessionSocket member : reversed) {
            try {
                member.close();
            } catch (SJException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
