package io.signalman.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import java.util.List;

/**
 * A pack as HTTP, the event bus, replay, the CLI and the tests all see it: parse an input, decide
 * it against a bundle, render the outcome, check the invariants. Each pack implements it once,
 * around its own typed {@code decide}; no caller reimplements a decision.
 */
public interface DecisionPack<I, D> extends PackDefinition {

    /** What the engine compiles: the pack itself, as the engine sees it. */
    default PackDefinition definition() {
        return this;
    }

    /** Strict parse of a client's JSON; errors name the field path. */
    I parseInput(JsonNode json) throws InputException;

    /** The input as recorded in the decision log (it parses back to an equal input). */
    JsonNode inputJson(I input);

    /**
     * The input of a recorded decision, for replay. Stateful packs decide from a request and the
     * state it found, so their input type carries both, and the state comes back from
     * {@code state_before}; stateless packs ignore it.
     */
    default I parseRecord(JsonNode input, JsonNode stateBefore) throws InputException {
        return parseInput(input);
    }

    /** The state a decision was made from, recorded as {@code state_before}; null when stateless. */
    default JsonNode stateBefore(I input) {
        return null;
    }

    /**
     * What a live trial's canary buckets a request by, so that one sender, instance or
     * conversation keeps one arm for its whole life (each pack's README names it). {@code live} is
     * the live rules' outcome for the request, for a pack whose key is itself decided (dispatch:
     * the session key). Never null: a request without a key buckets as the empty key.
     */
    String trialKey(I input, D live);

    /** Decides one input against a bundle; blocking, call from a worker thread. */
    Decision<D> decide(RuleBundle bundle, I input, boolean explain);

    /**
     * A new decision of this pack on {@code bundle}: a fresh id, the bundle's revision, the pack's
     * {@code outcome}, and the rules of the evaluation it came from (with its explainer, so
     * {@code why_not} can ask about any rule).
     */
    default Decision<D> decision(RuleBundle bundle, D outcome, Evaluation<?> ev) {
        return new Decision<>(Ulid.next(), name(), bundle.revision(), outcome, ev.withOutcome(outcome));
    }

    /** The pack-specific fields of a response, which are also what replay compares. */
    ObjectNode outcomeJson(D outcome);

    List<Invariant<I, D>> invariants();
}
