package io.signalman.fsm;

import static io.signalman.TestBundles.compileErrors;
import static io.signalman.TestBundles.lineOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code signalman check} on FSM machines and signal routes. */
class FsmCheckTest {

    @TempDir
    Path tmp;

    @Test
    void aTransitionToAnUndeclaredStateIsAnErrorAtItsRule() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        Path drl = rules.resolve("fsm/review-flow.drl");
        TestBundles.edit(drl, "decide.to(\"revising\");", "decide.to(\"revisng\");");

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("fsm/review-flow.drl", errors.get(0).file());
        assertEquals(lineOf(drl, "rule \"a review below the quality bar"), errors.get(0).line());
        assertTrue(errors.get(0).message().contains("\"revisng\", which machine review-flow does not declare"));
    }

    @Test
    void aTransitionRuleThatDoesNotNameItsActionIsAnError() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve("fsm/transaction.drl"), "Action( name == \"abort\" )", "Action( )");
        assertTrue(compileErrors(rules).get(0).message().contains("does not name its action"), compileErrors(rules).toString());
    }

    @Test
    void aSignalRouteWithNoTierIsAnError() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        Path drl = rules.resolve("signals/plugins.drl");
        TestBundles.edit(drl, "agenda-group \"plugin\" activation-group \"signal-route\" salience 100",
                "activation-group \"signal-route\" salience 100");

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("signals/plugins.drl", errors.get(0).file());
        assertTrue(errors.get(0).message().contains("has no tier"), errors.get(0).message());
    }

    @Test
    void aMachineWhoseInitialStateIsNotOneOfItsStatesIsAnErrorAtItsLine() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve("fsm/machines.json"), "\"initial\": \"idle\", \"states\": [\"idle\", \"processing\"]",
                "\"initial\": \"ready\", \"states\": [\"idle\", \"processing\"]");
        List<BundleError> errors = compileErrors(rules);
        assertEquals("fsm/machines.json", errors.get(0).file());
        assertEquals(4, errors.get(0).line());
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
