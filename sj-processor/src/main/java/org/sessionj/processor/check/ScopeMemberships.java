package org.sessionj.processor.check;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import org.sessionj.processor.internal.flow.FlowState;

/**
 * Scope membership where exceptions go (adv18 A4). Invariant: <em>a socket is a member of an
 * {@code SJScope} at a point only if every path reaching it added it</em>; a catch or finally block is
 * reached from the try block's throw points, so a socket is a member there as at all of them, joined: one
 * added after a throw point is a member on some paths only. The throw points' memberships are collected
 * by {@link LinearityRules.ThrowPoints} and applied here.
 */
final class ScopeMemberships {
    private ScopeMemberships() {
    }

    /** {@code members} (the memberships at earlier throw points, or null for none yet) joined with those of {@code here}. */
    static Map<Element, FlowState.Membership> joined(Map<Element, FlowState.Membership> members, FlowState<Element> here) {
        Map<Element, FlowState.Membership> now = here.memberships();
        if (members == null) {
            return now.isEmpty() ? Map.of() : new LinkedHashMap<>(now);
        }
        if (members.equals(now)) {
            return members;
        }
        Map<Element, FlowState.Membership> joined = new LinkedHashMap<>();
        for (Map.Entry<Element, FlowState.Membership> entry : members.entrySet()) {
            joined.put(entry.getKey(), FlowState.Membership.join(entry.getValue(), now.get(entry.getKey())));
        }
        for (Map.Entry<Element, FlowState.Membership> entry : now.entrySet()) {
            if (!members.containsKey(entry.getKey())) {
                joined.put(entry.getKey(), FlowState.Membership.join(null, entry.getValue()));
            }
        }
        return joined;
    }

    /**
     * Where a catch block starts ({@code entry}, from {@link LinearityRules#catchEntry}): each socket is a
     * member as at the throw points that enter it ({@code members}, joined; null when none did, and the
     * catch starts from the try statement's start).
     */
    static FlowState<Element> atThrows(FlowState<Element> entry, Map<Element, FlowState.Membership> members) {
        if (entry == null || members == null || members.isEmpty() && entry.memberships().isEmpty()) {
            return entry;
        }
        FlowState<Element> result = entry;
        for (Element var : entry.variables()) {
            result = result.withMembership(var, members.get(var));
        }
        return result;
    }

    /**
     * Where a finally block starts after an exception ({@code entry}: as on the normal paths): each socket
     * is a member as on those and at every throw point of the try and catch blocks, joined.
     */
    static FlowState<Element> joinedAtThrows(FlowState<Element> entry, List<LinearityRules.ThrowPoints> pointSets) {
        FlowState<Element> result = entry;
        for (LinearityRules.ThrowPoints points : pointSets) {
            if (result == null || points.members == null
                    || points.members.isEmpty() && result.memberships().isEmpty()) {
                continue;
            }
            for (Element var : result.variables()) {
                result = result.withMembership(var, FlowState.Membership.join(result.membership(var),
                        points.members.get(var)));
            }
        }
        return result;
    }
}
