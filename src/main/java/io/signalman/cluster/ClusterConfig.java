package io.signalman.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a node joins a Signalman cluster: the interface and port its Hazelcast member
 * binds, and the members it looks for by TCP/IP (no multicast, no auto-detection). The event bus
 * binds the same interface on a port of its own choosing.
 *
 * @param host    the interface cluster traffic binds to (and the address other members reach)
 * @param port    the Hazelcast member port (no auto-increment: the port given is the port used)
 * @param members the other members to contact, {@code host:port}; may include this node itself
 * @param quorum  {@code --cluster-quorum}: the fewest members that may change the control plane
 *                (activations, users, audit entries; Hazelcast's split-brain protection); 0 for none
 */
public record ClusterConfig(String host, int port, List<String> members, int quorum) {

    public ClusterConfig(String host, int port, List<String> members) {
        this(host, port, members, 0);
    }

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 5701;

    public ClusterConfig {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("--cluster-host must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--cluster-port must be 1 to 65535, not " + port);
        }
        if (quorum < 0 || quorum > 100) {
            throw new IllegalArgumentException("--cluster-quorum must be 0 (none) to 100, not " + quorum);
        }
        members = List.copyOf(members);
        members.forEach(ClusterConfig::checkMember);
    }

    /** Parses {@code host:port,host:port}; blanks between commas are ignored. */
    public static List<String> parseMembers(String list) {
        List<String> out = new ArrayList<>();
        if (list == null) {
            return out;
        }
        for (String m : list.split(",")) {
            if (!m.isBlank()) {
                out.add(checkMember(m.trim()));
            }
        }
        return out;
    }

    private static String checkMember(String m) {
        int colon = m.lastIndexOf(':');
        if (colon <= 0 || colon == m.length() - 1) {
            throw new IllegalArgumentException("a member is host:port, not \"" + m + "\"");
        }
        try {
            int p = Integer.parseInt(m.substring(colon + 1));
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a member's port is 1 to 65535: \"" + m + "\"");
        }
        return m;
    }

    /** This node's own cluster address. */
    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return "cluster " + address() + " members " + members + (quorum > 0 ? " quorum " + quorum : "");
    }
}
