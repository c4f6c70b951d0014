package io.signalman.signals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import io.signalman.fsm.FsmInstance;
import io.signalman.json.Json;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The signals pack's invariants over generated signals, agents and FSM states, with the shipped rules. */
class SignalsProperties {

    private static final RuleBundle BUNDLE = TestBundles.shipped();

    @Provide
    Arbitrary<SignalStep> steps() {
        Arbitrary<String> agents = Arbitraries.of("reviewer", "planner", "summarizer", "clerk", "x");
        Arbitrary<String> kinds = Arbitraries.of("user_message", "tool_result", "stop", "timer", "custom:escalate",
                "custom:deploy", "custom:Stop", "custom:stop");
        Arbitrary<FsmInstance> fsm = Arbitraries.of(new FsmInstance("transaction", "idle"),
                new FsmInstance("transaction", "processing"), new FsmInstance("review-flow", "running")).injectNull(0.4);
        Arbitrary<com.fasterxml.jackson.databind.JsonNode> payloads = Combinators.combine(Arbitraries.of(true, false),
                Arbitraries.of(true, false), Arbitraries.of(true, false)).as((command, budget, approved) -> {
                    var p = Json.object().put("budget_exhausted", budget).put("approved", approved);
                    return command ? p.put("command", "/go") : p;
                });
        return Combinators.combine(agents, kinds, payloads, fsm).as(SignalStep::new);
    }

    @Property(tries = 500)
    void everyInvariantHoldsForAnySignal(@ForAll("steps") SignalStep step) {
        Decision<SignalDecision> d = Packs.SIGNALS.decide(BUNDLE, step, false);
        for (Invariant<SignalStep, SignalDecision> inv : SignalsInvariants.ALL) {
            Optional<String> v = inv.check(step, d, s -> Packs.SIGNALS.decide(BUNDLE, s, false));
            assertTrue(v.isEmpty(), () -> inv.name() + ": " + v.get() + " for " + step);
        }
    }

    @Property(tries = 500)
    void anAgentRunningATransactionIsAlwaysGovernedByItsStrategyOnStop(@ForAll("steps") SignalStep step) {
        SignalStep stop = new SignalStep(step.agent(), "stop", step.payload(), new FsmInstance("transaction", "processing"));
        SignalDecision d = Packs.SIGNALS.decide(BUNDLE, stop, false).outcome();
        assertTrue(d.tier() == SignalTier.STRATEGY && "force_stop".equals(d.actionType()), d::toString);
    }
}
