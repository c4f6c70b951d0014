package io.signalman.engine;

import static io.signalman.TestBundles.copyOfRules;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.packs.Packs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceOnlyLintTest {

    private static final String ONLY_REFERENCE = "src/test/resources/nondeterministic-rules/broker/decides-from-reference-data-alone.drl";

    @TempDir
    Path tmp;

    @Test
    void aRuleMatchingOnlyReferenceDataIsWarnedAboutAtItsLine() throws Exception {
        // Given the broker's rules and one more that matches only an org-chart card
        Path rules = copyOfRules(tmp);
        Files.copy(Path.of(ONLY_REFERENCE), rules.resolve("broker/reference-only.drl"));

        // When the bundle is compiled, it loads, with one such warning, at that rule
        RuleBundle b = Packs.compiler().compile(BundleFiles.read(rules));

        List<BundleError> found = b.warnings().stream().filter(w -> w.message().contains("matches only reference data")).toList();
        assertEquals(1, found.size(), b.warnings().toString());
        BundleError w = found.get(0);
        assertTrue(w.file().endsWith("reference-only.drl"), w::toString);
        assertEquals(TestBundles.lineOf(rules.resolve("broker/reference-only.drl"),
                "rule \"while the founder has a card, messages go to openclaw and knox\""), w.line());
        assertTrue(w.message().contains("(AgentCard)") && w.message().contains("add a pattern of the message"), w::toString);
    }

    @Test
    void noShippedRuleIsWarnedAbout() {
        // Every shipped rule reads its message: a pattern under not, exists or from counts as it should
        RuleBundle b = TestBundles.shipped();

        assertTrue(b.warnings().stream().noneMatch(w -> w.message().contains("matches only reference data")
                || w.message().contains("has no pattern")), b.warnings().toString());
    }
}
