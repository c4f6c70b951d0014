package io.signalman.engine;

import static io.signalman.TestBundles.lineOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code text("task") != ""} holds for an action without a task, so it is refused at
 * its line with the fix; the fixed guard (with {@code has("task")}) loads, and the shipped rules,
 * which the golden history proves, have no such guard.
 */
class MissingFieldLintTest {

    private static final String GUARD = "    Action( name == \"review\", number(\"quality\") >= 0.7 )";

    @TempDir
    Path dir;

    @Test
    void aNotEqualsGuardOnAPayloadFieldIsRefusedAtItsLineWithTheFix() throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        Path file = rules.resolve("fsm/review-flow.drl");
        TestBundles.edit(file, GUARD, "    Action( name == \"review\", text(\"task\") != \"\" )");
        int line = lineOf(file, "text(\"task\") != \"\"");
        BundleException e = assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules)));
        BundleError error = e.errors().stream().filter(x -> x.message().contains("has(\"task\")")).findFirst()
                .orElseThrow(() -> new AssertionError(e.errors().toString()));
        assertEquals("fsm/review-flow.drl", error.file());
        assertEquals(line, error.line(), error.toString());
        assertTrue(error.message().contains("also holds when the payload has no \"task\""), error.message());
    }

    @Test
    void theGuardWithHasLoads() throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.edit(rules.resolve("fsm/review-flow.drl"), GUARD,
                "    Action( name == \"review\", has(\"task\"), text(\"task\") != \"\" )");
        TestBundles.compile(rules);
    }

    @Test
    void theShippedRulesHaveNoSuchGuard() {
        // shipped() fails on any error: no shipped guard passes on a missing field, so no decision changes.
        assertTrue(TestBundles.shipped().pack("fsm").isPresent());
    }

}
