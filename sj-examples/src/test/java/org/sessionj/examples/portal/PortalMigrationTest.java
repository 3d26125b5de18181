package org.sessionj.examples.portal;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.sessionj.examples.net.PartyRuntimes;

/**
 * The portal's delegation scenarios ({@link PortalDelegationScenarios}) with a front end that reaches
 * the portal over tcp: the calendar session moves from tcp to tls, webmail stays on tcp.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortalMigrationTest extends PortalDelegationScenarios {

    @Override
    String frontEndTransport() {
        return "tcp";
    }

    @Override
    Portal portal(int webmailPort, int webmailDirectPort, int calendarPort) {
        return open(Portal.start(PartyRuntimes.create("tcp", true),
                new PortalSettings(0, "localhost", webmailPort, webmailDirectPort, "localhost", calendarPort, false)));
    }

    @Override
    int frontDoor(Portal portal) {
        return portal.port();
    }
}
