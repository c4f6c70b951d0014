package io.signalman.engine;

import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.RouteDecision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle is all or nothing, its conventions are enforced, its reference
 * data is checked like code, and every error is located in the analyst's own file.
 *
 * <p>Each test edits its own copy of the shipped rules; compiling is the slow part, so each test
 * compiles at most twice.
 */
class BundleCompilerTest {

    private static final String ROUTING = "broker/routing.drl";
    private static final String ORG_CHART = "broker/org-chart.json";
    private static final String TRADE_RULE = "trade messages go to VP Trading";
    private static final String TRADE_RULE_HEADER = "rule \"" + TRADE_RULE + "\"";
    private static final String RULE_AFTER_TRADE = "rule \"InDecision Engine signals go to every trading agent\"";

    /**
     * A deciding rule that ties with the trade rule on salience and routes trades elsewhere. It also
     * takes audit trades, so neither rule always pre-empts the other (which check would refuse).
     */
    private static final String CFO_TRADE_RULE = """
            rule "trade messages go to the CFO"
                @reason("subtype starts with trade.; the CFO watches every trade")
                agenda-group "route" activation-group "route" salience 700
            when
                Message( subtype str[startsWith] "trade." || subtype == "audit.trade" )
            then
                decide.primary("cfo");
            end

            """;

    @TempDir
    Path tmp;

    // ---- revision ----

    @Test
    void revisionIsSha256OfTheContentAndTheSameForACopyInAnotherFolder() throws Exception {
        // Given two copies of the same rules in different folders
        Path one = copyOfRules(tmp.resolve("one"));
        Path two = copyOfRules(tmp.resolve("two"));

        // When each is read (twice for the first)
        String first = BundleFiles.read(one).revision();
        String again = BundleFiles.read(one).revision();
        String copy = BundleFiles.read(two).revision();

        // Then the revision is sha256 over the content, and does not depend on where the folder is
        assertTrue(first.matches("sha256:[0-9a-f]{64}"), first);
        assertEquals(first, again);
        assertEquals(first, copy);
    }

    @Test
    void revisionChangesWhenOneByteOfTheDrlChanges() throws Exception {
        // Given a copy and its revision
        Path rules = copyOfRules(tmp);
        String before = BundleFiles.read(rules).revision();

        // When one byte of the DRL changes (salience 700 -> 701)
        edit(rules.resolve(ROUTING), "salience 700", "salience 701");

        // Then the revision changes
        assertNotEquals(before, BundleFiles.read(rules).revision());
    }

    @Test
    void revisionChangesWhenOneByteOfTheReferenceDataChanges() throws Exception {
        // Given a copy and its revision
        Path rules = copyOfRules(tmp);
        String before = BundleFiles.read(rules).revision();

        // When one byte of the org chart changes (Knox -> Knix)
        edit(rules.resolve(ORG_CHART), "\"name\": \"Knox\"", "\"name\": \"Knix\"");

        // Then the revision changes
        assertNotEquals(before, BundleFiles.read(rules).revision());
    }

    // ---- DRL errors ----

    @Test
    void aTypoInAConsequenceIsRefusedAtTheLineOfThatConsequenceNamingTheRule() throws Exception {
        // Given the trade rule's consequence calls a method the decision API does not have
        Path rules = copyOfRules(tmp);
        Path drl = rules.resolve(ROUTING);
        edit(drl, "decide.primary(\"vp-trading\")", "decide.primry(\"vp-trading\")");
        int consequenceLine = lineOf(drl, "decide.primry(");

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then the error is in the analyst's file, at the consequence, naming the rule
        BundleError error = only(refused, ROUTING);
        assertEquals(consequenceLine, error.line(), () -> "expected line " + consequenceLine + ": " + refused.errors());
        assertTrue(error.message().contains(TRADE_RULE), error.message());
    }

    @Test
    void aDrlSyntaxErrorIsRefusedWithTheFileAndALine() throws Exception {
        // Given a rule whose "when" is misspelt
        Path rules = copyOfRules(tmp);
        edit(rules.resolve(ROUTING), "salience 700\nwhen", "salience 700\nwhn");

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then the error names the file and a line in it
        assertTrue(refused.errors().stream().anyMatch(e -> e.file().equals(ROUTING) && e.line() > 0),
                () -> refused.errors().toString());
    }

    @Test
    void aDecidingRuleWithoutReasonIsRefusedAtTheRulesLineNamingIt() throws Exception {
        // Given the trade rule has lost its @reason
        Path rules = copyOfRules(tmp);
        Path drl = rules.resolve(ROUTING);
        edit(drl, "    @reason(\"subtype starts with trade.\")\n", "");
        int ruleLine = lineOf(drl, TRADE_RULE_HEADER);

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then it is refused at the rule, naming it and saying what is missing
        BundleError error = only(refused, ROUTING);
        assertEquals(ruleLine, error.line(), () -> refused.errors().toString());
        assertTrue(error.message().contains(TRADE_RULE), error.message());
        assertTrue(error.message().contains("@reason"), error.message());
    }

    @Test
    void aRuleInAnAgendaGroupThePackDoesNotHaveIsRefused() throws Exception {
        // Given the trade rule is in agenda-group "routing", which the broker pack never focuses
        Path rules = copyOfRules(tmp);
        Path drl = rules.resolve(ROUTING);
        edit(drl, "agenda-group \"route\" activation-group \"route\" salience 700",
                "agenda-group \"routing\" activation-group \"route\" salience 700");
        int ruleLine = lineOf(drl, TRADE_RULE_HEADER);

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then it is refused at that rule, naming the rule and the unknown group
        BundleError error = only(refused, ROUTING);
        assertEquals(ruleLine, error.line(), () -> refused.errors().toString());
        assertTrue(error.message().contains(TRADE_RULE), error.message());
        assertTrue(error.message().contains("\"routing\""), error.message());
    }

    // ---- salience ties ----

    @Test
    void aSalienceTieCompilesWithAWarningNamingBothRulesAndTheFirstLoadedDecides() throws Exception {
        // Given a rule tying with the trade rule (salience 700), written after it
        Path rules = copyOfRules(tmp);
        Path drl = rules.resolve(ROUTING);
        edit(drl, RULE_AFTER_TRADE, CFO_TRADE_RULE + RULE_AFTER_TRADE);

        // When the bundle is compiled and a trade message is decided
        RuleBundle bundle = compile(rules);
        Decision<RouteDecision> d = Packs.BROKER.decide(bundle, trade(), false);

        // Then there is one warning naming both rules, at the later one
        List<BundleError> warnings = bundle.warnings();
        assertEquals(1, warnings.size(), warnings::toString);
        BundleError warning = warnings.get(0);
        assertEquals(ROUTING, warning.file());
        assertEquals(lineOf(drl, "rule \"trade messages go to the CFO\""), warning.line());
        assertTrue(warning.message().contains(TRADE_RULE), warning.message());
        assertTrue(warning.message().contains("trade messages go to the CFO"), warning.message());
        // And the rule loaded first, the original, decides
        assertEquals(TRADE_RULE, d.decidedBy().name());
        assertEquals(List.of("vp-trading"), d.outcome().primaryRecipients());
    }

    @Test
    void whenTheTyingRuleIsWrittenFirstItDecides() throws Exception {
        // Given the same tying rule, written before the trade rule
        Path rules = copyOfRules(tmp);
        edit(rules.resolve(ROUTING), TRADE_RULE_HEADER, CFO_TRADE_RULE + TRADE_RULE_HEADER);

        // When a trade message is decided
        RuleBundle bundle = compile(rules);
        Decision<RouteDecision> d = Packs.BROKER.decide(bundle, trade(), false);

        // Then the new rule, now loaded first, decides, and only it
        assertEquals("trade messages go to the CFO", d.decidedBy().name());
        assertEquals(List.of("cfo"), d.outcome().primaryRecipients());
        assertEquals(1, d.evaluation().fired().stream().filter(RuleInfo::decides).count());
        assertEquals(1, bundle.warnings().size(), bundle.warnings()::toString);
    }

    // ---- reference data ----

    @Test
    void malformedOrgChartJsonIsRefusedWithItsFileAndLine() throws Exception {
        // Given a missing comma between two fields of the CFO's card
        Path rules = copyOfRules(tmp);
        Path chart = rules.resolve(ORG_CHART);
        edit(chart, "{\"id\": \"cfo\", \"name\": \"CFO\",", "{\"id\": \"cfo\", \"name\": \"CFO\"");
        int cfoLine = lineOf(chart, "\"id\": \"cfo\"");

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then the error is in the org chart, on the CFO's line
        BundleError error = only(refused, ORG_CHART);
        assertEquals(cfoLine, error.line(), () -> refused.errors().toString());
    }

    @Test
    void anAgentReportingToAnUnknownAgentIsRefusedAtThatAgentsLine() throws Exception {
        // Given the sports agent reports to an agent that has no card
        Path rules = copyOfRules(tmp);
        Path chart = rules.resolve(ORG_CHART);
        edit(chart, "\"id\": \"sports-agent\", \"name\": \"Sports Agent\", \"title\": \"Sports-betting trading bot\", "
                + "\"role\": \"trading\", \"reports_to\": \"vp-trading\"",
                "\"id\": \"sports-agent\", \"name\": \"Sports Agent\", \"title\": \"Sports-betting trading bot\", "
                + "\"role\": \"trading\", \"reports_to\": \"vp-tradin\"");
        int agentLine = lineOf(chart, "\"id\": \"sports-agent\"");

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then it is refused at the sports agent's card, naming the unknown manager
        BundleError error = only(refused, ORG_CHART);
        assertEquals(agentLine, error.line(), () -> refused.errors().toString());
        assertTrue(error.message().contains("sports-agent"), error.message());
        assertTrue(error.message().contains("vp-tradin"), error.message());
    }

    // ---- the bundle's shape ----

    @Test
    void anUnknownTopLevelFolderIsRefused() throws Exception {
        // Given a misspelt pack folder next to the real one
        Path rules = copyOfRules(tmp);
        Files.createDirectories(rules.resolve("brokr"));
        Files.writeString(rules.resolve("brokr/x.drl"), "package signalman.brokr;\n");

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then it is refused, naming the folder
        assertTrue(refused.errors().stream().anyMatch(e -> e.file().startsWith("brokr") && e.message().contains("brokr")),
                () -> refused.errors().toString());
    }

    @Test
    void aSymbolicLinkInsideTheRulesIsRefused() throws Exception {
        // Given a DRL file outside the rules, linked into the broker pack
        Path rules = copyOfRules(tmp);
        Path outside = Files.writeString(tmp.resolve("outside.drl"), "package signalman.broker;\n");
        Files.createSymbolicLink(rules.resolve("broker/linked.drl"), outside);

        // When the bundle is read
        BundleException refused = refuse(rules);

        // Then the link is refused, by its path in the bundle
        assertTrue(refused.errors().stream().anyMatch(e -> e.file().equals("broker/linked.drl")
                && e.message().contains("symbolic link")), () -> refused.errors().toString());
    }

    @Test
    void everyErrorInABundleIsReportedNotOnlyTheFirst() throws Exception {
        // Given three independent mistakes: a missing @reason, an unknown agenda-group, an unknown manager
        Path rules = copyOfRules(tmp);
        Path drl = rules.resolve(ROUTING);
        Path chart = rules.resolve(ORG_CHART);
        edit(drl, "    @reason(\"subtype starts with trade.\")\n", "");
        edit(drl, "agenda-group \"route\" activation-group \"route\" salience 400",
                "agenda-group \"contents\" activation-group \"route\" salience 400");
        edit(chart, "\"reports_to\": \"sr-director-tooling\"", "\"reports_to\": \"nobody\"");
        int tradeLine = lineOf(drl, TRADE_RULE_HEADER);
        int contentLine = lineOf(drl, "rule \"content messages go to VP Content\"");
        int toolSmithLine = lineOf(chart, "\"id\": \"tool-smith\"");

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then all three are reported, each where it is
        List<String> at = refused.errors().stream().map(e -> e.file() + ":" + e.line()).toList();
        assertTrue(at.contains(ROUTING + ":" + tradeLine), at::toString);
        assertTrue(at.contains(ROUTING + ":" + contentLine), at::toString);
        assertTrue(at.contains(ORG_CHART + ":" + toolSmithLine), at::toString);
    }

    // ---- helpers ----

    private static BundleException refuse(Path rules) {
        return assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules)),
                "the bundle should be refused");
    }

    private static RuleBundle compile(Path rules) throws BundleException {
        return Packs.compiler().compile(BundleFiles.read(rules));
    }

    /** The one error of a refusal, which must be in the given file. */
    private static BundleError only(BundleException refused, String file) {
        List<BundleError> errors = refused.errors();
        assertEquals(1, errors.size(), () -> "expected one error, got " + errors);
        assertEquals(file, errors.get(0).file(), errors::toString);
        return errors.get(0);
    }

    /** The 1-based line of the first occurrence of {@code needle} in the file. */
    private static int lineOf(Path file, String needle) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) {
                return i + 1;
            }
        }
        throw new AssertionError(file + " has no line containing " + needle + ":\n"
                + lines.stream().collect(Collectors.joining("\n")));
    }

    private static BrokerMessage trade() {
        return new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"), "event", "trade.entry", null);
    }

    @Test
    void aConsequenceTheJavaParserRejectsRefusesTheWholeBundleNeverAHalfBuiltOne() throws Exception {
        Path rules = io.signalman.TestBundles.copyOfRules(tmp.resolve("half-built"));
        io.signalman.TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"sr-director-tooling\")",
                "decide.primary(\"sr-director-tooling\"");
        BundleException e = org.junit.jupiter.api.Assertions.assertThrows(BundleException.class,
                () -> io.signalman.packs.Packs.compiler().compile(BundleFiles.read(rules)));
        org.junit.jupiter.api.Assertions.assertTrue(e.errors().stream().anyMatch(x -> x.file().startsWith("broker/")), e.errors().toString());
    }
}
