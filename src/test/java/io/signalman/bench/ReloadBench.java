package io.signalman.bench;

import io.signalman.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleException;
import io.signalman.engine.Engine;
import io.signalman.json.Json;
import io.signalman.replay.ReplayGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;

/**
 * SPEC 10's reload target: compile and gate a broker bundle of 1,000 generated rules (plus the
 * shipped ones), warm: a few loads first, then the median of the next ones. The gate replays the
 * broker's golden history, which the generated rules (subtypes gen.N) must leave unchanged.
 */
public final class ReloadBench {

    static final int GENERATED = 1_000;

    private ReloadBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("signalman-reload");
        Path rules = dir.resolve("rules/broker");
        Files.createDirectories(rules);
        Files.copy(TestBundles.RULES.resolve("broker/org-chart.json"), rules.resolve("org-chart.json"));
        Path fixtures = dir.resolve("fixtures/broker");
        Files.createDirectories(fixtures);
        Files.copy(TestBundles.FIXTURES.resolve("broker/history.jsonl"), fixtures.resolve("history.jsonl"),
                StandardCopyOption.REPLACE_EXISTING);
        String shipped = Files.readString(TestBundles.RULES.resolve("broker/routing.drl"));
        Engine engine = new Engine(dir.resolve("rules"), Packs.compiler(), new ReplayGate(dir.resolve("fixtures")));
        int warm = 3;
        int measured = 5;
        double[] seconds = new double[measured];
        for (int i = 0; i < warm + measured; i++) {
            Files.writeString(rules.resolve("routing.drl"), shipped + generated(i));
            long t0 = System.nanoTime();
            try {
                engine.load();
            } catch (BundleException e) {
                throw new IllegalStateException("the generated bundle was refused: " + e.errors().subList(0, 3), e);
            }
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("reload %d (%s): %.2f s%n", i + 1, i < warm ? "warm-up" : "measured", s);
            if (i >= warm) {
                seconds[i - warm] = s;
            }
        }
        Arrays.sort(seconds);
        int rules1k = engine.bundle().requirePack("broker").rules().size();
        var json = Json.object().put("rules", rules1k).put("median_seconds", seconds[measured / 2])
                .put("min_seconds", seconds[0]).put("max_seconds", seconds[measured - 1]);
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve("reload.json"), Json.write(json) + "\n");
        System.out.println("reload: " + Json.write(json));
    }

    /** 1,000 rules for subtypes the history never sends; {@code round} changes the revision. */
    private static String generated(int round) {
        StringBuilder sb = new StringBuilder("\n// generated for the reload benchmark, round " + round + "\n");
        for (int i = 0; i < GENERATED; i++) {
            sb.append("rule \"generated route ").append(i).append("\"\n")
                    .append("    @reason(\"generated subtype gen.").append(i).append("\")\n")
                    .append("    agenda-group \"route\" activation-group \"route\" salience ").append(2000 + i).append('\n')
                    .append("when\n    Message( subtype == \"gen.").append(i).append("\" )\nthen\n")
                    .append("    decide.primary(\"cfo\").fanOut(\"mission-control\");\nend\n\n");
        }
        return sb.toString();
    }
}
