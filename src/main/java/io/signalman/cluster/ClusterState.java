package io.signalman.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.signalman.state.StateConfig;
import io.signalman.state.StateStores;
import io.signalman.state.StoreSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster member's view of the state stores: the cluster-wide maps with
 * retention and the cap, and the upkeep thread that sweeps the keys this member owns. Tombstones
 * live in {@code signalman.expired.<store>}, with a time to live; with {@code --state-jdbc} they are
 * written through to PostgreSQL with their expiry ({@link PostgresEntryStore}), so an expired id
 * still answers 410 after a whole-cluster restart, and the upkeep thread also deletes the rows of
 * tombstones and idempotency answers that have expired. Without it they live in memory only: a
 * whole-cluster restart forgets them, and an expired id is then unknown, 404.
 */
public final class ClusterState implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterState.class);
    static final String TOMBSTONES = "signalman.expired.";
    static final long SWEEP_SECONDS = 30;

    private final Map<String, HazelcastStateStore<?>> stores = new LinkedHashMap<>();
    /** Deletes expired rows from the shared database, or null without one. */
    private final IntSupplier purge;
    private ScheduledExecutorService timer;

    ClusterState(HazelcastInstance hz, StateConfig config, List<StoreSpec<?>> specs) {
        this(hz, config, specs, null);
    }

    ClusterState(HazelcastInstance hz, StateConfig config, List<StoreSpec<?>> specs, IntSupplier purge) {
        this.purge = purge;
        for (StoreSpec<?> spec : specs) {
            stores.put(spec.name(), store(hz, config, spec));
        }
    }

    private static <V> HazelcastStateStore<V> store(HazelcastInstance hz, StateConfig config, StoreSpec<V> spec) {
        return new HazelcastStateStore<>(hz.getMap(Cluster.STATE_MAPS + spec.name()), new StateCodec<>(spec),
                new ClusterRetention<>(config, spec.finished(), hz.getMap(TOMBSTONES + spec.name())));
    }

    public StateStores stores() {
        return StateStores.of(stores);
    }

    /** Applies retention to the keys this member owns now; returns the entries removed. */
    public int sweep() {
        return stores.values().stream().mapToInt(HazelcastStateStore::sweep).sum();
    }

    /** Deletes the database's expired tombstones and answers (none without a database); returns how many. */
    int purge() {
        return purge == null ? 0 : purge.getAsInt();
    }

    /** Per store, this member's share: live, finished, tombstones, expired since start (for /metrics). */
    public Map<String, long[]> counts() {
        Map<String, long[]> out = new LinkedHashMap<>();
        stores.forEach((name, s) -> out.put(name, s.counts()));
        return out;
    }

    public ClusterState start() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "signalman-cluster-state");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                sweep();
                purge();
            } catch (RuntimeException e) {
                LOG.error("cluster state retention failed (it runs again shortly): {}", e.toString());
            }
        }, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
        return this;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
