package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.RouteDecision;
import io.signalman.rulelang.GeneratedJava;
import io.signalman.rulelang.LinearPattern;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the rule language allows still compiles and decides behind its three lines of defence:
 * a file using every construct an analyst may write passes the rule reader, the check of the Java
 * Drools generates from it and the rule class loader; and {@code matches} runs on RE2/J, so a
 * pattern that takes a backtracking engine exponential time decides at once.
 */
class RuleLanguageTest {

    private static final Path FEATURES = Path.of("src/test/resources/rule-language/broker/features.drl");

    @TempDir
    static Path dir;

    @Test
    void everyConstructTheLanguageAllowsCompilesAndDecides() throws Exception {
        // Given the shipped broker pack and a file with every construct of the language
        RuleBundle bundle = withFeatures();

        // When a message that meets every condition of the first rule is decided
        RouteDecision d = Packs.BROKER.decide(bundle, message("high", "feature.trade.done"), false).outcome();

        // Then that rule decided, its consequence's local and bindings included
        assertEquals(List.of("openclaw", "cfo"), d.primaryRecipients());
        assertTrue(d.fanOut().containsAll(List.of("sentinel", "mission-control")), d.fanOut().toString());
    }

    @Test
    void aPatternThatStallsABacktrackingEngineDecidesInLinearTime() throws Exception {
        // Given (.*a){20}, which java.util.regex takes exponential time to fail on, and a subtype it fails on
        RuleBundle bundle = withFeatures();
        String subtype = "a".repeat(19) + "b".repeat(50_000);

        // When it is decided (java.util.regex would not return within the lifetime of the test run)
        var d = Packs.BROKER.decide(bundle, message("normal", subtype), false);

        // Then the pattern did not match and another rule decided; and where it should match, it does
        assertEquals("everything else goes to the sender's manager", d.decidedBy().name());
        var matched = Packs.BROKER.decide(bundle, message("normal", "xa".repeat(25_000)), false);
        assertEquals("a pattern no backtracking engine could finish decides", matched.decidedBy().name());
        assertEquals(List.of("openclaw"), matched.outcome().primaryRecipients());
    }

    @Test
    void theGeneratedJavaOfAMatchesUsesRe2AndOnlyItsFields() {
        String generated = """
                package signalman.broker;
                public class Rules0123456789ABCDEF0123456789ABCDEF {
                    private static final java.util.regex.Pattern regexp_AB = java.util.regex.Pattern.compile("java.util.regex.Pattern");
                }
                """;

        String rewritten = LinearPattern.inGeneratedJava(generated);

        assertTrue(rewritten.contains("private static final com.google.re2j.Pattern regexp_AB = com.google.re2j.Pattern.compile("),
                rewritten);
        assertTrue(rewritten.contains("compile(\"java.util.regex.Pattern\")"), "a text that spells the name is data: " + rewritten);
        assertTrue(GeneratedJava.check(Packs.BROKER.vocabulary(), Set.of("signalman.broker"), Map.of("R.java", rewritten)).isEmpty());
        assertFalse(GeneratedJava.check(Packs.BROKER.vocabulary(), Set.of("signalman.broker"), Map.of("R.java", generated))
                .isEmpty(), "Java's own pattern is not what the compiled rules may use");
    }

    private static RuleBundle withFeatures() throws Exception {
        Path rules = Files.createTempDirectory(dir, "rules");
        TestBundles.copyTree(TestBundles.RULES.resolve("broker"), rules.resolve("broker"));
        Files.copy(FEATURES, rules.resolve("broker/features.drl"));
        return Packs.compiler().compile(BundleFiles.read(rules));
    }

    private static BrokerMessage message(String priority, String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope("vp-trading", priority), "event", subtype, null);
    }
}
