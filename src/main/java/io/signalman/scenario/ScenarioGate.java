package io.signalman.scenario;

import io.signalman.engine.BundleError;
import io.signalman.engine.Gate;
import io.signalman.engine.RuleBundle;
import java.util.List;

/**
 * The reload gate's scenario check: every scenario of the candidate bundle must pass, or the
 * reload is refused naming each failing scenario, its file and line, and expected vs actual.
 * Scenarios travel with the rules (they are part of the bundle), so there is nothing to configure.
 */
public final class ScenarioGate implements Gate {

    @Override
    public List<BundleError> check(RuleBundle candidate) {
        return ScenarioRunner.run(candidate).asErrors();
    }
}
