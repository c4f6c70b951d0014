package io.signalman.dispatch;

/**
 * The model for this turn (seed 004): the light model when routing is enabled and the score is
 * below the threshold, otherwise the agent's primary model.
 *
 * @param score the scoring rules' sum, capped to 0..1
 */
public record ModelChoice(String name, boolean light, double score, Features features) {
}
