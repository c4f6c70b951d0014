package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void aSignalWithoutBracketsIsRefusedAtItsLine() throws Exception {
        assertError(refused("handoff/exam.drl", "match(\"[DONE]\")", "match(\"DONE\")"), "handoff/exam.drl", 15,
                "must be written [NAME]");
    }


    @Test
    void aRouteToAnUnknownAgentIsRefusedAtItsLine() throws Exception {
        assertError(refused("handoff/exam.drl", "decide.route($said, \"reporter\");", "decide.route($said, \"proctor\");"),
                "handoff/exam.drl", 37, "\"proctor\", which is no agent or parallel group");
    }

    @Test
    void theSameSignalTwiceForOneAgentIsRefused() throws Exception {
        assertError(refused("handoff/exam.drl", "match(\"[END_EXAM]\")", "match(\"[ question ]\")"), "handoff/exam.drl", 35,
                "already listens to [QUESTION]");
    }

    @Test
    void aGroupWithoutAgentsIsRefusedAtItsLine() throws Exception {
        assertError(refused("handoff/exam.json", "\"agents\": [\"teacher\", \"reporter\"]", "\"agents\": []"),
                "handoff/exam.json", 12, "has no agents");
    }

    @Test
    void anUnknownGroupMemberIsRefusedAtItsLine() throws Exception {
        assertError(refused("handoff/exam.json", "[\"student\", \"reporter\"]", "[\"student\", \"janitor\"]"),
                "handoff/exam.json", 11, "\"janitor\", which is no agent");
    }

    @Test
    void anUnknownNextAgentIsRefusedAtItsLine() throws Exception {
        assertError(refused("handoff/support.json", "\"next_agent\": \"closer\"", "\"next_agent\": \"manager\""),
                "handoff/support.json", 11, "moves on to \"manager\"");
    }

    @Test
    void anUnknownHandoffTargetIsRefusedAtItsLine() throws Exception {
        assertError(refused("handoff/support.json", "[\"billing\", \"tech\"]", "[\"billing\", \"sales\"]"),
                "handoff/support.json", 5, "hands off to \"sales\"");
    }

    @Test
    void anUnknownFieldInACrewIsRefused() throws Exception {
        assertError(refused("handoff/support.json", "\"is_terminal\": true", "\"terminal\": true"),
                "handoff/support.json", 8, "unknown field \"terminal\"");
    }
}
