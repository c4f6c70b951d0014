package io.signalman.engine;

import java.util.Optional;
import java.util.function.Function;

/**
 * A property every decision of a pack must have, stated as a sentence. One list per pack serves
 * three users: jqwik properties over generated inputs, properties over archive records, and the
 * replay gate.
 */
public interface Invariant<I, D> {

    /** The invariant as a sentence: "critical messages always reach openclaw and knox". */
    String name();

    /**
     * Checks one decision.
     *
     * @param decideAgain decides the same input again (for determinism and other re-runs)
     * @return a description of the violation, or empty when the invariant holds
     */
    Optional<String> check(I input, Decision<D> decision, Function<I, Decision<D>> decideAgain);
}
