package io.signalman.fsm;

import static io.signalman.TestBundles.compileErrors;
import static io.signalman.TestBundles.lineOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** {@code signalman check} on FSM machines and signal routes. */
class FsmCheckTest {

    @TempDir
    Path tmp;

    /**
     * Edits of a seed file ({@code from} replaced with {@code to}) that the check refuses with exactly
     * one error, in that file, at the first line holding {@code at} after the edit, its message
     * holding {@code words}.
     */
    private static final List<Arguments> MISTAKES = List.of(
            argumentSet("a transition to an undeclared state is an error at its rule", "fsm/review-flow.drl",
                    "decide.to(\"revising\");", "decide.to(\"revisng\");", "rule \"a review below the quality bar",
                    "\"revisng\", which machine review-flow does not declare"),
            argumentSet("a transition rule that does not name its action is an error", "fsm/transaction.drl",
                    "Action( name == \"abort\" )", "Action( )", "rule \"an abort rolls the transaction back\"",
                    "does not name its action"),
            argumentSet("a signal route with no tier is an error", "signals/plugins.drl",
                    "agenda-group \"plugin\" activation-group \"signal-route\" salience 100",
                    "activation-group \"signal-route\" salience 100", "rule \"stop signals stop gracefully by default\"", "has no tier"),
            argumentSet("a machine whose initial state is not one of its states is an error at its line", "fsm/machines.json",
                    "\"initial\": \"idle\", \"states\": [\"idle\", \"processing\"]",
                    "\"initial\": \"ready\", \"states\": [\"idle\", \"processing\"]", "\"initial\": \"ready\"", "ready"));

    @ParameterizedTest(name = "{argumentSetName}")
    @FieldSource("MISTAKES")
    void aMistakeInAMachineOrARouteIsOneErrorAtItsLine(String path, String from, String to, String at, String words)
            throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        Path file = rules.resolve(path);
        TestBundles.edit(file, from, to);

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals(path, errors.get(0).file());
        assertEquals(lineOf(file, at), errors.get(0).line(), errors.toString());
        assertTrue(errors.get(0).message().contains(words), errors.get(0).message());
    }

    @Test
    void transitionsOfDifferentActionsWithEqualSalienceAreNoTie() throws Exception {
        var bundle = Packs.compiler().compile(BundleFiles.read(TestBundles.RULES));
        assertEquals(List.of(), bundle.warnings());
    }

    @Test
    void theTransitionTableAndDiagramAreReadFromTheRules() {
        Machines m = TestBundles.shipped().requirePack("fsm").reference().as(Machines.class);
        assertEquals(List.of("a review of good quality is done", "a review below the quality bar goes back for revision"),
                m.candidates("review-flow", "running", "review").stream().map(t -> t.rule().name()).toList());
        assertEquals(List.of("finish", "review"), m.validActions("review-flow", "running"));
        String diagram = m.mermaid("review-flow");
        assertTrue(diagram.startsWith("stateDiagram-v2\n    [*] --> idle\n"), diagram);
        assertTrue(diagram.contains("running --> done : review [number('quality') >= 0.7]"), "the guard's expression, not the rule's name: " + diagram);
        assertTrue(diagram.contains("revising --> running : restart [no guard]"), diagram);
    }
}
