package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.cost.Budgets;
import io.signalman.packs.Packs;
import io.signalman.rulelang.TextBounds;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A check that would take longer than its deadline answers "too complex to check" instead of
 * hanging, and the compiler checks the next bundle as usual: its lock was given back.
 */
class CheckDeadlineTest {

    @TempDir
    Path dir;

    @AfterEach
    void defaults() {
        Budgets.use(Budgets.DEFAULT);
    }

    @Test
    void aBundleSlowToCheckIsRefusedAtTheDeadlineAndTheCompilerChecksOn() throws Exception {
        // Given rules each within the text bounds (parentheses nested to the limit, which Drools' expression
        // parser reads in time exponential in the depth), three hundred of them, and a deadline of 2 s
        String open = "(".repeat(TextBounds.MAX_DEPTH - 1);
        String close = ")".repeat(TextBounds.MAX_DEPTH - 1);
        StringBuilder drl = new StringBuilder("""
                package signalman.broker;

                import io.signalman.broker.Message;

                global io.signalman.broker.Route decide;

                """);
        for (int i = 0; i < 300; i++) {
            drl.append("rule \"nested ").append(i).append("\"\n    @reason(\"slow to read\")\n")
                    .append("    agenda-group \"route\" activation-group \"route\" salience ").append(5000 + i).append("\n")
                    .append("when\n    Message( ").append(open).append("subtype == \"n").append(i).append("\"")
                    .append(close).append(" )\nthen\n    decide.primary(\"openclaw\");\nend\n\n");
        }
        Path rules = dir.resolve("rules");
        TestBundles.copyTree(TestBundles.RULES, rules);
        Files.writeString(rules.resolve("broker/nested.drl"), drl);
        Budgets d = Budgets.DEFAULT;
        Budgets.use(new Budgets(d.maxCombinations(), d.maxSteps(), d.longestText(), d.decisionBytes(), d.decisionCpuMs(),
                d.quarantineAfter(), 2, d.maxPackSteps()));
        BundleCompiler compiler = Packs.compiler();

        // When it is checked
        BundleException e = assertThrows(BundleException.class, () -> compiler.compile(BundleFiles.read(rules)));

        // Then it is refused as too complex to check, naming the flag
        assertEquals(1, e.errors().size(), e.errors().toString());
        assertTrue(e.errors().get(0).message().startsWith("too complex to check") && e.errors().get(0).message()
                .contains("--check-deadline-s"), e.errors().toString());

        // And the same compiler checks the shipped rules next
        Budgets.use(Budgets.DEFAULT);
        assertEquals(5, compiler.compile(BundleFiles.read(TestBundles.RULES)).packs().size());
    }
}
