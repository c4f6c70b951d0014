package io.signalman.dispatch;

import io.signalman.engine.RuleInfo;
import java.math.BigDecimal;

/**
 * Turns what the rules said into the decision (seed 004): the agent through the roster (an
 * unknown agent falls back to the default, and {@code matched_by} still names the rule), the
 * session policy and key, and the model.
 */
final class Resolver {

    private Resolver() {
    }

    static DispatchDecision resolve(DispatchReference ref, Inbound view, Features features, Dispatch.Result said,
                                    RuleInfo decidedBy) {
        DispatchConfig config = ref.config();
        String matchedBy = decidedBy == null ? "default" : ref.rules().matchedBy(decidedBy.name());
        String agent = decidedBy == null ? ref.agents().defaultAgent() : ref.agents().resolve(said.agent());
        // The seed keeps the config's dimensions when a rule's override is empty, not only when absent.
        SessionPolicy policy = new SessionPolicy(
                said.dimensions() == null || said.dimensions().isEmpty() ? config.dimensions()
                        : SessionPolicy.normalize(said.dimensions()),
                config.identityLinks().asMap());
        SessionScope scope = SessionScope.of(agent, view.channel(), view.account(), policy, view);
        return new DispatchDecision(agent, view.channel(), view.account(), matchedBy, policy, SessionKeys.of(scope), scope,
                model(ref, agent, features, said.score()));
    }

    private static ModelChoice model(DispatchReference ref, String agent, Features features, BigDecimal raw) {
        DispatchConfig config = ref.config();
        BigDecimal score = raw.max(BigDecimal.ZERO).min(BigDecimal.ONE);
        boolean light = config.routingEnabled() && score.compareTo(BigDecimal.valueOf(config.threshold())) < 0;
        String primary = ref.agents().model(agent).orElse(config.heavyModel());
        return new ModelChoice(light ? config.lightModel() : primary, light, score.doubleValue(), features);
    }
}
