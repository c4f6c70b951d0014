package io.signalman.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryLoader;
import io.signalman.state.SharedAnswers;
import io.vertx.core.VertxOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's membership of a Signalman cluster: Vert.x's Hazelcast cluster manager,
 * configured for TCP/IP discovery only (multicast, auto-detection and phone-home off), bound to
 * the configured interface, and the cluster-wide state stores.
 */
public final class Cluster {

    /** The Hazelcast cluster name: members of other Hazelcast clusters on the network are never joined. */
    public static final String NAME = "signalman";
    /** Every map's name starts so; the database names a map's rows by the rest ({@code idempotency}, {@code expired.fsm}). */
    static final String PREFIX = "signalman.";
    /** The maps the stateful packs' state lives in, one per store: {@code signalman.state.fsm}, ... */
    static final String STATE_MAPS = "signalman.state.";
    /** The idempotency answers' map, and the memory it may use on each member before evicting the least recently used. */
    static final String ANSWERS = "signalman.idempotency";
    static final int ANSWERS_MAX_MB = 64;
    /** The split-brain protection of the control plane's maps ({@code --cluster-quorum}). */
    static final String QUORUM = "signalman-control-quorum";

    private final ClusterConfig config;
    private final HazelcastClusterManager manager;
    /** The shared PostgreSQL ({@code --state-jdbc}), or null: state then lives in the members' memory only. */
    private final StateDatabase database;

    public Cluster(ClusterConfig config) {
        this(config, null);
    }

    /** With {@code database}, the state maps are written through to PostgreSQL (a whole cluster may restart). */
    public Cluster(ClusterConfig config, StateDatabase database) {
        this.config = config;
        this.database = database;
        Config hz = hazelcastConfig(config);
        if (database != null) {
            writeThrough(hz, database);
        }
        this.manager = new HazelcastClusterManager(hz);
    }

    /**
     * Every state map loads from and writes through to {@code database}: write delay 0 (an update
     * is in the database before it is acknowledged) and an eager initial load (a cluster that
     * starts again has every entry before it serves). Tombstones and idempotency answers too, with
     * their expiry: tombstones are loaded eagerly (they are few, and {@code /metrics} counts them);
     * answers when a key is missed, so the memory bound keeps holding the most recently used and a
     * retry of an older one is still answered from the database.
     */
    static void writeThrough(Config hz, StateDatabase database) {
        MapConfig state = hz.getMapConfig(STATE_MAPS + "*");
        state.setMapStoreConfig(new MapStoreConfig().setEnabled(true).setWriteDelaySeconds(0)
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER)
                .setFactoryImplementation((com.hazelcast.map.MapStoreFactory<String, String>) (name, props) ->
                        new PostgresMapStore(database, name.substring(STATE_MAPS.length()))));
        MapConfig tombs = hz.getMapConfig(ClusterState.TOMBSTONES + "*");
        tombs.setMapStoreConfig(new MapStoreConfig().setEnabled(true).setWriteDelaySeconds(0)
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER)
                .setFactoryImplementation((com.hazelcast.map.MapStoreFactory<String, EntryLoader.MetadataAwareValue<Long>>) (name, props) ->
                        new PostgresEntryStore<>(database, name.substring(PREFIX.length()), PostgresEntryStore.Codec.longs(), true)));
        hz.getMapConfig(HazelcastControl.MAPS + "*").setMapStoreConfig(new MapStoreConfig().setEnabled(true)
                .setWriteDelaySeconds(0).setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER)
                .setFactoryImplementation((com.hazelcast.map.MapStoreFactory<String, String>) (name, props) ->
                        new PostgresMapStore(database, name.substring(PREFIX.length()))));
        hz.getMapConfig(ANSWERS).setMapStoreConfig(new MapStoreConfig().setEnabled(true).setWriteDelaySeconds(0)
                .setImplementation(new PostgresEntryStore<>(database, ANSWERS.substring(PREFIX.length()),
                        PostgresEntryStore.Codec.bytes(HazelcastAnswers::answered), false)));
    }

    public ClusterConfig config() {
        return config;
    }

    public HazelcastClusterManager manager() {
        return manager;
    }

    /** The event bus binds the cluster interface too (on a free port); nothing listens on 0.0.0.0. */
    public VertxOptions configure(VertxOptions options) {
        options.getEventBusOptions().setHost(config.host()).setPort(0).setClusterPublicHost(config.host());
        return options;
    }

    /** Cluster-wide stores with retention and the cap; usable once joined. */
    public ClusterState state(io.signalman.state.StateConfig state, java.util.List<io.signalman.state.StoreSpec<?>> specs) {
        return new ClusterState(hazelcast(), state, specs, database == null ? null : database::purgeExpired);
    }

    /** The cluster's control plane (activations, drafts, revisions, users, the audit log); usable once joined. */
    public HazelcastControl control() {
        return new HazelcastControl(hazelcast(), config.address());
    }

    /** Idempotency answers every node sees (a retry on any node gets the first answer); usable once joined. */
    public SharedAnswers answers() {
        return new HazelcastAnswers(hazelcast().getMap(ANSWERS));
    }

    /** The member's Hazelcast instance, once joined: for what the members share beyond state (a live trial). */
    public HazelcastInstance hazelcast() {
        HazelcastInstance hz = manager.getHazelcastInstance();
        if (hz == null) {
            throw new IllegalStateException("the cluster has not been joined yet");
        }
        return hz;
    }

    /** This node's id on the event bus (the Hazelcast member's UUID). */
    public String nodeId() {
        return manager.getNodeId();
    }

    /** The members' event-bus node ids as this node sees them now, the oldest member first. */
    public List<String> nodes() {
        return manager.getNodes();
    }

    /**
     * Whether every partition's backups are in sync, i.e. the loss of any one member now loses
     * no acknowledged update. False for a while after a member joins or leaves (migration).
     * Blocking (asks the other members): not on an event loop.
     */
    public boolean safe() {
        return hazelcast().getPartitionService().isClusterSafe();
    }

    /** The Hazelcast configuration {@code serve --cluster} runs with (public for tests that join as a client member). */
    public static Config hazelcastConfig(ClusterConfig c) {
        Config config = ConfigUtil.loadConfig();
        config.setClusterName(NAME);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        // Vert.x leaves the cluster (gracefully, handing partitions over) when the server closes.
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        // A member that stops answering is declared gone after 10 s (default 60 s), so that a
        // killed node's keys move to their backups while clients are still retrying.
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        // Nodes started at once may each form a cluster of one; they merge within seconds, not 5 minutes.
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        config.setProperty("hazelcast.wait.seconds.before.join", "1");
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(c.port()).setPortAutoIncrement(false);
        network.getInterfaces().setEnabled(true).setInterfaces(List.of(ip(c.host())));
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        List<String> members = new ArrayList<>(c.members());
        if (!members.contains(c.address())) {
            members.add(c.address());
        }
        join.getTcpIpConfig().setEnabled(true).setMembers(members).setConnectionTimeoutSeconds(2);
        // One synchronous backup: an update is acknowledged only once two members hold it.
        config.addMapConfig(new MapConfig(STATE_MAPS + "*").setBackupCount(1).setAsyncBackupCount(0)
                .setReadBackupData(false));
        // The control plane: one synchronous backup, and with --cluster-quorum N, no change on a side of fewer than N.
        MapConfig control = new MapConfig(HazelcastControl.MAPS + "*").setBackupCount(1).setAsyncBackupCount(0)
                .setReadBackupData(false);
        if (c.quorum() > 0) {
            config.addSplitBrainProtectionConfig(new com.hazelcast.config.SplitBrainProtectionConfig(QUORUM, true, c.quorum())
                    .setProtectOn(com.hazelcast.splitbrainprotection.SplitBrainProtectionOn.WRITE));
            control.setSplitBrainProtectionName(QUORUM);
        }
        config.addMapConfig(control);
        MapConfig answers = new MapConfig(ANSWERS).setBackupCount(1).setAsyncBackupCount(0);
        answers.getEvictionConfig().setEvictionPolicy(EvictionPolicy.LRU).setMaxSizePolicy(MaxSizePolicy.USED_HEAP_SIZE)
                .setSize(ANSWERS_MAX_MB);
        config.addMapConfig(answers);
        // Jet runs `replay --members` jobs (io.signalman.replay.cluster); a job carries its rules
        // folders as resources, hence uploads: keep the cluster interface private.
        config.getJetConfig().setEnabled(true).setResourceUploadEnabled(true);
        return config;
    }

    private static String ip(String host) {
        try {
            return InetAddress.getByName(host).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--cluster-host " + host + " does not resolve", e);
        }
    }
}
