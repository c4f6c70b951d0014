package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleCompiler;
import io.signalman.engine.BundleException;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Engine;
import io.signalman.engine.UnitPolicy;
import io.signalman.json.Json;
import io.signalman.replay.ReplayGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.Arrays;

/**
 * The reload target: compile and gate a broker bundle of 1,000 generated rules (plus the
 * shipped ones), warm: a few loads first, then the median of the next ones. The gate replays the
 * broker's golden history, which the generated rules (subtypes gen.N) must leave unchanged.
 *
 * <p>Three edits, each on its own engine (so its own compile cache):
 * <ul>
 * <li>{@code whole_file}: the 1,000 rules follow the shipped ones in routing.drl, and every one
 *     of them changes every round (its reason names the round), so all of them are compiled
 *     again: the worst case, and what every reload cost before units;</li>
 * <li>{@code one_file_changed}: the analyst's case, the 1,000 rules in ten files of 100 next to
 *     routing.drl, one of which changes every round (one rule's reason);</li>
 * <li>{@code one_rule_changed}: the 1,000 rules in routing.drl, one rule's reason changing every
 *     round (no line moves).</li>
 * </ul>
 * {@code -Dbench.reload.maxRulesPerUnit=N} and {@code -Dbench.reload.threads=N} try another
 * {@link UnitPolicy}.
 */
public final class ReloadBench {

    static final int GENERATED = 1_000;
    static final int FILES = 10;
    /**
     * Reloads before any is measured. A whole-file rebuild runs javaparser and ECJ, which the JIT
     * keeps compiling for about seven reloads (measured: 7.3, 3.0, 3.6, 2.2, 2.1, 5.0, 1.7, then
     * 1.6-1.8 s); three warm-ups measured a half-compiled compiler.
     */
    private static final int WARM = Integer.getInteger("bench.reload.warm", 10);
    private static final int MEASURED = 5;

    private ReloadBench() {
    }

    /** What round {@code round} writes into the broker folder. */
    private interface Edit {
        void write(Path broker, int round) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        UnitPolicy policy = new UnitPolicy(UnitPolicy.DEFAULT.splitAtRules(),
                Integer.getInteger("bench.reload.maxRulesPerUnit", UnitPolicy.DEFAULT.maxRulesPerUnit()),
                Integer.getInteger("bench.reload.threads", UnitPolicy.DEFAULT.threads()));
        ObjectNode json = Json.object();
        json.putObject("policy").put("split_at_rules", policy.splitAtRules())
                .put("max_rules_per_unit", policy.maxRulesPerUnit()).put("threads", policy.threads());
        String shipped = Files.readString(TestBundles.RULES.resolve("broker/routing.drl"));
        json.set("whole_file", run("whole_file", policy, 1, (broker, round) -> Files.writeString(
                broker.resolve("routing.drl"), shipped + "\n" + rules(0, GENERATED, i -> true, round))));
        json.set("one_file_changed", run("one_file_changed", policy, FILES, (broker, round) -> {
            int per = GENERATED / FILES;
            for (int f = 0; f < FILES; f++) {
                // Round 0 writes every file; each later round rewrites one, changing one rule's reason.
                if (round == 0 || f == round % FILES) {
                    int touched = round == 0 ? -1 : f * per + round % per;
                    Files.writeString(broker.resolve(String.format("generated-%02d.drl", f)), HEADER
                            + rules(f * per, (f + 1) * per, i -> i == touched, round));
                }
            }
        }));
        json.set("one_rule_changed", run("one_rule_changed", policy, 1, (broker, round) -> Files.writeString(
                broker.resolve("routing.drl"), shipped + "\n" + rules(0, GENERATED, i -> round > 0 && i == GENERATED / 2, round))));
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve("reload.json"), Json.write(json) + "\n");
        System.out.println("reload: " + Json.write(json));
    }

    private static ObjectNode run(String name, UnitPolicy policy, int files, Edit edit) throws Exception {
        Path dir = Files.createTempDirectory("signalman-reload");
        Path broker = dir.resolve("rules/broker");
        Files.createDirectories(broker);
        Files.copy(TestBundles.RULES.resolve("broker/org-chart.json"), broker.resolve("org-chart.json"));
        Files.copy(TestBundles.RULES.resolve("broker/routing.drl"), broker.resolve("routing.drl"));
        Path fixtures = dir.resolve("fixtures/broker");
        Files.createDirectories(fixtures);
        Files.copy(TestBundles.FIXTURES.resolve("broker/history.jsonl"), fixtures.resolve("history.jsonl"),
                StandardCopyOption.REPLACE_EXISTING);
        BundleCompiler compiler = new BundleCompiler(Packs.all().stream().map(DecisionPack::definition).toList(),
                Clock.systemUTC(), policy);
        Engine engine = new Engine(dir.resolve("rules"), compiler, new ReplayGate(dir.resolve("fixtures")));
        double[] seconds = new double[MEASURED];
        double first = Double.NaN;
        long[] built = new long[MEASURED];
        for (int i = 0; i < WARM + MEASURED; i++) {
            edit.write(broker, i);
            long before = compiler.unitsBuilt();
            long t0 = System.nanoTime();
            try {
                engine.load();
            } catch (BundleException e) {
                throw new IllegalStateException("the generated bundle was refused: "
                        + e.errors().subList(0, Math.min(3, e.errors().size())), e);
            }
            double s = (System.nanoTime() - t0) / 1e9;
            long units = compiler.unitsBuilt() - before;
            System.out.printf("%s reload %d (%s): %.2f s, %d units built%n", name, i + 1, i < WARM ? "warm-up" : "measured",
                    s, units);
            if (i == 0) {
                first = s;
            }
            if (i >= WARM) {
                seconds[i - WARM] = s;
                built[i - WARM] = units;
            }
        }
        Arrays.sort(seconds);
        Arrays.sort(built);
        int rules = engine.bundle().requirePack("broker").rules().size();
        return Json.object().put("rules", rules).put("generated_files", files)
                .put("median_seconds", seconds[MEASURED / 2]).put("min_seconds", seconds[0])
                .put("max_seconds", seconds[MEASURED - 1]).put("first_seconds", first).put("warm_up_reloads", WARM).put("median_units_built", built[MEASURED / 2])
                .put("units_cached", compiler.unitsCached());
    }

    private static final String HEADER = "package signalman.broker;\n\nimport io.signalman.broker.Message;\n\n"
            + "global io.signalman.broker.Route decide;\n\n";

    /**
     * Rules {@code from..to-1}, for subtypes the history never sends; the touched ones say in
     * their reason that they were edited in {@code round}.
     */
    private static String rules(int from, int to, java.util.function.IntPredicate touched, int round) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            String reason = "generated subtype gen." + i + (touched.test(i) ? ", edited in round " + round : "");
            sb.append("rule \"generated route ").append(i).append("\"\n")
                    .append("    @reason(\"").append(reason).append("\")\n")
                    .append("    agenda-group \"route\" activation-group \"route\" salience ").append(2000 + i).append('\n')
                    .append("when\n    Message( subtype == \"gen.").append(i).append("\" )\nthen\n")
                    .append("    decide.primary(\"cfo\").fanOut(\"mission-control\");\nend\n\n");
        }
        return sb.toString();
    }
}
