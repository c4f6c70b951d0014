package io.signalman.crash;

import io.signalman.datadir.Verify;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The crash harness: the real {@code bin/signalman serve} under a mixed load on every
 * endpoint, stateful packs included, killed with {@code kill -9} at a random moment (the first
 * answer a client gets after a random length of load), over many rounds, the fsync mode changing every round ({@code interval}, {@code always}, {@code never});
 * after each kill the data directory is verified offline ({@code signalman data verify}'s check)
 * and, after each restart, {@link CrashCheck} finds every acknowledged decision, transition, turn
 * and answer, and no answer without its change. It reports its rounds and what was lost.
 *
 * <p>{@code make crash-test} runs it long ({@code ROUNDS=30} by default); {@code CrashIT}, in
 * {@code make test}, runs it short. Bounded: 127.0.0.1 only, a few seconds of load per round.
 */
public final class CrashHarness {

    static final String[] MODES = {"interval", "always", "never"};

    /** How long and how hard: rounds, workers, the load's length before the kill (a random moment in it). */
    record Options(int rounds, int workers, long minLoadMillis, long maxLoadMillis, long seed, Path work) {
    }

    /** What a run acknowledged and lost, in total. */
    record Result(int rounds, Map<String, Integer> acknowledged, Map<String, Integer> lost, List<String> lines) {
        int losses() {
            return lost.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    private CrashHarness() {
    }

    /** {@code make crash-test}: {@code CrashHarness [rounds] [seed]}; exit 1 on any loss. */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime();
        Path work = Files.createDirectories(Path.of("target", "crash-test"));
        Result r = run(new Options(rounds, 8, 1_000, 6_000, seed, work), System.out);
        System.exit(r.losses() == 0 ? 0 : 1);
    }

    static Result run(Options o, PrintStream out) throws Exception {
        Path data = o.work().resolve("data-" + o.seed());
        Path log = o.work().resolve("serve-" + o.seed() + ".log");
        // A seed run again starts afresh: its keys would meet the last run's stored answers.
        deleteTree(data);
        Files.deleteIfExists(log);
        Random random = new Random(o.seed());
        List<Entity> entities = new ArrayList<>();
        List<List<Entity>> instances = new ArrayList<>();
        List<Entity> conversations = new ArrayList<>();
        for (int w = 0; w < o.workers(); w++) {
            List<Entity> mine = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                mine.add(new Entity(Entity.Kind.FSM, "w" + w + "-f" + i));
            }
            instances.add(mine);
            conversations.add(new Entity(Entity.Kind.CONVERSATION, "w" + w + "-c"));
            entities.addAll(mine);
            entities.add(conversations.get(w));
        }
        out.printf("crash-test: %d rounds, %d clients, seed %d, data %s%n", o.rounds(), o.workers(), o.seed(), data);
        Map<String, Integer> acknowledged = new TreeMap<>();
        Map<String, Integer> lost = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        CrashServer server = CrashServer.start(data, MODES[0], log);
        for (int round = 1; round <= o.rounds(); round++) {
            String mode = MODES[(round - 1) % MODES.length];
            CrashHttp http = new CrashHttp(server.port());
            AtomicBoolean stop = new AtomicBoolean();
            // Armed after the load's random length: the kill then lands right after an answer arrives,
            // when a record answered before it was written would still be on its way to the file.
            AtomicReference<CountDownLatch> armed = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicInteger answers = new java.util.concurrent.atomic.AtomicInteger();
            Runnable answered = () -> {
                answers.incrementAndGet();
                CountDownLatch a = armed.get();
                if (a != null) {
                    a.countDown();
                }
            };
            List<CrashLoad> loads = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(o.workers());
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < o.workers(); w++) {
                CrashLoad load = new CrashLoad("r" + round + "w" + w, http, instances.get(w), conversations.get(w),
                        random.nextLong(), stop, answered);
                loads.add(load);
                running.add(pool.submit(load));
            }
            long loadMillis = o.minLoadMillis() + (long) (random.nextDouble() * (o.maxLoadMillis() - o.minLoadMillis()));
            // The random length counts from the first few dozen answers: a cold server on a busy machine
            // answers slowly at first, and a kill before any decision was made would prove little.
            try {
                io.signalman.Await.until(java.time.Duration.ofSeconds(60), "the first answers", () -> answers.get() >= 40);
            } catch (AssertionError slow) {
                // A very slow start: the load runs its length all the same, and the round checks what it got.
            }
            // Not a wait for a condition: the load runs this long so that the kill lands at a random moment.
            Thread.sleep(loadMillis);
            CountDownLatch answer = new CountDownLatch(1);
            armed.set(answer);
            answer.await(10, TimeUnit.SECONDS);
            server.kill();
            stop.set(true);
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            List<Op> sent = new ArrayList<>();
            loads.forEach(l -> sent.addAll(l.sent));
            for (Op op : sent) {
                if (!op.answered() && op.entity != null) {
                    op.entity.uncertain = true;
                }
            }
            CrashCheck.Losses losses = new CrashCheck.Losses();
            Verify.Report verified = Verify.check(data);
            verified.problems().forEach(p -> losses.add("data directory", p));
            // Restart in the next round's mode: a data directory does not depend on the mode it was written in.
            String next = MODES[round % MODES.length];
            server = CrashServer.start(data, next, log);
            CrashCheck.Losses found = CrashCheck.check(data, new CrashHttp(server.port()), sent, entities);
            found.byKind.forEach((k, v) -> losses.byKind.merge(k, v, Integer::sum));
            losses.lines.addAll(found.lines);
            Map<String, Integer> acked = count(sent);
            acked.forEach((k, v) -> acknowledged.merge(k, v, Integer::sum));
            losses.byKind.forEach((k, v) -> lost.merge(k, v, Integer::sum));
            lines.addAll(losses.lines);
            out.printf(Locale.ROOT, "round %d/%d (--fsync %s): killed after %.1f s; acknowledged %s; unanswered %d; lost %d%n",
                    round, o.rounds(), mode, loadMillis / 1000.0, acked, sent.stream().filter(op -> !op.answered()).count(),
                    losses.total());
            losses.lines.forEach(l -> out.println("  LOST " + l));
        }
        server.kill();
        Result result = new Result(o.rounds(), acknowledged, lost, lines);
        out.printf("crash-test: %d rounds of kill -9 under load (--fsync %s); acknowledged %s; lost %d%s%n", o.rounds(),
                String.join(", ", MODES), acknowledged, result.losses(), lost.isEmpty() ? "" : " " + lost);
        return result;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Acknowledged answers by what they acknowledged, and the idempotency answers among them. */
    private static Map<String, Integer> count(List<Op> sent) {
        Map<String, Integer> out = new TreeMap<>();
        for (Op op : sent) {
            if (op.acknowledged()) {
                out.merge(op.what() + "s", 1, Integer::sum);
                if (op.keyed) {
                    out.merge("answers", 1, Integer::sum);
                }
            }
        }
        return out;
    }

    /** For a test: the harness's work folder under {@code dir}. */
    static Options options(int rounds, long minLoadMillis, long maxLoadMillis, long seed, Path dir) throws IOException {
        return new Options(rounds, 6, minLoadMillis, maxLoadMillis, seed, Files.createDirectories(dir));
    }
}
