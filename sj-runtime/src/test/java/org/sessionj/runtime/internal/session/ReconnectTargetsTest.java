package org.sessionj.runtime.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.sessionj.runtime.spi.support.SystemSettings;

/**
 * hostile17 H8: where a delegated session may be resumed. By default the delegating peer's own address, or
 * this host when that peer is on this host (or its transport does not say); more hosts, or any, only when
 * configured. A remote delegator cannot send this runtime to this host's own ports either.
 */
class ReconnectTargetsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static InetAddress at(String literal) throws Exception {
        return InetAddress.getByName(literal); // a literal: no lookup
    }

    private static SystemSettings settings(String hosts) {
        Properties p = new Properties();
        if (hosts != null) {
            p.setProperty("sessionj.delegation.reconnectHosts", hosts);
        }
        return SystemSettings.of(p);
    }

    @Test
    void theDelegatorsOwnAddressIsAllowed() throws Exception {
        assertThat(ReconnectTargets.refusal("198.51.100.7", at("198.51.100.7"), settings(null))).isNull();
        assertThat(ReconnectTargets.refusal("127.0.0.1", LOOPBACK, settings(null))).isNull();
    }

    @Test
    void aDelegatorOnThisHostMayNameThisHost() throws Exception {
        assertThat(ReconnectTargets.refusal("localhost", LOOPBACK, settings(null))).isNull();
        assertThat(ReconnectTargets.refusal("127.0.0.1", null, settings(null))).isNull(); // in-JVM, ipc, http
    }

    @Test
    void anotherHostIsRefusedNamingTheDelegatorAndTheSetting() throws Exception {
        assertThat(ReconnectTargets.refusal("192.0.2.1", LOOPBACK, settings(null)))
                .isEqualTo("it is not the address the delegating peer is connected from (the delegating peer is at "
                        + "127.0.0.1; set sessionj.delegation.reconnectHosts to the hosts a delegated session may be "
                        + "resumed at, or * for any (docs/delegation.md))");
        assertThat(ReconnectTargets.refusal("192.0.2.1", null, settings(null)))
                .startsWith("it is not the address the delegating peer is connected from (the delegating peer's "
                        + "transport does not say where it is, so only this host is allowed;");
    }

    @Test
    void aRemoteDelegatorCannotSendThisRuntimeToItsOwnPorts() throws Exception {
        assertThat(ReconnectTargets.refusal("127.0.0.1", at("198.51.100.7"), settings(null)))
                .startsWith("it is not the address the delegating peer is connected from (the delegating peer is at "
                        + "198.51.100.7;");
    }

    @Test
    void configuredHostsOrAnyAreAllowed() throws Exception {
        assertThat(ReconnectTargets.refusal("192.0.2.1", at("198.51.100.7"), settings("203.0.113.5, 192.0.2.1"))).isNull();
        assertThat(ReconnectTargets.refusal("192.0.2.9", at("198.51.100.7"), settings("203.0.113.5, 192.0.2.1")))
                .isNotNull();
        assertThat(ReconnectTargets.refusal("192.0.2.9", at("198.51.100.7"), settings("*"))).isNull();
    }

    /**
     * hostile22 H22-1: a name the delegator answers for with [an address only this host reaches, its own address].
     * The reconnection connects to the name's first address, so one address being the peer's is not enough: before,
     * the check passed it and this runtime connected to 192.0.2.55.
     */
    @Test
    void aNameIsAllowedOnlyIfEveryOneOfItsAddressesIs() throws Exception {
        InetAddress internal = at("192.0.2.55");
        InetAddress peer = at("198.51.100.7");
        ReconnectTargets.Resolver rebinding = host -> new InetAddress[] {internal, peer};
        assertThat(ReconnectTargets.refusal("rebind.example", at("198.51.100.7"), settings(null), rebinding))
                .startsWith("one of its addresses, 192.0.2.55, is not the address the delegating peer is connected"
                        + " from, and the reconnection may go to any of them (the delegating peer is at 198.51.100.7;");
        ReconnectTargets.Resolver ownTwice = host -> new InetAddress[] {peer, peer};
        assertThat(ReconnectTargets.refusal("own.example", at("198.51.100.7"), settings(null), ownTwice)).isNull();
        // a delegator on this host may name a name of this host's addresses only
        ReconnectTargets.Resolver hereAndThere = host -> new InetAddress[] {LOOPBACK, internal};
        assertThat(ReconnectTargets.refusal("mixed.example", LOOPBACK, settings(null), hereAndThere))
                .startsWith("one of its addresses, 192.0.2.55, is not");
        assertThat(ReconnectTargets.refusal("mixed.example", null, settings(null), hereAndThere))
                .startsWith("one of its addresses, 192.0.2.55, is not");
        // a name listed in the setting is the operator's word: not looked up
        assertThat(ReconnectTargets.refusal("rebind.example", at("198.51.100.7"), settings("rebind.example"), rebinding))
                .isNull();
        assertThat(ReconnectTargets.refusal("none.example", at("198.51.100.7"), settings(null),
                host -> new InetAddress[0])).startsWith("the delegating peer named a host that does not resolve");
    }
}
