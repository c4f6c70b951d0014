package io.signalman.engine;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A property every decision of a pack must have, stated as a sentence. One list per pack serves
 * three users: jqwik properties over generated inputs, properties over archive records, and the
 * replay gate. Packs build theirs with {@link #of} and {@link #deterministic}.
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

    /**
     * Whether {@link #check} decides the same input a second time to compare the two decisions
     * (determinism). That costs a whole decision on every record, so replay may run it on a sample
     * of records only (see {@code replay.Determinism}); every other invariant runs on every record,
     * one that decides other inputs included (dispatch's linked senders: a property of what the
     * rules decide, which a sample would miss, not of whether they decide it twice alike).
     */
    default boolean decidesAgain() {
        return false;
    }

    /** What an invariant checks: the violation in words, or null when it holds. */
    @FunctionalInterface
    interface Check<I, D> {
        String violation(I input, Decision<D> decision, Function<I, Decision<D>> decideAgain);
    }

    /** An invariant of the whole decision (its fired rules, a second decision of the input). */
    static <I, D> Invariant<I, D> of(String name, Check<I, D> check) {
        return new Named<>(name, check);
    }

    /** An invariant of the input and the pack's outcome alone: the violation, or null. */
    static <I, D> Invariant<I, D> of(String name, BiFunction<I, D, String> violation) {
        Objects.requireNonNull(violation, "violation");
        return new Named<>(name, (in, d, again) -> violation.apply(in, d.outcome()));
    }

    /** Deciding the same input again gives the same outcome by the same rule (rules read no clock and do no I/O). */
    static <I, D> Invariant<I, D> deterministic(String name) {
        return new Named<>(name, (in, d, again) -> {
            Decision<D> second = again.apply(in);
            return second.outcome().equals(d.outcome()) && Objects.equals(second.decidedBy(), d.decidedBy())
                    ? null : "decided " + d.outcome() + " then " + second.outcome();
        }, true);
    }

    /**
     * An invariant made of its sentence and its check.
     *
     * @param decidesAgain whether the check calls {@code decideAgain} (see {@link Invariant#decidesAgain})
     */
    record Named<I, D>(String name, Check<I, D> check, boolean decidesAgain) implements Invariant<I, D> {

        public Named {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(check, "check");
        }

        /** A check of the decision it is given alone. */
        public Named(String name, Check<I, D> check) {
            this(name, check, false);
        }

        @Override
        public Optional<String> check(I input, Decision<D> decision, Function<I, Decision<D>> decideAgain) {
            return Optional.ofNullable(check.violation(input, decision, decideAgain));
        }
    }
}
