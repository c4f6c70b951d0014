package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * How a pack is cut into compile units, without compiling: which files go together, that a run of
 * rules keeps every line and column of the file, and that a unit's key changes exactly when
 * something its build reads changes.
 */
class CompileUnitsTest {

    private static final String ROUTING = read("broker/routing.drl");
    private static final String HEADER = "package signalman.broker;\n\nimport io.signalman.broker.Message;\n\n"
            + "global io.signalman.broker.Route decide;\n\n";

    @Test
    void aSmallPackIsOneUnitWithEveryFileAsWritten() {
        // Given the shipped broker pack and one more file, under a policy cutting packs of 100 rules
        Map<String, String> files = Map.of("broker/routing.drl", ROUTING, "broker/more.drl", HEADER + rules(0, 3));

        // When it is planned
        List<CompileUnit> units = plan(files, new UnitPolicy(100, 256, 1));

        // Then it is one unit holding both files verbatim, expecting all 18 rules
        assertEquals(1, units.size());
        assertEquals(18, units.get(0).expectedRules());
        assertTrue(units.get(0).sources().values().containsAll(files.values()));
        assertEquals(Map.of(), units.get(0).context());
    }

    @Test
    void aLargePackIsOneUnitPerFileAndALargeFileIsCutIntoRunsOfRules() {
        // Given a file of 60 rules and one of 3, cut from 10 rules, runs of at most 16 (and at least 4)
        Map<String, String> files = Map.of("broker/big.drl", HEADER + rules(0, 60), "broker/more.drl", HEADER + rules(60, 63));

        // When it is planned
        List<CompileUnit> units = plan(files, new UnitPolicy(10, 16, 1));

        // Then big.drl is runs of at most 16 rules that cover its 60 in order, and more.drl one unit
        int next = 1;
        for (CompileUnit run : units.subList(0, units.size() - 1)) {
            assertEquals("broker/big.drl rules " + next + "-" + (next + run.expectedRules() - 1), run.label());
            assertTrue(run.expectedRules() <= 16, run.label());
            next += run.expectedRules();
        }
        assertEquals(61, next);
        assertTrue(units.size() >= 1 + 60 / 16, units.size() + " units");
        assertEquals("broker/more.drl", units.get(units.size() - 1).label());
        assertEquals(3, units.get(units.size() - 1).expectedRules());
        // And each unit sees the other file's declarations
        units.forEach(u -> assertEquals(1, u.context().size(), u.label()));
    }

    @Test
    void aFileDeclaringAFunctionKeepsItsPackWhole() {
        // Given a large pack of which one file declares a function its rules could share
        Map<String, String> files = Map.of("broker/routing.drl", ROUTING, "broker/more.drl",
                HEADER + "function String shout(String s) { return s.toUpperCase(); }\n\n" + rules(0, 4));

        // When it is planned to be cut, then it is one unit all the same
        assertEquals(1, plan(files, new UnitPolicy(0, 6, 1)).size());
    }

    @Property(tries = 60)
    void aRunOfRulesKeepsEveryRuleOfItsOwnAtItsLineAndColumn(@ForAll @IntRange(min = 0, max = 15) int a,
                                                                @ForAll @IntRange(min = 0, max = 15) int b) {
        // Given routing.drl, parsed
        DrlFile file = index(Map.of("broker/routing.drl", ROUTING)).files().get("broker/routing.drl");
        int from = Math.min(a, b);
        int to = Math.max(a, b);

        // When it keeps only rules [from, to)
        String kept = file.keepingRules(from, to);

        // Then each kept rule starts at the same line and column, the others are gone, and lines stay as many
        List<String> keptLines = kept.lines().toList();
        for (int i = 0; i < file.rules().size(); i++) {
            DrlFile.Span s = file.rules().get(i);
            String ruleText = ROUTING.substring(s.start(), s.end());
            String firstLine = ruleText.lines().findFirst().orElseThrow();
            boolean there = keptLines.get(s.line() - 1).startsWith(firstLine, file.columnOf(s));
            assertEquals(i >= from && i < to, there, "rule " + i);
            assertEquals(i >= from && i < to, kept.contains(ruleText), "rule " + i);
        }
        assertEquals(ROUTING.lines().count(), kept.lines().count());
    }

    @Test
    void aUnitsKeyChangesWithItsOwnRulesAndWithItsPackagesDeclarationsOnly() {
        // Given a pack of two files, cut per file
        UnitPolicy perFile = new UnitPolicy(0, 1_000, 1);
        Map<String, String> files = new LinkedHashMap<>(Map.of("broker/a.drl", HEADER + rules(0, 3),
                "broker/b.drl", HEADER + rules(3, 6)));
        List<String> before = keys(plan(files, perFile));

        // When a rule of a.drl changes, then only a.drl's key changes
        files.put("broker/a.drl", HEADER + rules(0, 3).replace("salience 2001", "salience 2901"));
        List<String> ruleEdited = keys(plan(files, perFile));
        assertNotEquals(before.get(0), ruleEdited.get(0));
        assertEquals(before.get(1), ruleEdited.get(1));

        // And when a.drl imports one more class, b.drl's key changes too: b's rules see a's imports
        files.put("broker/a.drl", files.get("broker/a.drl").replace("import io.signalman.broker.Message;",
                "import io.signalman.broker.Message;\nimport io.signalman.broker.OrgChart;"));
        List<String> importAdded = keys(plan(files, perFile));
        assertNotEquals(ruleEdited.get(1), importAdded.get(1));
    }

    @Test
    void anEditToOneRuleChangesTheKeyOfItsRunOnlyWhereverTheLinesMove() {
        // Given a file of 200 rules cut into runs of at most 16
        UnitPolicy runsOf16 = new UnitPolicy(0, 16, 1);
        String file = HEADER + rules(0, 200);
        List<String> before = keys(plan(Map.of("broker/big.drl", file), runsOf16));
        assertTrue(before.size() >= 200 / 16, "runs: " + before.size());

        // When a comment is added at the top, then no key changes: no compiled code would
        assertEquals(before, keys(plan(Map.of("broker/big.drl", "// a note\n// on two lines\n" + file), runsOf16)));

        // When one rule changes salience, then one key changes
        List<String> edited = keys(plan(Map.of("broker/big.drl", file.replace("salience 2100", "salience 2999")),
                runsOf16));
        assertEquals(before.size(), edited.size());
        assertEquals(1, before.stream().filter(k -> !edited.contains(k)).count());

        // When a rule is added in the middle, then most runs keep their key, though every line below moved
        String added = HEADER + rules(0, 100) + rules(1_000, 1_001) + rules(100, 200);
        List<String> inserted = keys(plan(Map.of("broker/big.drl", added), runsOf16));
        long changed = before.stream().filter(k -> !inserted.contains(k)).count();
        assertTrue(changed <= 2, changed + " of " + before.size() + " runs changed");
    }

    @Test
    void theContextOfAUnitSaysWhereEachOfItsLinesComesFrom() {
        // Given two files of one package, the second importing one more class on its line 4
        Map<String, String> files = Map.of("broker/a.drl", HEADER + rules(0, 1),
                "broker/b.drl", "package signalman.broker;\n\nimport io.signalman.broker.Message;\nimport io.signalman.broker.OrgChart;\n"
                        + "global io.signalman.broker.Route decide;\n" + rules(1, 2));

        // When a.drl's unit is planned
        CompileUnit a = plan(files, new UnitPolicy(0, 1_000, 1)).get(0);

        // Then its context holds b's declarations, each line traced back to b.drl
        Map.Entry<String, List<CompileUnit.Origin>> context = a.context().entrySet().iterator().next();
        List<String> lines = a.sources().get(context.getKey()).lines().toList();
        assertEquals("import io.signalman.broker.OrgChart", lines.get(2).strip().replace(";", ""));
        assertEquals(new CompileUnit.Origin("broker/b.drl", 4), context.getValue().get(2));
    }

    // ---- helpers ----

    private static List<CompileUnit> plan(Map<String, String> files, UnitPolicy policy) {
        return CompileUnits.plan("broker", index(files).files().values(), policy);
    }

    private static DrlIndex index(Map<String, String> files) {
        Map<String, byte[]> sorted = new java.util.TreeMap<>();
        files.forEach((k, v) -> sorted.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return DrlIndex.of(Packs.BROKER.definition(), sorted);
    }

    private static List<String> keys(List<CompileUnit> units) {
        return units.stream().map(CompileUnit::key).toList();
    }

    private static String rules(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append("rule \"generated route ").append(i).append("\"\n    @reason(\"generated\")\n")
                    .append("    agenda-group \"route\" activation-group \"route\" salience ").append(2000 + i)
                    .append("\nwhen\n    Message( subtype == \"gen.").append(i).append("\" )\nthen\n")
                    .append("    decide.primary(\"cfo\");\nend\n\n");
        }
        return sb.toString();
    }

    private static String read(String path) {
        try {
            return Files.readString(TestBundles.RULES.resolve(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
