package io.signalman.cluster;

import com.hazelcast.map.IMap;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import io.signalman.control.Documents;
import io.signalman.control.QuorumLost;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the cluster shares (drafts, kept revisions), each changed by compare-and-set on its
 * whole value ({@code IMap.replace(key, expected, next)}), one synchronous backup, written
 * through to PostgreSQL with {@code --state-jdbc}.
 */
final class HazelcastDocuments implements Documents {

    private final IMap<String, String> map;

    HazelcastDocuments(IMap<String, String> map) {
        this.map = map;
    }

    @Override
    public String get(String key) {
        return map.get(key);
    }

    @Override
    public boolean create(String key, String value) {
        try {
            return map.putIfAbsent(key, value) == null;
        } catch (SplitBrainProtectionException e) {
            throw lost(e);
        }
    }

    @Override
    public boolean replace(String key, String expected, String next) {
        try {
            return map.replace(key, expected, next);
        } catch (SplitBrainProtectionException e) {
            throw lost(e);
        }
    }

    @Override
    public void remove(String key) {
        try {
            map.delete(key);
        } catch (SplitBrainProtectionException e) {
            throw lost(e);
        }
    }

    @Override
    public List<String> keys() {
        List<String> out = new ArrayList<>(map.keySet());
        out.sort(null);
        return out;
    }

    static QuorumLost lost(SplitBrainProtectionException e) {
        return new QuorumLost("this member is on the smaller side of a split cluster (--cluster-quorum): the change waits "
                + "until the members find each other again", e);
    }
}
