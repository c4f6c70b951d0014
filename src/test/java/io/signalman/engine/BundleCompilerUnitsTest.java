package io.signalman.engine;

import static io.signalman.TestBundles.lineOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.RouteDecision;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.Replayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental compilation: a pack cut into units rebuilds only the units whose sources changed,
 * and the bundle it assembles decides exactly as a compile from scratch does, whatever was
 * edited, moved or deleted, and whichever units came from the cache.
 *
 * <p>The broker pack here is the shipped routing.drl and three generated files of four rules
 * (subtypes gen.N, which the golden history never sends, each to its own agent), cut per file.
 */
class BundleCompilerUnitsTest {

    /** Every pack cut per file, files never cut further. */
    private static final UnitPolicy PER_FILE = new UnitPolicy(0, 1_000, 2);
    /** Every pack cut per file, and every file into runs of two to eight rules. */
    private static final UnitPolicy CUT_SMALL = new UnitPolicy(0, 8, 2);
    private static final String HEADER = """
            package signalman.broker;

            import io.signalman.broker.Message;

            global io.signalman.broker.Route decide;

            """;

    /** Recipients the org chart has cards for; generated rule i sends to agent(i). */
    private static final List<String> AGENTS = List.of("knox", "openclaw", "cfo", "vp-trading", "vp-engineering",
            "vp-content", "sr-director-signals", "sr-director-tooling", "foresight", "sports-agent", "political-agent",
            "perpetuals-bot", "indecision-engine", "mission-control", "sentinel", "memory-service", "advisory-system",
            "content-writer", "social-agent", "tool-smith", "risk-monitor", "treasury-agent");

    @TempDir
    Path tmp;

    @Test
    void theGoldenHistoryDecidesTheSameWhenEveryPackIsCutIntoSmallUnits() throws Exception {
        // Given the shipped rules, every pack cut per file and every file into runs of at most eight rules
        BundleCompiler compiler = compiler(CUT_SMALL);

        // When they are compiled and the whole golden history replayed
        RuleBundle cut = compiler.compile(BundleFiles.read(TestBundles.RULES));
        ReplayReport report = new Replayer(cut, null, null).replay(Archive.read(List.of(TestBundles.FIXTURES)));

        // Then every recorded decision comes out again and every rule is exercised
        assertTrue(compiler.unitsBuilt() > Packs.all().size(), "the packs were cut: " + compiler.unitsBuilt());
        assertTrue(report.passed(), report::toText);
        assertEquals(report.counts().records(), report.counts().unchanged());
        assertEquals(Map.of(), report.neverFired());
    }

    @Test
    void aChangeToOneFileRebuildsOnlyThatFileAndDecidesAsAFreshCompile() throws Exception {
        // Given a compiled broker pack of four files
        Path rules = brokerWithGeneratedFiles();
        BundleCompiler compiler = compiler(PER_FILE);
        compiler.compile(BundleFiles.read(rules));
        assertEquals(4, compiler.unitsBuilt());

        // When one rule of one generated file routes elsewhere, and the bundle is compiled again
        TestBundles.edit(rules.resolve("broker/gen-b.drl"), primary(5), "decide.primary(\"watchdog\")");
        RuleBundle incremental = compiler.compile(BundleFiles.read(rules));

        // Then only that file was rebuilt, and the bundle decides as one compiled from scratch
        assertEquals(5, compiler.unitsBuilt());
        assertEquals(3, compiler.unitsReused());
        assertEquals(List.of("watchdog"), decide(incremental, "gen.5").outcome().primaryRecipients());
        assertDecidesAsFreshCompiles(incremental, rules);
    }

    @Test
    void aBadEditToOneFileIsRefusedAtItsLineAndTheOldBundleKeepsServing() throws Exception {
        // Given an engine serving the four-file broker pack
        Path rules = brokerWithGeneratedFiles();
        BundleCompiler compiler = compiler(PER_FILE);
        Engine engine = new Engine(rules, compiler);
        RuleBundle good = engine.load();

        // When a consequence in one generated file calls a method the decision API lacks
        Path genC = rules.resolve("broker/gen-c.drl");
        TestBundles.edit(genC, primary(9), primary(9).replace("primary", "primry"));
        BundleException refused = assertThrows(BundleException.class, engine::load);

        // Then it is refused once, at that file and line, naming the rule; the old bundle serves on
        assertEquals(1, refused.errors().size(), refused.errors()::toString);
        BundleError error = refused.errors().get(0);
        assertEquals("broker/gen-c.drl", error.file());
        assertEquals(lineOf(genC, "decide.primry("), error.line());
        assertTrue(error.message().contains("generated route 9"), error.message());
        assertEquals(good.revision(), engine.bundle().revision());
        assertEquals(List.of(agent(9)), decide(engine.bundle(), "gen.9").outcome().primaryRecipients());

        // And when it is fixed, only that file is rebuilt
        TestBundles.edit(genC, primary(9).replace("primary", "primry"), "decide.primary(\"watchdog\")");
        long before = compiler.unitsBuilt();
        engine.load();
        assertEquals(1, compiler.unitsBuilt() - before);
        assertEquals(List.of("watchdog"), decide(engine.bundle(), "gen.9").outcome().primaryRecipients());
    }

    @Test
    void aConsequenceTheJavaParserRejectsRefusesTheBundleAtItsFileNeverAHalfBuiltOne() throws Exception {
        // Given a compiled four-file broker pack, then a consequence missing its closing parenthesis in gen-b
        Path rules = brokerWithGeneratedFiles();
        BundleCompiler compiler = compiler(PER_FILE);
        compiler.compile(BundleFiles.read(rules));
        TestBundles.edit(rules.resolve("broker/gen-b.drl"), primary(6) + ";", primary(6).replace(")", "") + ";");

        // When it is compiled again, then it is refused at gen-b.drl, whose unit Drools built without the rule
        BundleException refused = assertThrows(BundleException.class, () -> compiler.compile(BundleFiles.read(rules)));
        assertTrue(refused.errors().stream().allMatch(e -> e.file().equals("broker/gen-b.drl")), refused.errors()::toString);
    }

    @Test
    void aRuleMovedToAnotherFileOrDeletedBehavesAsAFreshCompile() throws Exception {
        // Given a compiled four-file broker pack
        Path rules = brokerWithGeneratedFiles();
        BundleCompiler compiler = compiler(PER_FILE);
        compiler.compile(BundleFiles.read(rules));

        // When rule 2 moves from gen-a to gen-c, and rule 6 is deleted from gen-b
        String moved = rule(2);
        TestBundles.edit(rules.resolve("broker/gen-a.drl"), moved, "");
        Files.writeString(rules.resolve("broker/gen-c.drl"), moved, StandardOpenOption.APPEND);
        TestBundles.edit(rules.resolve("broker/gen-b.drl"), rule(6), "");
        RuleBundle incremental = compiler.compile(BundleFiles.read(rules));

        // Then the moved rule decides from its new file, the deleted one is gone, and all else is as from scratch
        assertEquals(7, compiler.unitsBuilt(), "three files changed");
        Decision<RouteDecision> d2 = decide(incremental, "gen.2");
        assertEquals("broker/gen-c.drl", d2.decidedBy().file());
        assertEquals(List.of(agent(2)), d2.outcome().primaryRecipients());
        assertTrue(incremental.requirePack("broker").rules().stream().noneMatch(r -> r.name().equals("generated route 6")));
        assertFalse("generated route 6".equals(decide(incremental, "gen.6").decidedBy().name()));
        assertDecidesAsFreshCompiles(incremental, rules);
    }

    @Test
    void aSalienceChangeInOneFileReordersFirstMatchAcrossFiles() throws Exception {
        // Given a rule in gen-a that also matches trade.entry, below the shipped trade rule (700)
        Path rules = brokerWithGeneratedFiles();
        Files.writeString(rules.resolve("broker/gen-a.drl"), tradeRule(650), StandardOpenOption.APPEND);
        BundleCompiler compiler = compiler(PER_FILE);
        RuleBundle before = compiler.compile(BundleFiles.read(rules));
        assertEquals("trade messages go to VP Trading", decide(before, "trade.entry").decidedBy().name());

        // When its salience rises above the trade rule's, in gen-a only
        TestBundles.edit(rules.resolve("broker/gen-a.drl"), "salience 650", "salience 750");
        RuleBundle after = compiler.compile(BundleFiles.read(rules));

        // Then it decides trades, only gen-a was rebuilt, and a fresh compile agrees
        assertEquals(5, compiler.unitsBuilt());
        Decision<RouteDecision> d = decide(after, "trade.entry");
        assertEquals("trades are watched by the CFO", d.decidedBy().name());
        assertEquals(1, d.evaluation().fired().stream().filter(RuleInfo::decides).count());
        assertDecidesAsFreshCompiles(after, rules);
    }

    @Test
    void equalSalienceAcrossFilesResolvesToTheFileWhosePathSortsFirst() throws Exception {
        // Given the same tying rule (salience 700, like the trade rule) in a file sorting before routing.drl
        Path rules = brokerWithGeneratedFiles();
        Files.writeString(rules.resolve("broker/gen-a.drl"), tradeRule(700), StandardOpenOption.APPEND);
        BundleCompiler compiler = compiler(PER_FILE);

        // When it is compiled, then it decides (gen-a.drl loads before routing.drl)
        RuleBundle first = compiler.compile(BundleFiles.read(rules));
        assertEquals("trades are watched by the CFO", decide(first, "trade.entry").decidedBy().name());

        // And when it moves to a file sorting after routing.drl, the trade rule decides again
        TestBundles.edit(rules.resolve("broker/gen-a.drl"), tradeRule(700), "");
        Files.writeString(rules.resolve("broker/zz-watch.drl"), HEADER + tradeRule(700));
        RuleBundle moved = compiler.compile(BundleFiles.read(rules));
        assertEquals("trade messages go to VP Trading", decide(moved, "trade.entry").decidedBy().name());
        assertDecidesAsFreshCompiles(moved, rules);
    }

    @Test
    void aFileMayUseTheImportsAndGlobalOfAnotherFileOfItsPackage() throws Exception {
        // Given a file with rules only: its package's other files import Message and declare decide
        Path rules = brokerWithGeneratedFiles();
        Files.writeString(rules.resolve("broker/gen-d.drl"), "package signalman.broker;\n\n" + rule(20));
        BundleCompiler compiler = compiler(PER_FILE);

        // When the pack is compiled in units, then that file compiles and decides
        RuleBundle bundle = compiler.compile(BundleFiles.read(rules));
        assertEquals(List.of(agent(20)), decide(bundle, "gen.20").outcome().primaryRecipients());

        // And a bad import in another file is reported once, at its own line, though every unit saw it
        TestBundles.edit(rules.resolve("broker/gen-a.drl"), "import io.signalman.broker.Message;",
                "import io.signalman.broker.Message;\nimport io.signalman.broker.NoSuchFact;");
        BundleException refused = assertThrows(BundleException.class, () -> compiler.compile(BundleFiles.read(rules)));
        List<String> at = refused.errors().stream().map(e -> e.file() + ":" + e.line()).distinct().toList();
        assertEquals(List.of("broker/gen-a.drl:" + lineOf(rules.resolve("broker/gen-a.drl"), "NoSuchFact")), at,
                refused.errors()::toString);
    }

    @Test
    void anEditInsideALargeFileRebuildsOnlyTheRunOfRulesItIsIn() throws Exception {
        // Given routing.drl (15 rules) cut into runs of at most eight
        Path rules = brokerWithGeneratedFiles();
        BundleCompiler compiler = compiler(CUT_SMALL);
        compiler.compile(BundleFiles.read(rules));
        long before = compiler.unitsBuilt();
        assertTrue(before > 4, "routing.drl was cut: " + before + " units");

        // When one rule's salience changes
        TestBundles.edit(rules.resolve("broker/routing.drl"), "salience 700", "salience 701");
        RuleBundle after = compiler.compile(BundleFiles.read(rules));

        // Then one unit is rebuilt and the bundle decides as from scratch
        assertEquals(1, compiler.unitsBuilt() - before);
        assertEquals(701, after.requirePack("broker").rules().stream()
                .filter(r -> r.name().equals("trade messages go to VP Trading")).findFirst().orElseThrow().salience());
        assertDecidesAsFreshCompiles(after, rules);
    }

    @Test
    void aTypoInARunOfALargeFileIsReportedAtItsOwnLineNamingTheRule() throws Exception {
        // Given routing.drl cut into runs of at most eight, and a typo in the consequence of its twelfth rule
        Path rules = brokerWithGeneratedFiles();
        Path routing = rules.resolve("broker/routing.drl");
        TestBundles.edit(routing, "decide.primary(\"sr-director-tooling\")", "decide.primry(\"sr-director-tooling\")");

        // When it is compiled
        BundleException refused = assertThrows(BundleException.class, () -> compiler(CUT_SMALL).compile(BundleFiles.read(rules)));

        // Then the one error is at that line of routing.drl, naming the rule
        assertEquals(1, refused.errors().size(), refused.errors()::toString);
        assertEquals("broker/routing.drl", refused.errors().get(0).file());
        assertEquals(lineOf(routing, "decide.primry("), refused.errors().get(0).line());
        assertTrue(refused.errors().get(0).message().contains("tool messages go to the Sr. Director of Tooling"),
                refused.errors()::toString);
    }

    @Test
    void theCacheHoldsTheUnitsOfTheLastTwoCompilesHoweverManyReloads() throws Exception {
        // Given a four-file broker pack
        Path rules = brokerWithGeneratedFiles();
        BundleCompiler compiler = compiler(PER_FILE);

        // When each of twelve reloads changes the reason of a rule in another file
        for (int round = 0; round < 12; round++) {
            Path file = rules.resolve("broker/gen-" + "abc".charAt(round % 3) + ".drl");
            TestBundles.edit(file, "\")\n    agenda-group", ", round " + round + "\")\n    agenda-group");
            compiler.compile(BundleFiles.read(rules));

            // Then the cache holds the four units of this bundle and the one changed unit of the last
            assertTrue(compiler.unitsCached() <= 5, "round " + round + ": " + compiler.unitsCached());
        }
        assertEquals(4 + 11, compiler.unitsBuilt());
    }

    // ---- helpers ----

    private static BundleCompiler compiler(UnitPolicy policy) {
        return new BundleCompiler(Packs.all().stream().map(DecisionPack::definition).toList(), Clock.systemUTC(), policy);
    }

    /** The broker pack alone: shipped routing.drl and org chart, gen-a/b/c.drl with rules 0-3, 4-7, 8-11. */
    private Path brokerWithGeneratedFiles() throws IOException {
        Path rules = tmp.resolve("rules");
        Files.createDirectories(rules.resolve("broker"));
        for (String f : List.of("routing.drl", "org-chart.json")) {
            Files.copy(TestBundles.RULES.resolve("broker").resolve(f), rules.resolve("broker").resolve(f));
        }
        for (int f = 0; f < 3; f++) {
            StringBuilder sb = new StringBuilder(HEADER);
            for (int i = 4 * f; i < 4 * f + 4; i++) {
                sb.append(rule(i));
            }
            Files.writeString(rules.resolve("broker/gen-" + "abc".charAt(f) + ".drl"), sb.toString());
        }
        return rules;
    }

    private static String rule(int i) {
        return "rule \"generated route " + i + "\"\n"
                + "    @reason(\"generated subtype gen." + i + "\")\n"
                + "    agenda-group \"route\" activation-group \"route\" salience " + (2000 + i) + "\n"
                + "when\n    Message( subtype == \"gen." + i + "\" )\nthen\n"
                + "    " + primary(i) + ";\nend\n\n";
    }

    private static String agent(int i) {
        return AGENTS.get(i % AGENTS.size());
    }

    private static String primary(int i) {
        return "decide.primary(\"" + agent(i) + "\")";
    }

    private static String tradeRule(int salience) {
        return "rule \"trades are watched by the CFO\"\n"
                + "    @reason(\"subtype starts with trade.; the CFO watches trades\")\n"
                + "    agenda-group \"route\" activation-group \"route\" salience " + salience + "\n"
                // Audit trades too, so neither it nor the trade rule always pre-empts the other.
                + "when\n    Message( subtype str[startsWith] \"trade.\" || subtype == \"audit.trade\" )\nthen\n"
                + "    decide.primary(\"cfo\");\nend\n\n";
    }

    private static Decision<RouteDecision> decide(RuleBundle bundle, String subtype) {
        return Packs.BROKER.decide(bundle, new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"),
                "event", subtype, null), false);
    }

    /**
     * The incremental bundle decides every generated subtype, every shipped kind of message and
     * every input of the broker's golden history exactly as the same files compiled from scratch,
     * cut the same way and as one whole pack.
     */
    private static void assertDecidesAsFreshCompiles(RuleBundle incremental, Path rules) throws Exception {
        List<String> subtypes = new ArrayList<>(IntStream.range(0, 21).mapToObj(i -> "gen." + i).toList());
        subtypes.addAll(List.of("trade.entry", "trade.executed", "service.offline", "content.published", "tool.installed",
                "memory.commit", "report.daily", "other"));
        Archive history = Archive.read(List.of(TestBundles.FIXTURES.resolve("broker")));
        for (BundleCompiler fresh : List.of(compiler(PER_FILE), Packs.compiler())) {
            RuleBundle scratch = fresh.compile(BundleFiles.read(rules));
            for (String subtype : subtypes) {
                Decision<RouteDecision> a = decide(incremental, subtype);
                Decision<RouteDecision> b = decide(scratch, subtype);
                assertEquals(b.outcome(), a.outcome(), subtype);
                assertEquals(b.evaluation().fired(), a.evaluation().fired(), subtype);
            }
            ReplayReport report = new Replayer(incremental, scratch, null).replay(history);
            assertEquals(report.counts().records(), report.counts().unchanged(), report::toText);
        }
    }

}
