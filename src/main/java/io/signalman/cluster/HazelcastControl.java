package io.signalman.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.signalman.control.ControlStore;
import io.signalman.control.DraftStore;
import io.signalman.control.Journal;
import io.signalman.control.RevisionStore;
import io.signalman.control.SharedDraftStore;
import io.signalman.control.SharedRevisionStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The cluster's control plane: the live revision and its activations, drafts, kept revisions,
 * users and the audit log in Hazelcast maps named {@code signalman.control.*} (one synchronous
 * backup each, written through to PostgreSQL with {@code --state-jdbc}, under the split-brain
 * protection of {@code --cluster-quorum}). Every member reads and changes this one copy.
 */
public final class HazelcastControl implements ControlStore, AutoCloseable {

    static final String MAPS = "signalman.control.";

    private final HazelcastInstance hz;
    private final String node;
    private final ScheduledExecutorService tell = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "signalman-control");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, HazelcastJournal> journals = new ConcurrentHashMap<>();
    private final DraftStore drafts;
    private final RevisionStore revisions;

    HazelcastControl(HazelcastInstance hz, String node) {
        this.hz = hz;
        this.node = node;
        this.drafts = new SharedDraftStore(new HazelcastDocuments(hz.getMap(MAPS + "drafts")));
        this.revisions = new SharedRevisionStore(new HazelcastDocuments(hz.getMap(MAPS + "revisions")));
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public String node() {
        return node;
    }

    @Override
    public Journal journal(String name) {
        return journals.computeIfAbsent(name, n -> new HazelcastJournal(hz.getMap(MAPS + n), tell));
    }

    @Override
    public DraftStore drafts() {
        return drafts;
    }

    @Override
    public RevisionStore revisions() {
        return revisions;
    }

    @Override
    public void close() {
        tell.shutdownNow();
    }
}
