package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** Crew validation is part of the bundle check: each mistake refuses the bundle at its file and line. */
class CrewValidationTest {

    @TempDir
    Path dir;

    private List<BundleError> refused(String file, String from, String to) throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.edit(rules.resolve(file), from, to);
        return assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules))).errors();
    }

    private static void assertError(List<BundleError> errors, String file, int line, String words) {
        assertTrue(errors.stream().anyMatch(e -> e.file().equals(file) && e.line() == line && e.message().contains(words)),
                "expected " + file + ":" + line + " \"" + words + "\" in " + errors);
    }

    /** Mistakes made by replacing {@code from} with {@code to} in a seed file, and the error each must give: its line and words. */
    private static final List<Arguments> MISTAKES = List.of(
            argumentSet("a signal without brackets is refused at its line", "handoff/exam.drl",
                    "match(\"[DONE]\")", "match(\"DONE\")", 15, "must be written [NAME]"),
            argumentSet("a route to an unknown agent is refused at its line", "handoff/exam.drl",
                    "decide.route($said, \"reporter\");", "decide.route($said, \"proctor\");", 37,
                    "\"proctor\", which is no agent or parallel group"),
            argumentSet("the same signal twice for one agent is refused", "handoff/exam.drl",
                    "match(\"[END_EXAM]\")", "match(\"[ question ]\")", 35, "already listens to [QUESTION]"),
            argumentSet("a group without agents is refused at its line", "handoff/exam.json",
                    "\"agents\": [\"teacher\", \"reporter\"]", "\"agents\": []", 12, "has no agents"),
            argumentSet("an unknown group member is refused at its line", "handoff/exam.json",
                    "[\"student\", \"reporter\"]", "[\"student\", \"janitor\"]", 11, "\"janitor\", which is no agent"),
            argumentSet("an unknown next agent is refused at its line", "handoff/support.json",
                    "\"next_agent\": \"closer\"", "\"next_agent\": \"manager\"", 11, "moves on to \"manager\""),
            argumentSet("an unknown handoff target is refused at its line", "handoff/support.json",
                    "[\"billing\", \"tech\"]", "[\"billing\", \"sales\"]", 5, "hands off to \"sales\""),
            argumentSet("an unknown field in a crew is refused", "handoff/support.json",
                    "\"is_terminal\": true", "\"terminal\": true", 8, "unknown field \"terminal\""));

    @ParameterizedTest(name = "{argumentSetName}")
    @FieldSource("MISTAKES")
    void aCrewMistakeRefusesTheBundleAtItsFileAndLine(String file, String from, String to, int line, String words) throws Exception {
        assertError(refused(file, from, to), file, line, words);
    }
}
