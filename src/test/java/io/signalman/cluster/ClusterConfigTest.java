package io.signalman.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import io.signalman.cli.CliRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code serve --cluster} flags: what is accepted, what is refused and why, and the Hazelcast settings they give. */
class ClusterConfigTest {

    @Test
    void membersAreHostPortPairs() {
        assertEquals(List.of("127.0.0.1:5701", "10.0.0.2:5702"), ClusterConfig.parseMembers(" 127.0.0.1:5701 ,, 10.0.0.2:5702,"));
        assertEquals(List.of(), ClusterConfig.parseMembers(""));
        for (String bad : List.of("127.0.0.1", "127.0.0.1:", ":5701", "h:0", "h:65536", "h:port")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterConfig.parseMembers(bad), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new ClusterConfig("127.0.0.1", 0, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new ClusterConfig(" ", 5701, List.of()));
    }

    @Test
    void discoveryIsTcpIpOnlyOnTheGivenInterfaceWithOneSynchronousBackup() {
        Config c = Cluster.hazelcastConfig(new ClusterConfig("localhost", 5799, List.of("127.0.0.1:5798")));
        var join = c.getNetworkConfig().getJoin();
        assertFalse(join.getMulticastConfig().isEnabled(), "multicast off");
        assertFalse(join.getAutoDetectionConfig().isEnabled(), "auto-detection off");
        assertTrue(join.getTcpIpConfig().isEnabled());
        assertEquals(List.of("127.0.0.1:5798", "localhost:5799"), join.getTcpIpConfig().getMembers());
        assertEquals(5799, c.getNetworkConfig().getPort());
        assertFalse(c.getNetworkConfig().isPortAutoIncrement());
        assertEquals(List.of("127.0.0.1"), List.copyOf(c.getNetworkConfig().getInterfaces().getInterfaces()));
        assertEquals("false", c.getProperty("hazelcast.socket.bind.any"));
        assertEquals("false", c.getProperty("hazelcast.phone.home.enabled"));
        assertEquals(1, c.getMapConfig(Cluster.STATE_MAPS + "fsm").getBackupCount());
        assertEquals(0, c.getMapConfig(Cluster.STATE_MAPS + "fsm").getAsyncBackupCount());
        assertEquals(Cluster.NAME, c.getClusterName());
    }

    @Test
    void clusterFlagsWithoutClusterAreAUsageError() {
        CliRunner.Result r = CliRunner.run("serve", "--members", "127.0.0.1:5701");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("--members needs --cluster"), r::toString);

        CliRunner.Result bad = CliRunner.run("serve", "--cluster", "--members", "127.0.0.1");
        assertEquals(2, bad.code(), bad::toString);
        assertTrue(bad.err().contains("a member is host:port"), bad::toString);

        CliRunner.Result port = CliRunner.run("serve", "--cluster", "--cluster-port", "70000");
        assertEquals(2, port.code(), port::toString);
        assertTrue(port.err().contains("--cluster-port must be 1 to 65535"), port::toString);
    }
}
