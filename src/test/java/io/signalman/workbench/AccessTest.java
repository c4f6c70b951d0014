package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.net.SocketAddress;
import org.junit.jupiter.api.Test;

/** Reading without a token is for loopback clients only; anyone else needs --workbench-token. */
class AccessTest {

    @Test
    void loopbackClientsAreLoopback() {
        assertTrue(Access.loopback(SocketAddress.inetSocketAddress(40000, "127.0.0.1")));
        assertTrue(Access.loopback(SocketAddress.inetSocketAddress(40000, "::1")));
    }

    @Test
    void otherClientsAreNot() {
        assertFalse(Access.loopback(SocketAddress.inetSocketAddress(40000, "10.0.0.7")));
        assertFalse(Access.loopback(SocketAddress.inetSocketAddress(40000, "192.168.1.20")));
        assertFalse(Access.loopback(null));
    }
}
