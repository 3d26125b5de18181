package org.sessionj.examples.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/**
 * hostile18 H9: where an invitation may make the invited client connect. Literal addresses only (no
 * name look-ups): 192.0.2.0/24 and 198.51.100.0/24 are documentation networks, on no interface here.
 */
class InvitationHostsTest {
    private static final InetAddress LOCAL = address("127.0.0.1");
    private static final InetAddress REMOTE_INVITER = address("198.51.100.7");
    private static final InetAddress REMOTE_INVITED = address("198.51.100.9");

    @Test
    void theServerPassesOnAnInvitationToWhereTheInviterIs() {
        assertThat(InvitationHosts.serverRefusal("198.51.100.7", REMOTE_INVITER, REMOTE_INVITED)).isNull();
        assertThat(InvitationHosts.serverRefusal("localhost", LOCAL, LOCAL)).isNull();
        assertThat(InvitationHosts.serverRefusal("127.0.0.1", LOCAL, null)).as("the invited's transport does not say").isNull();
    }

    @Test
    void theServerDoesNotPassOnAnInvitationToAThirdHostOrToTheInvitedsOwnComputer() {
        assertThat(InvitationHosts.serverRefusal("192.0.2.1", REMOTE_INVITER, REMOTE_INVITED))
                .contains("not the address you are connected from (198.51.100.7)");
        assertThat(InvitationHosts.serverRefusal("192.0.2.1", LOCAL, LOCAL))
                .as("an inviter on the server's host names another host").contains("not the address");
        assertThat(InvitationHosts.serverRefusal("127.0.0.1", REMOTE_INVITER, REMOTE_INVITED))
                .contains("the invited user's own computer");
        assertThat(InvitationHosts.serverRefusal("127.0.0.1", LOCAL, REMOTE_INVITED))
                .as("an inviter on the server's host, a loopback host, an invited client elsewhere")
                .contains("the invited user's own computer");
    }

    @Test
    void theInvitedClientDoesNotConnectToItsOwnComputerUnlessTheServerIsOnItToo() {
        assertThat(InvitationHosts.clientRefusal("127.0.0.1", "198.51.100.7")).contains("is this computer");
        assertThat(InvitationHosts.clientRefusal("127.0.0.1", "127.0.0.1")).isNull();
        assertThat(InvitationHosts.clientRefusal("198.51.100.8", "198.51.100.7")).isNull();
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
