package io.signalman.bench;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.util.List;

/**
 * The flat-heap target: 10 million broker decisions in one thread, heap (after GC) measured
 * after the first million and after the last. Long-lived sessions are recycled every 10,000
 * decisions; without that, Drools 10 would grow by about 0.5 KB per decision (upstream #6361).
 */
public final class HeapSoak {

    private HeapSoak() {
    }

    public static void main(String[] args) throws Exception {
        long total = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        RuleBundle bundle = TestBundles.shipped();
        List<Object> raw = HistoryInputs.of("broker");
        BrokerMessage[] inputs = raw.toArray(new BrokerMessage[0]);
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long afterFirstMillion = 0;
        long start = System.nanoTime();
        for (long i = 1; i <= total; i++) {
            Packs.BROKER.decide(bundle, inputs[(int) (i % inputs.length)], false);
            if (i == Math.min(1_000_000L, total)) {
                afterFirstMillion = usedAfterGc(mem);
            }
            if (i % 1_000_000L == 0) {
                System.out.printf("soak: %,d decisions%n", i);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long afterAll = usedAfterGc(mem);
        var json = Json.object().put("decisions", total).put("heap_after_first_million_mb", afterFirstMillion / 1048576.0)
                .put("heap_after_all_mb", afterAll / 1048576.0)
                .put("growth_mb", (afterAll - afterFirstMillion) / 1048576.0).put("seconds", seconds)
                .put("decisions_per_second", total / seconds);
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve("soak.json"), Json.write(json) + "\n");
        System.out.println("soak: " + Json.write(json));
    }

    private static long usedAfterGc(MemoryMXBean mem) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mem.getHeapMemoryUsage().getUsed();
    }
}
