package io.signalman.dispatch;

import io.signalman.engine.Collector;
import io.signalman.rulelang.RuleVocabulary;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/**
 * The dispatch pack's {@code decide} global. A dispatch rule calls it once:
 * {@code decide.agent("support");} or {@code decide.agent("release").sessionDimensions("chat", "topic");}.
 * Scoring rules add their weight: {@code decide.score(0.40);}.
 *
 * <p>Weights are summed as decimals, not doubles, so 0.15 + 0.10 + 0.10 is exactly 0.35, the
 * score does not depend on the order the scoring rules fire in, and the decision log shows the
 * number the analyst would compute by hand.
 *
 * <p>Mutable and reused by one session (see {@link Collector}); {@link #result()} copies it.
 */
@RuleVocabulary
public final class Dispatch implements Collector {

    /** What the rules said: the agent asked for (null if none), a dimension override (null if none), the raw score. */
    record Result(String agent, List<String> dimensions, BigDecimal score) {
    }

    private String agent;
    private List<String> dimensions;
    private BigDecimal score = BigDecimal.ZERO;

    @Override
    public void reset() {
        agent = null;
        dimensions = null;
        score = BigDecimal.ZERO;
    }

    /** The agent that handles the message; an id agents.json does not list falls back to the default agent. */
    public Dispatch agent(String id) {
        agent = id;
        return this;
    }

    /** Overrides the config's session dimensions for this message; names other than space, chat, topic, sender are dropped. */
    public Dispatch sessionDimensions(String... names) {
        dimensions = List.copyOf(Arrays.asList(names));
        return this;
    }

    /** Adds a weight to the model-routing score (the platform caps the sum to 0..1). */
    public Dispatch score(double weight) {
        score = score.add(BigDecimal.valueOf(weight));
        return this;
    }

    Result result() {
        return new Result(agent, dimensions, score);
    }
}
