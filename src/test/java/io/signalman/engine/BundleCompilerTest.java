package io.signalman.engine;

import static io.signalman.TestBundles.lineOf;
import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.RouteDecision;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

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

    /** An edit of one byte: in which file, and what it replaces. */
    private record OneByte(String why, String file, String from, String to) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<OneByte> ONE_BYTE_EDITS = List.of(
            new OneByte("a salience of the DRL (700 -> 701)", ROUTING, "salience 700", "salience 701"),
            new OneByte("a name in the org chart (Knox -> Knix)", ORG_CHART, "\"name\": \"Knox\"", "\"name\": \"Knix\""));

    @ParameterizedTest(name = "{0}")
    @FieldSource("ONE_BYTE_EDITS")
    void revisionChangesWhenOneByteOfTheDrlOrOfTheReferenceDataChanges(OneByte c) throws Exception {
        // Given a copy and its revision
        Path rules = copyOfRules(tmp);
        String before = BundleFiles.read(rules).revision();

        // When one byte of a file changes
        edit(rules.resolve(c.file()), c.from(), c.to());

        // Then the revision changes
        assertNotEquals(before, BundleFiles.read(rules).revision());
    }

    // ---- errors located in the analyst's file (DRL and reference data) ----

    /**
     * A mistake made by one edit of a file, refused with one error in that file: at the line holding
     * {@code at} after the edit, its message holding {@code words}.
     */
    private record Located(String why, String file, String from, String to, String at, List<String> words) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Located> LOCATED = List.of(
            // the trade rule's consequence calls a method the decision API does not have
            new Located("a typo in a consequence is refused at the line of that consequence naming the rule", ROUTING,
                    "decide.primary(\"vp-trading\")", "decide.primry(\"vp-trading\")", "decide.primry(", List.of(TRADE_RULE)),
            new Located("a deciding rule without @reason is refused at the rule's line naming it", ROUTING,
                    "    @reason(\"subtype starts with trade.\")\n", "", TRADE_RULE_HEADER, List.of(TRADE_RULE, "@reason")),
            // agenda-group "routing" is one the broker pack never focuses
            new Located("a rule in an agenda group the pack does not have is refused at the rule, naming the group", ROUTING,
                    "agenda-group \"route\" activation-group \"route\" salience 700",
                    "agenda-group \"routing\" activation-group \"route\" salience 700", TRADE_RULE_HEADER,
                    List.of(TRADE_RULE, "\"routing\"")),
            // a missing comma between two fields of the CFO's card
            new Located("malformed org chart JSON is refused at its line", ORG_CHART,
                    "{\"id\": \"cfo\", \"name\": \"CFO\",", "{\"id\": \"cfo\", \"name\": \"CFO\"", "\"id\": \"cfo\"",
                    List.of()),
            new Located("an agent reporting to an unknown agent is refused at that agent's card, naming the manager",
                    ORG_CHART, "\"id\": \"sports-agent\", \"name\": \"Sports Agent\", \"title\": \"Sports-betting trading bot\", "
                            + "\"role\": \"trading\", \"reports_to\": \"vp-trading\"",
                    "\"id\": \"sports-agent\", \"name\": \"Sports Agent\", \"title\": \"Sports-betting trading bot\", "
                            + "\"role\": \"trading\", \"reports_to\": \"vp-tradin\"",
                    "\"id\": \"sports-agent\"", List.of("sports-agent", "vp-tradin")));

    @ParameterizedTest(name = "{0}")
    @FieldSource("LOCATED")
    void aMistakeIsRefusedWithOneErrorAtItsLineInTheAnalystsFile(Located c) throws Exception {
        // Given the edit made
        Path rules = copyOfRules(tmp);
        Path file = rules.resolve(c.file());
        edit(file, c.from(), c.to());
        int line = lineOf(file, c.at());

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then the one error is in the analyst's file, at the line, saying what it must
        BundleError error = only(refused, c.file());
        assertEquals(line, error.line(), () -> "expected line " + line + ": " + refused.errors());
        for (String w : c.words()) {
            assertTrue(error.message().contains(w), error.message());
        }
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
    void aNulByteInAReadmeRefusesTheBundleAtItsLineBeforeAnythingIsCompiled() throws Exception {
        // Given the signals pack's README with a rule file framed inside it, after a NUL (issue 38)
        Path rules = copyOfRules(tmp);
        Path readme = rules.resolve("signals/README.md");
        Files.writeString(readme, Files.readString(readme).stripTrailing() + "\nnotes\0signals/zzz.drl\0package signalman.signals.plugins;\n");
        int line = (int) Files.readString(readme).lines().count();

        // When the bundle is compiled
        BundleException refused = refuse(rules);

        // Then the README is refused at the NUL's line and column, and nothing else is reported
        assertEquals(List.of(new BundleError("signals/README.md", line, 6, refused.errors().get(0).message())), refused.errors());
        assertTrue(refused.errors().get(0).message().contains("U+0000"), refused.errors()::toString);
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


    private static BrokerMessage trade() {
        return new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"), "event", "trade.entry", null);
    }

    @Test
    void aConsequenceTheJavaParserRejectsRefusesTheWholeBundleNeverAHalfBuiltOne() throws Exception {
        Path rules = copyOfRules(tmp.resolve("half-built"));
        edit(rules.resolve(ROUTING), "decide.primary(\"sr-director-tooling\")", "decide.primary(\"sr-director-tooling\"");

        BundleException e = refuse(rules);

        assertTrue(e.errors().stream().anyMatch(x -> x.file().startsWith("broker/")), e.errors().toString());
    }
}
