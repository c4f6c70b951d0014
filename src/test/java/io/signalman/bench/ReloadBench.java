package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.bench.TimedReloads.Reload;
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
import java.util.LinkedHashMap;
import java.util.Map;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;

/**
 * The reload target: compile and gate a broker bundle of 1,000 generated rules (plus the
 * shipped ones), warm: a few loads first, then the median of the next ones. The gate replays the
 * broker's golden history, which the generated rules (subtypes gen.N) must leave unchanged.
 *
 * <p>Three edits, each on its own engine (so its own compile cache), and a floor:
 * <ul>
 * <li>{@code whole_file}: the 1,000 rules follow the shipped ones in routing.drl, and every one
 *     of them changes every round (its reason names the round), so all of them are compiled
 *     again: the worst case, and what every reload cost before units;</li>
 * <li>{@code bare_drools}: the floor, the same routing.drl as {@code whole_file}, round for round,
 *     built by bare Drools ({@link BareDrools}: the executable model, no lint, no gate). It is
 *     measured in turn with {@code whole_file}, round by round, so that their ratio compares two
 *     builds on the same machine at the same moment;</li>
 * <li>{@code one_file_changed}: the analyst's case, the 1,000 rules in ten files of 100 next to
 *     routing.drl, one of which changes every round (one rule's reason);</li>
 * <li>{@code one_rule_changed}: the 1,000 rules in routing.drl, one rule's reason changing every
 *     round (no line moves).</li>
 * </ul>
 * {@code -Dbench.reload.maxRulesPerUnit=N} and {@code -Dbench.reload.threads=N} try another
 * {@link UnitPolicy}. For a quick try of the harness only, never for figures:
 * {@code -Dbench.reload.generated=50 -Dbench.reload.warm=1 -Dbench.reload.only=bare_drools}.
 */
public final class ReloadBench {

    static final int GENERATED = Integer.getInteger("bench.reload.generated", 1_000);
    static final int FILES = 10;
    /**
     * Reloads before any is measured. A whole-file rebuild runs javaparser and ECJ, which the JIT
     * keeps compiling for about seven reloads (measured: 7.3, 3.0, 3.6, 2.2, 2.1, 5.0, 1.7, then
     * 1.6-1.8 s); three warm-ups measured a half-compiled compiler.
     */
    private static final int WARM = Integer.getInteger("bench.reload.warm", 10);
    private static final int MEASURED = 5;
    /** Runs only the reload of this name; reload.json then holds only it. */
    private static final String ONLY = System.getProperty("bench.reload.only");

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
        // whole_file first: its first reload is the run's cold one, as before the floor was added.
        Map<String, Reload> wholeAndFloor = new LinkedHashMap<>();
        if (wanted("whole_file")) {
            wholeAndFloor.put("whole_file", signalman(policy, 1, (broker, round) -> Files.writeString(
                    broker.resolve("routing.drl"), wholeFile(shipped, round))));
        }
        if (wanted("bare_drools")) {
            wholeAndFloor.put("bare_drools", bare(shipped));
        }
        json.setAll(TimedReloads.measure(wholeAndFloor, WARM, MEASURED));
        if (wanted("one_file_changed")) {
            json.setAll(TimedReloads.measure(Map.of("one_file_changed", signalman(policy, FILES, (broker, round) -> {
                int per = GENERATED / FILES;
                for (int f = 0; f < FILES; f++) {
                    // Round 0 writes every file; each later round rewrites one, changing one rule's reason.
                    if (round == 0 || f == round % FILES) {
                        int touched = round == 0 ? -1 : f * per + round % per;
                        Files.writeString(broker.resolve(String.format("generated-%02d.drl", f)), HEADER
                                + rules(f * per, (f + 1) * per, i -> i == touched, round));
                    }
                }
            })), WARM, MEASURED));
        }
        if (wanted("one_rule_changed")) {
            json.setAll(TimedReloads.measure(Map.of("one_rule_changed", signalman(policy, 1, (broker, round) -> Files.writeString(
                    broker.resolve("routing.drl"), shipped + "\n" + rules(0, GENERATED, i -> round > 0 && i == GENERATED / 2, round)))),
                    WARM, MEASURED));
        }
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve("reload.json"), Json.write(json) + "\n");
        System.out.println("reload: " + Json.write(json));
    }

    private static boolean wanted(String name) {
        return ONLY == null || java.util.List.of(ONLY.split(",")).contains(name);
    }

    /** routing.drl of the whole-file edit in round {@code round}: the shipped rules, then every generated one, each changed. */
    private static String wholeFile(String shipped, int round) {
        return shipped + "\n" + rules(0, GENERATED, i -> true, round);
    }

    /** Signalman's reload (compile, lint, gate) of a broker folder that {@code edit} changes each round. */
    private static Reload signalman(UnitPolicy policy, int files, Edit edit) throws Exception {
        Path dir = Files.createTempDirectory("signalman-reload");
        Path broker = dir.resolve("rules/broker");
        Files.createDirectories(broker);
        Files.copy(TestBundles.RULES.resolve("broker/org-chart.json"), broker.resolve("org-chart.json"));
        Files.copy(TestBundles.RULES.resolve("broker/routing.drl"), broker.resolve("routing.drl"));
        Path fixtures = dir.resolve("fixtures/broker");
        Files.createDirectories(fixtures);
        Files.copy(TestBundles.BROKER_HISTORY, fixtures.resolve("history.jsonl"),
                StandardCopyOption.REPLACE_EXISTING);
        BundleCompiler compiler = new BundleCompiler(Packs.all().stream().map(DecisionPack::definition).toList(),
                Clock.systemUTC(), policy);
        Engine engine = new Engine(dir.resolve("rules"), compiler, new ReplayGate(dir.resolve("fixtures")));
        return new Reload() {
            @Override
            public void prepare(int round) throws Exception {
                edit.write(broker, round);
            }

            @Override
            public long load() {
                long before = compiler.unitsBuilt();
                try {
                    engine.load();
                } catch (BundleException e) {
                    throw new IllegalStateException("the generated bundle was refused: "
                            + e.errors().subList(0, Math.min(3, e.errors().size())), e);
                }
                return compiler.unitsBuilt() - before;
            }

            @Override
            public void describe(ObjectNode figures) {
                figures.put("rules", engine.bundle().requirePack("broker").rules().size()).put("generated_files", files)
                        .put("units_cached", compiler.unitsCached());
            }
        };
    }

    /**
     * The whole-file edit's routing.drl built by bare Drools, under the folder its package names.
     * Every build must hold every rule, the shipped ones and the generated ones: a build that
     * quietly dropped some would be a floor too low. The previous build is released before the
     * clock starts.
     */
    private static Reload bare(String shipped) throws DroolsParserException {
        int expected = ruleCount(shipped) + GENERATED;
        BareDrools drools = new BareDrools();
        return new Reload() {
            private String text;

            @Override
            public void prepare(int round) {
                text = wholeFile(shipped, round);
                drools.release();
            }

            @Override
            public long load() {
                int built = BareDrools.rules(drools.build(Map.of("signalman/broker/routing.drl", text)));
                if (built != expected) {
                    throw new IllegalStateException("bare Drools built " + built + " rules, not the " + expected + " of the file");
                }
                return -1;
            }

            @Override
            public void describe(ObjectNode figures) {
                figures.put("rules", expected).put("generated_files", 1);
            }

            @Override
            public void close() {
                drools.close();
            }
        };
    }

    /** The rules of a DRL text, as Drools' own parser reads them. */
    private static int ruleCount(String drl) throws DroolsParserException {
        DrlParser parser = new DrlParser();
        var descr = parser.parse(false, drl);
        if (parser.hasErrors() || descr == null) {
            throw new IllegalStateException("the shipped routing.drl does not parse: " + parser.getErrors());
        }
        return descr.getRules().size();
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
