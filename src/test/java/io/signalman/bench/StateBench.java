package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.StateSpecs;
import io.signalman.bench.LoadTargets.Target;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import io.signalman.state.LocalState;
import io.signalman.state.StateConfig;
import io.signalman.state.StateLine;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * What durable state costs, in one run: (1) the saturated HTTP rate of the FSM actions
 * and handoff turns endpoints with state in memory only, durable under {@code --data} (default
 * {@code --fsync interval}), and durable with {@code --fsync always}, rounds interleaved, medians;
 * (2) start-up with a million live conversations: recovery time, disk, heap; (3) the same million
 * in design (b), H2's MVStore, for the choice written down in the README. Results in
 * {@code target/bench/state.json}. {@code -Dbench.conversations=N} for a smaller try,
 * {@code -Dbench.phases=startup} for one phase.
 */
public final class StateBench {

    static final int CONVERSATIONS = Integer.getInteger("bench.conversations", 1_000_000);
    static final int SECONDS = Integer.getInteger("bench.seconds", 5);
    static final int ROUNDS = 3;

    private StateBench() {
    }

    public static void main(String[] args) throws Exception {
        ObjectNode results = Json.object();
        String phases = System.getProperty("bench.phases", "http,startup,mvstore");
        if (phases.contains("http")) {
            http(results.putObject("http"));
        }
        if (phases.contains("startup")) {
            startup(results.putObject("startup"));
        }
        if (phases.contains("mvstore")) {
            mvstore(results.putObject("mvstore"));
        }
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve("state.json"), Json.write(results) + "\n");
        System.out.println(Json.write(results));
    }

    /** The same load on three servers in this JVM; only the measured one is busy at a time. */
    private static void http(ObjectNode out) throws Exception {
        String[] modes = {"memory", "durable", "durable_fsync_always"};
        ServerConfig base = ServerConfig.defaults().withPort(0);
        Server[] servers = {
            Server.start(base.withData(Files.createTempDirectory("state-mem")).withState(StateConfig.defaults().inMemory())),
            Server.start(base.withData(Files.createTempDirectory("state-durable"))),
            Server.start(base.withData(Files.createTempDirectory("state-always")).withFsync(FsyncPolicy.ALWAYS))};
        Vertx vertx = Vertx.vertx();
        HttpClientAgent client = HttpLoad.client(vertx, HttpLoad.IN_FLIGHT);
        try {
            List<Supplier<Target>> kinds = List.of(LoadTargets::fsmActions, LoadTargets::handoffTurns);
            Target[][] targets = new Target[servers.length][kinds.size()];
            for (int s = 0; s < servers.length; s++) {
                LoadTargets.createStatefulKeys(client, servers[s].port());
                for (int k = 0; k < kinds.size(); k++) {
                    targets[s][k] = kinds.get(k).get();
                }
            }
            for (int warm = 0; warm < 2; warm++) {
                for (int s = 0; s < servers.length; s++) {
                    for (Target t : targets[s]) {
                        HttpLoad.saturate(client, servers[s].port(), t, 3);
                    }
                }
            }
            double[][][] rps = new double[kinds.size()][servers.length][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int k = 0; k < kinds.size(); k++) {
                    for (int s = 0; s < servers.length; s++) {
                        rps[k][s][round] = HttpLoad.saturate(client, servers[s].port(), targets[s][k], SECONDS).length / (double) SECONDS;
                        System.out.printf("state: round %d %-28s %-22s %,8.0f req/s%n", round + 1, targets[s][k].name(), modes[s],
                                rps[k][s][round]);
                    }
                }
            }
            for (int k = 0; k < kinds.size(); k++) {
                ObjectNode row = out.putObject(targets[0][k].name());
                for (int s = 0; s < servers.length; s++) {
                    row.put(modes[s] + "_rps", HttpLoad.median(rps[k][s]));
                }
                row.put("durable_vs_memory", HttpLoad.median(rps[k][1]) / HttpLoad.median(rps[k][0]));
                row.put("always_vs_memory", HttpLoad.median(rps[k][2]) / HttpLoad.median(rps[k][0]));
                System.out.printf("state: %-28s durable %.0f%% of in-memory, fsync always %.0f%%%n", targets[0][k].name(),
                        100 * row.get("durable_vs_memory").asDouble(), 100 * row.get("always_vs_memory").asDouble());
            }
        } finally {
            client.close().await();
            vertx.close().await();
            for (Server s : servers) {
                s.close();
            }
        }
    }

    /** Writes a million live conversations as a stopped server leaves them, then times what a start reads. */
    private static void startup(ObjectNode out) throws Exception {
        Path data = Files.createTempDirectory("state-million");
        StateConfig config = StateConfig.defaults().withMaxEntries(CONVERSATIONS + 1);
        DecisionLog log = new DecisionLog(data.resolve("decisions"), FsyncPolicy.NEVER, 1000);
        LocalState state = LocalState.open(config, specs(), data.resolve("state"), log, FsyncPolicy.NEVER);
        long t0 = System.nanoTime();
        for (int i = 0; i < CONVERSATIONS; i++) {
            state.importLine(new StateLine("handoff", "conv-" + i, 0, Instant.now(), conversation(), null));
        }
        double writeS = (System.nanoTime() - t0) / 1e9;
        log.close();
        long t1 = System.nanoTime();
        state.close();
        double snapshotS = (System.nanoTime() - t1) / 1e9;
        state = null;
        long heapBefore = usedHeap();
        DecisionLog again = new DecisionLog(data.resolve("decisions"), FsyncPolicy.NEVER, 1000);
        long cpu = cpuNanos();
        long t2 = System.nanoTime();
        LocalState back = LocalState.open(config, specs(), data.resolve("state"), again, FsyncPolicy.NEVER);
        double recoverS = (System.nanoTime() - t2) / 1e9;
        // CPU as well as wall time: on a shared machine the wall time says as much about the neighbours.
        double recoverCpuS = (cpuNanos() - cpu) / 1e9;
        long heap = usedHeap() - heapBefore;
        int size = back.stores().named("handoff").size();
        again.close();
        back.close();
        out.put("conversations", size);
        out.put("create_s", writeS);
        out.put("snapshot_s", snapshotS);
        out.put("recover_s", recoverS);
        out.put("recover_cpu_s", recoverCpuS);
        out.put("load_average", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.put("disk_mb", du(data.resolve("state")) / 1e6);
        out.put("heap_mb", heap / 1e6);
        System.out.printf("state: %,d live conversations: snapshot written in %.1f s, read back at start-up in %.1f s"
                + " (%.1f s of CPU), %.0f MB on disk, %.0f MB of heap%n", size, snapshotS, recoverS, recoverCpuS,
                du(data.resolve("state")) / 1e6, heap / 1e6);
    }

    /** Design (b): the same entries in H2's MVStore, one put per change as a durable store would do. */
    private static void mvstore(ObjectNode out) throws Exception {
        Path file = Files.createTempDirectory("state-mvstore").resolve("state.mv");
        String value = Json.write(Json.object().put("version", 1).set("value", conversation()));
        double writeS = puts(file, CONVERSATIONS, value, store -> { }, MVStore::commit);
        long t1 = System.nanoTime();
        long count;
        double openS;
        try (MVStore store = new MVStore.Builder().fileName(file.toString()).open()) {
            MVMap<String, String> map = store.openMap("handoff");
            openS = (System.nanoTime() - t1) / 1e9;
            count = 0;
            for (var it = map.cursor(null); it.hasNext(); it.next()) {
                count++;
            }
        }
        double readAllS = (System.nanoTime() - t1) / 1e9;
        // What each change would add: a put and a commit, so that it is on disk before the answer (as --fsync always)
        int commits = 2000;
        double perCommitUs = puts(file, commits, value, store -> {
            store.commit();
            store.sync();
        }, store -> { }) * 1e6 / commits;
        out.put("entries", count);
        out.put("write_s", writeS);
        out.put("open_s", openS);
        out.put("read_all_s", readAllS);
        out.put("disk_mb", Files.size(file) / 1e6);
        out.put("put_commit_sync_us", perCommitUs);
        System.out.printf("state: MVStore %,d entries: written in %.1f s, opened in %.3f s, read whole in %.1f s, %.0f MB on disk;"
                + " a put with commit and sync %.0f µs%n", count, writeS, openS, readAllS, Files.size(file) / 1e6, perCommitUs);
    }

    /**
     * Opens the store at {@code file} and puts conv-0 to conv-{@code n - 1} into its handoff map, each
     * {@code value} and each followed by {@code afterEach}, then does {@code atEnd}; the seconds it took, the open included.
     */
    private static double puts(Path file, int n, String value, Consumer<MVStore> afterEach, Consumer<MVStore> atEnd) {
        long t0 = System.nanoTime();
        try (MVStore store = new MVStore.Builder().fileName(file.toString()).open()) {
            MVMap<String, String> map = store.openMap("handoff");
            for (int i = 0; i < n; i++) {
                map.put("conv-" + i, value);
                afterEach.accept(store);
            }
            atEnd.accept(store);
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static com.fasterxml.jackson.databind.JsonNode conversation() {
        ObjectNode n = Json.object();
        n.put("crew", "support").put("status", "running").put("current_agent", "triage").putNull("group");
        n.putArray("reported");
        n.put("handoff_count", 0);
        return n;
    }

    private static List<io.signalman.state.StoreSpec<?>> specs() {
        return StateSpecs.all(() -> {
            throw new IllegalStateException("no rules in the bench");
        });
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long usedHeap() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static long du(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
